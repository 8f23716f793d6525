"""Open QA on whole Arrow tables: modes, normalization, exact match and token F1 computed per column, with values
identical to the per-row functions (rows of the hotpot, cjk and cmrc modes are matched by them)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...core.arrow_strings import items_once_per_list, list_item_positions, list_lengths, list_offsets, list_starts
from ...core.distinct import codes_of, first_rows, first_rows_as_seen, mostly_repeated, mostly_repeated_at
from ...core.threads import map_ahead
from ...io.artifacts import ROW_GROUP_ROWS
from ...io.rows_writer import table_from_slices
from ...text.normalize import has_cjk_column, normalize_column
from .scoring import match_normalized

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

MATCH_BATCH_ROWS = 100_000  # rows matched at once (a batch per core): token keys for this many stay near 50 MB
NORMALIZE_ROWS = 250_000  # texts normalized at once, a chunk per core
NORMALIZED_SLICE_ROWS = 2 * ROW_GROUP_ROWS  # B3 rows made at once (whole row groups: the rows file's are as before)
REPEATED_SHARE = 1 / 3  # texts are normalized once per distinct value when at most this share look distinct
REPEATED_PAIRS_SHARE = 1 / 10  # B4 matches once per distinct pair when at most this share of rows look distinct: the
# sampled estimate (as if every value were as common) reads 805k distinct rows of 1M short ones as 165k, and finding
# the distinct pairs costs more than token F1 on every pair unless they repeat many times over
SHORT_TOKENS = 8  # pairs whose texts both have at most this many tokens are overlapped on padded grids
LABELS = ("missing", "correct", "partial", "wrong")  # B4's label column, by code


def choose_modes(golds: pa.Array, questions: pa.Array) -> pa.Array:
    """choose_mode per row: cjk when the question or every gold answer has CJK text, else squad."""
    import numpy as np
    import pyarrow.compute as pc

    rows = len(golds)
    gold_cjk = has_cjk_column(pc.list_flatten(golds)).to_numpy(zero_copy_only=False)
    parents = pc.list_parent_indices(golds).to_numpy()
    golds_without = np.bincount(parents[~gold_cjk], minlength=rows)
    every_gold = (list_lengths(golds) > 0) & (golds_without == 0)
    cjk = has_cjk_column(questions).to_numpy(zero_copy_only=False) | every_gold
    return pc.if_else(cjk, "cjk", "squad")


def normalize_table(joined: pa.Table, mode: str) -> pa.Table:
    """B3 for a joined table: each row's mode (chosen when `mode` is auto), its prediction and golds normalized (the
    golds as written kept beside them, so B4 can name the best one); NORMALIZED_SLICE_ROWS at a time, so the stage's
    rows file is encoded while the next slice is normalized (table_from_slices)."""
    import pyarrow as pa

    golds = joined.column("golds").combine_chunks().cast(pa.list_(pa.string()))
    questions = joined.column("question").combine_chunks().cast(pa.string())
    predictions = joined.column("prediction").combine_chunks().cast(pa.string())
    modes = choose_modes(golds, questions) if mode == "auto" else pa.repeat(pa.scalar(mode), len(golds))
    ids = joined.column("id")
    return table_from_slices(_normalized_slice(ids.slice(start, NORMALIZED_SLICE_ROWS),
                                               modes.slice(start, NORMALIZED_SLICE_ROWS),
                                               predictions.slice(start, NORMALIZED_SLICE_ROWS),
                                               golds.slice(start, NORMALIZED_SLICE_ROWS))
                             for start in range(0, max(len(golds), 1), NORMALIZED_SLICE_ROWS))


def _normalized_slice(ids: pa.ChunkedArray, modes: pa.Array, predictions: pa.Array, golds: pa.Array) -> pa.Table:
    """B3's rows for these rows of the joined table."""
    import pyarrow as pa
    import pyarrow.compute as pc

    golds_norm = pa.ListArray.from_arrays(list_offsets(pc.list_value_length(golds)), _golds_normalized(golds, modes))
    return pa.table({"id": ids, "mode": modes, "prediction_norm": _normalized(predictions, modes),
                     "golds_norm": golds_norm, "golds": golds})


def _golds_normalized(golds: pa.Array, modes: pa.Array) -> pa.Array:
    """Every gold answer normalized by its row's mode: once per distinct (answer, mode) where they mostly repeat,
    else once per run of equal answers within a list (SQuAD repeats an answer for each annotator who gave it)."""
    import pyarrow.compute as pc

    flat, parents = pc.list_flatten(golds), pc.list_parent_indices(golds)
    if len(flat) and mostly_repeated(flat, REPEATED_SHARE):
        return _normalized_once_each(flat, modes.take(parents))
    once, expand = items_once_per_list(golds)
    return _normalized_in_threads(flat.take(once), modes.take(parents.take(once))).take(expand)


def _normalized(texts: pa.Array, modes: pa.Array) -> pa.Array:
    """normalize_column of the texts by their modes, once per distinct (text, mode) where the texts mostly repeat
    (a million rows asked of ten thousand questions: their golds, most replies)."""
    if not len(texts) or not mostly_repeated(texts, REPEATED_SHARE):
        return _normalized_in_threads(texts, modes)
    return _normalized_once_each(texts, modes)


def _normalized_once_each(texts: pa.Array, modes: pa.Array) -> pa.Array:
    """normalize_column of the texts by their modes, each distinct (text, mode) normalized once."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pc.all(pc.equal(modes, modes[0])).as_py():
        encoded = pc.dictionary_encode(texts)
        distinct, distinct_modes, of_row = (encoded.dictionary, pa.repeat(modes[0], len(encoded.dictionary)),
                                            encoded.indices)
    else:
        first, row_codes = first_rows(codes_of(texts), codes_of(modes))
        taken = pa.array(first)
        distinct, distinct_modes, of_row = texts.take(taken), modes.take(taken), pa.array(row_codes)
    return _normalized_in_threads(distinct, distinct_modes).take(of_row)


def _normalized_in_threads(texts: pa.Array, modes: pa.Array) -> pa.Array:
    """normalize_column of the texts by their modes, NORMALIZE_ROWS at a time in threads side by side."""
    import pyarrow as pa

    chunks = [(texts.slice(start, NORMALIZE_ROWS), modes.slice(start, NORMALIZE_ROWS))
              for start in range(0, len(texts), NORMALIZE_ROWS)]
    parts = [part for _, part in map_ahead(lambda chunk: normalize_column(*chunk), chunks)]
    return pa.concat_arrays(parts) if parts else pa.array([], pa.string())


def match_table(normalized: pa.Table, threshold: float) -> pa.Table:
    """B4 for a normalized table: best gold (its index and text as written), EM, F1 and label per row (squad rows on
    columns, others row by row); rows are given as soon as they and every row before them are matched, so the
    stage's rows file is encoded while later batches are (table_from_slices)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    predictions = normalized.column("prediction_norm").combine_chunks().cast(pa.string())
    golds = normalized.column("golds_norm").combine_chunks().cast(pa.list_(pa.string()))
    modes = normalized.column("mode").combine_chunks()
    present = pc.is_valid(predictions).to_numpy(zero_copy_only=False)
    squad = present & pc.fill_null(pc.equal(modes, "squad"), False).to_numpy(zero_copy_only=False)
    em, f1, best = np.zeros(len(predictions)), np.zeros(len(predictions)), np.zeros(len(predictions), np.int64)
    rows = np.flatnonzero(present & ~squad)
    others = zip(modes.take(rows).to_pylist(), predictions.take(rows).to_pylist(), golds.take(rows).to_pylist())
    for row, (mode, prediction, gold_texts) in zip(rows, others):
        em[row], f1[row], best[row] = match_normalized(prediction, gold_texts, mode)

    def matched_until() -> Iterator[int]:
        """Each time more squad rows are matched: the row before which every row is."""
        squad_rows = np.flatnonzero(squad)
        if len(squad_rows) and _rows_repeat(predictions, golds):  # every row at once, each distinct pair once
            values = squad_em_f1(pc.fill_null(predictions, ""), golds, once_per_pair=True)
            for matched, value in zip((em, f1, best), values):
                matched[squad] = value[squad]
        else:
            batches = (squad_rows[start:start + MATCH_BATCH_ROWS]
                       for start in range(0, len(squad_rows), MATCH_BATCH_ROWS))
            for batch, (batch_em, batch_f1, batch_best) in map_ahead(
                    lambda batch: squad_em_f1(predictions.take(batch), golds.take(batch)), batches):
                em[batch], f1[batch], best[batch] = batch_em, batch_f1, batch_best
                after = int(np.searchsorted(squad_rows, batch[-1], side="right"))
                yield int(squad_rows[after]) if after < len(squad_rows) else len(predictions)
        yield len(predictions)

    written = normalized.column("golds").combine_chunks().cast(pa.list_(pa.string()))

    def matched_slices() -> Iterator[pa.Table]:
        done = 0
        for until in matched_until():
            if until > done or not len(predictions):
                yield _matched_rows(normalized.column("id").slice(done, until - done),
                                    written.slice(done, until - done), present[done:until], em[done:until],
                                    f1[done:until], best[done:until], threshold)
                done = until
                if not len(predictions):
                    return

    return table_from_slices(matched_slices())


def _matched_rows(ids: pa.ChunkedArray, written: pa.Array, present: np.ndarray, em: np.ndarray, f1: np.ndarray,
                  best: np.ndarray, threshold: float) -> pa.Table:
    """B4's rows for these rows, matched (their golds as written, whether a reply is there, EM, F1, best gold)."""
    import numpy as np
    import pyarrow as pa

    f1 = np.where(_only_the_empty_answer(written), em, f1)
    label_codes = np.where(~present, 0, np.where(em > 0, 1, np.where(f1 >= threshold, 2, 3)))
    return pa.table({"id": ids, "best_gold": pa.array(best, mask=~present),
                     "best_gold_text": _element(written, best, present), "exact_match": em.copy(), "f1": f1,
                     "label": pa.array(LABELS).take(pa.array(label_codes))})


def _rows_repeat(predictions: pa.Array, golds: pa.Array) -> bool:
    """Whether the rows' (prediction, golds) mostly repeat, judged on a sample (a reply and its golds joined by a
    unit separator: a text holding one may blur two rows, which only sways this choice of path)."""
    import pyarrow.compute as pc

    def joined_at(taken: pa.Array | None) -> pa.Array:
        texts, lists = (predictions, golds) if taken is None else (predictions.take(taken), golds.take(taken))
        return pc.binary_join_element_wise(texts, pc.binary_join(lists, "\x1f"), "\x1f")

    return mostly_repeated_at(len(predictions), joined_at, REPEATED_PAIRS_SHARE)


def _only_the_empty_answer(golds: pa.Array) -> np.ndarray:
    """Rows whose one gold is the empty answer (blank_gold = "empty_answer"): their F1 is their EM, as in SQuAD
    2.0's scorer (an empty reply scores 1, any other 0)."""
    import numpy as np
    import pyarrow.compute as pc

    if not pc.equal(pc.binary_length(pc.list_flatten(golds)), 0).true_count:  # no empty gold: no row to look at
        return np.zeros(len(golds), bool)
    one = list_lengths(golds) == 1
    first = _element(golds, np.zeros(len(golds), np.int64), one)
    return one & pc.fill_null(pc.equal(first, ""), False).to_numpy(zero_copy_only=False)


def _element(lists: pa.Array, index: np.ndarray, wanted: np.ndarray) -> pa.Array:
    """lists[row][index[row]] for wanted rows that have that element, else null."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    lengths = list_lengths(lists)
    starts = list_starts(lengths)
    rows = wanted & (index < lengths)
    positions = pa.array(np.where(rows, starts + index, 0), mask=~rows)
    flat = pc.list_flatten(lists)
    return flat.take(positions) if len(flat) else pa.nulls(len(lists), pa.string())


def squad_em_f1(predictions: pa.Array, golds: pa.Array,
                once_per_pair: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """match_normalized in squad mode for every row: (EM, best F1, index of the first gold with it), where the
    predictions have no nulls; a gold repeated in its row is compared once, or with `once_per_pair` each distinct
    (prediction, gold) pair of all the rows."""
    import numpy as np
    import pyarrow.compute as pc

    rows, lengths = len(predictions), list_lengths(golds)
    starts = list_starts(lengths)
    parents = pc.list_parent_indices(golds).to_numpy()
    flat = pc.list_flatten(golds)
    if once_per_pair:
        once, expand = first_rows_as_seen(codes_of(predictions)[parents], codes_of(flat))
    else:
        once, expand = items_once_per_list(golds)
    paired = predictions.take(parents[once])
    flat = flat.take(once)
    equal_once = pc.equal(paired, flat).to_numpy(zero_copy_only=False)
    f1_once = np.zeros(len(flat))
    f1_once[equal_once] = pc.greater(pc.binary_length(paired.filter(equal_once)), 0).to_numpy(zero_copy_only=False)
    f1_once[~equal_once] = token_f1_pairs(paired.filter(~equal_once), flat.filter(~equal_once))
    equal, f1 = equal_once[expand], f1_once[expand]
    em = (np.bincount(parents, weights=equal, minlength=rows) > 0).astype(np.float64)
    best_f1 = np.zeros(rows)
    best_f1[lengths > 0] = np.maximum.reduceat(f1, starts[lengths > 0]) if len(f1) else 0.0
    best = np.zeros(rows, np.int64)
    _first_where(f1 == best_f1[parents], best_f1[parents] > 0, parents, starts, best)
    _first_where(equal, (em > 0)[parents] & (best_f1 < 1.0)[parents], parents, starts, best)
    return em, best_f1, best


def _first_where(condition: np.ndarray, rows_wanted: np.ndarray, parents: np.ndarray, starts: np.ndarray,
                 best: np.ndarray) -> None:
    """best[row] = position within its row of the row's first pair where `condition` holds, for wanted rows."""
    import numpy as np

    pairs = np.flatnonzero(condition & rows_wanted)
    rows, first = np.unique(parents[pairs], return_index=True)
    best[rows] = pairs[first] - starts[rows]


def token_f1_pairs(predictions: pa.Array, golds: pa.Array) -> np.ndarray:
    """token_f1 of each (prediction, gold) pair of normalized texts (tokens are split at single spaces): each distinct
    text split and its tokens numbered once, the multiset overlap counted on padded token grids for short pairs and
    on sorted (pair, token id) keys for the others, then the official formula's float operations."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    pairs = len(predictions)
    texts = pc.dictionary_encode(pa.concat_arrays([predictions, golds]), null_encoding="encode")
    tokens = _tokens(texts.dictionary)
    words = pc.dictionary_encode(pc.list_flatten(tokens))
    token_ids = words.indices.to_numpy()
    text_lengths = list_lengths(tokens)
    codes = texts.indices.to_numpy()
    predicted, gold = codes[:pairs], codes[pairs:]
    predicted_lengths, gold_lengths = text_lengths[predicted], text_lengths[gold]
    short = (predicted_lengths <= SHORT_TOKENS) & (gold_lengths <= SHORT_TOKENS)
    same = np.zeros(pairs)
    if short.any():
        grid = _grid(tokens, text_lengths, token_ids)
        same[short] = _short_overlap(_widest(grid[predicted[short]], predicted_lengths[short], -1),
                                     _widest(grid[gold[short]], gold_lengths[short], -2))
    if not short.all():
        long_pairs = np.flatnonzero(~short)
        same[long_pairs] = _sorted_overlap(
            predicted_lengths[long_pairs], token_ids[list_item_positions(text_lengths, predicted[long_pairs])],
            gold_lengths[long_pairs], token_ids[list_item_positions(text_lengths, gold[long_pairs])],
            np.arange(len(long_pairs)), max(len(words.dictionary), 1))
    f1 = np.zeros(pairs)
    some = same > 0
    precision = 1.0 * same[some] / predicted_lengths[some]
    recall = 1.0 * same[some] / gold_lengths[some]
    f1[some] = (2 * precision * recall) / (precision + recall)
    return f1


def _grid(tokens: pa.Array, lengths: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Each token list's first SHORT_TOKENS token ids (`ids` laid end to end, lists of `lengths`) as one row, padded
    with -1."""
    import numpy as np
    import pyarrow.compute as pc

    width = int(min(lengths.max(initial=0), SHORT_TOKENS))
    grid = np.full((len(lengths), width), -1, np.int32)
    parents = pc.list_parent_indices(tokens).to_numpy()
    positions = np.arange(len(ids)) - list_starts(lengths)[parents]
    kept = positions < width
    grid[parents[kept], positions[kept]] = ids[kept]
    return grid


def _widest(rows: np.ndarray, lengths: np.ndarray, padding: int) -> np.ndarray:
    """Grid rows cut to their longest list's width, padded with `padding`."""
    import numpy as np

    rows = rows[:, :int(min(lengths.max(initial=0), SHORT_TOKENS))]
    return np.where(rows == -1, padding, rows) if padding != -1 else rows


def _short_overlap(predicted: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Multiset overlap of every pair of short token grids (padded with -1 and -2: padding never matches): a
    predicted token counts when fewer equal tokens come before it in its prediction than its gold holds (what
    matching each token against the gold's remaining count gives)."""
    import numpy as np

    in_gold = np.zeros(predicted.shape, np.int8)
    for position in range(gold.shape[1]):
        in_gold += predicted == gold[:, position:position + 1]
    before = np.zeros(predicted.shape, np.int8)
    for position in range(1, predicted.shape[1]):
        for earlier in range(position):
            before[:, position] += predicted[:, earlier] == predicted[:, position]
    return np.count_nonzero(before < in_gold, axis=1)


def _sorted_overlap(predicted_lengths: np.ndarray, predicted_ids: np.ndarray, gold_lengths: np.ndarray,
                    gold_ids: np.ndarray, pairs: np.ndarray, vocabulary: int) -> np.ndarray:
    """Multiset overlap of the pairs at `pairs`, counted on sorted (pair, token id) keys."""
    import numpy as np

    predicted_keys, predicted_counts = _key_counts(predicted_lengths, predicted_ids, pairs, vocabulary)
    gold_keys, gold_counts = _key_counts(gold_lengths, gold_ids, pairs, vocabulary)
    if not len(predicted_keys) or not len(gold_keys):
        return np.zeros(len(pairs))
    where = np.minimum(np.searchsorted(gold_keys, predicted_keys), len(gold_keys) - 1)
    found = gold_keys[where] == predicted_keys
    shared = np.minimum(predicted_counts[found], gold_counts[where[found]])
    return np.bincount(predicted_keys[found] // vocabulary, weights=shared, minlength=len(pairs))


def _key_counts(lengths: np.ndarray, token_ids: np.ndarray, rows: np.ndarray,
                vocabulary: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (place among `rows`, token id) keys of the token lists at `rows`, sorted, with how often each
    occurs."""
    import numpy as np

    taken = lengths[rows]
    places = np.repeat(np.arange(len(rows), dtype=np.int64), taken)
    keys = np.sort(places * vocabulary + token_ids[list_item_positions(lengths, rows)], kind="stable")
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if len(keys) else np.zeros(0, np.int64)
    return keys[starts], np.diff(np.append(starts, len(keys)))


def _tokens(texts: pa.Array) -> pa.Array:
    """Normalized texts as token lists (an empty text has none, as with str.split())."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.split_pattern(pc.if_else(pc.equal(texts, ""), pa.scalar(None, pa.string()), texts), " ")
