"""Multiple choice on Arrow columns: options read from a whole table of records, and gold letters, cleaned replies
and extracted letters computed once per distinct value or distinct (text, options) pair, then taken back to rows —
row for row what find_options, gold_choice, clean_reply and extract_choice give."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.arrow_strings import (
    first_items,
    list_item_positions,
    list_lengths,
    list_starts,
    offsets_of,
    stripped_strings,
)
from ...core.distinct import (
    codes_of,
    combined_codes,
    first_rows,
    list_codes,
    list_item_codes,
    list_row_codes,
    mostly_repeated_lists,
    per_distinct_text,
    per_distinct_value,
    value_codes,
)
from .chosen_letters import chosen_letters
from .extraction import (
    NO_MENTIONS,
    ChoiceExtraction,
    answer_key_letter,
    case_folded,
    clean_reply,
    gold_choice,
    is_one_character,
    leading_word_letter,
    letter_by_rule,
    option_text_reading,
    read_by_options,
    read_letters,
    read_option_texts,
    read_past_letters,
    read_reply,
)
from .leading_letters import leading_letters
from .mention_columns import ComparedOptions, OptionTextMentions, compared_options, option_text_mentions
from .option_mentions import fold_spaces, names_only, option_mentions
from .options import LETTERS
from .similar_options import KeptScores, best_options
from .unlettered_replies import unlettered_replies

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa


EXTRACT_ROWS = 100_000  # distinct (reply, options) pairs read at once: their Python objects stay near 100 MB
REPEATED_OPTIONS = 1 / 3  # rows' option lists are numbered to find repeated (reply, options) pairs when at most this
# share of them look distinct


def options_type() -> pa.DataType:
    """The Arrow type of a column of options: lists of texts, each a number into the column's dictionary of distinct
    texts (options recur across questions: Parquet writes and reads them without hashing every text, and B4 numbers
    them by that dictionary)."""
    import pyarrow as pa

    return pa.list_(pa.dictionary(pa.int32(), pa.string()))


def _option_lists(lengths: np.ndarray, texts: pa.Array) -> pa.Array:
    """Lists of these lengths of the texts laid end to end, as options_type."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pa.ListArray.from_arrays(offsets_of(lengths), pc.dictionary_encode(texts))


def options_column(table: pa.Table) -> pa.Array | None:
    """find_options for every record, as lists of texts (options_type), when every row has them from an options /
    choices list of texts or from A, B, C… columns of text or whole numbers; None when some row must be read row by
    row (options as a dict or in the question text, none at all, other types)."""
    import pyarrow as pa

    for name in ("options", "choices"):
        if name not in table.column_names:
            continue
        column = table.column(name).combine_chunks()
        if pa.types.is_null(column.type) or column.null_count == len(column):
            continue
        return _listed_options(column) if column.null_count == 0 else None
    return _lettered_options(table)


def _listed_options(column: pa.Array) -> pa.Array | None:
    """options_from_value on lists of texts: each stripped; None for other values, empty lists or too many options."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_list(column.type) or not (pa.types.is_string(column.type.value_type)
                                                 or pa.types.is_large_string(column.type.value_type)):
        return None
    texts = pc.list_flatten(column)
    lengths = list_lengths(column)
    if texts.null_count or not len(column) or lengths.min() == 0 or lengths.max() > len(LETTERS):
        return None
    return _option_lists(lengths, stripped_strings(texts.cast(pa.string())))


def _lettered_options(table: pa.Table) -> pa.Array | None:
    """options_from_columns: each row's options are its A, B, C… values up to the first missing or blank one; None
    unless every row has two or more."""
    import numpy as np
    import pyarrow as pa

    rows = table.num_rows
    columns: list[pa.Array] = []
    for letter in LETTERS:
        if letter not in table.column_names:
            break
        column = table.column(letter).combine_chunks()
        if pa.types.is_null(column.type):
            break
        if not (pa.types.is_integer(column.type) or pa.types.is_string(column.type)
                or pa.types.is_large_string(column.type)):
            return None
        columns.append(stripped_strings(column.cast(pa.string())))
    if not columns or not rows:
        return None
    present = np.stack([_written(column) for column in columns], axis=1)
    lengths = np.cumprod(present, axis=1).sum(axis=1)
    if lengths.min() < 2:
        return None
    kept = np.arange(len(columns))[None, :] < lengths[:, None]
    positions = (np.arange(len(columns))[None, :] * rows + np.arange(rows)[:, None])[kept]
    return _option_lists(lengths, pa.concat_arrays(columns).take(pa.array(positions)))


def _written(texts: pa.Array) -> np.ndarray:
    """Whether each text holds something (false where null or empty), from its length in bytes (no text scanned)."""
    import pyarrow.compute as pc

    return pc.fill_null(pc.greater(pc.binary_length(texts), 0), False).to_numpy(zero_copy_only=False)


def _per_text_and_options(compute: Callable[[Any, list[str]], Any], texts: pa.Array,
                          options: pa.Array) -> tuple[list[Any], np.ndarray]:
    """compute(text, options) once per distinct pair, one question's options after another (what extraction caches
    per question stays warm): the results and each row's index into them."""
    text_values, text_codes = value_codes(texts)
    option_values, option_codes = list_codes(options)
    pairs, rows = combined_codes(option_codes, text_codes)
    return [compute(text_values[text], option_values[option]) for option, text in pairs], rows


def gold_letters(golds: pa.Array, options: pa.Array) -> pa.Array:
    """gold_choice of each row's first gold answer and its options (null where the gold names no option): a gold
    that is a letter of its options (an answer key) is that letter; other rows are read per distinct pair."""
    import numpy as np
    import pyarrow as pa

    first = first_items(golds)
    keys, codes = per_distinct_value(lambda gold: None if gold is None else answer_key_letter(gold), first)
    positions = np.array([len(LETTERS) if key is None else LETTERS.index(key) for key in keys], np.int64)[codes]
    keyed = positions < list_lengths(options)
    letters = np.array(keys, object)[codes]
    rest = pa.array(np.flatnonzero(~keyed))
    if len(rest):
        found, rows = _per_text_and_options(gold_choice, first.take(rest), options.take(rest))
        letters[~keyed] = np.array(found, object)[rows]
    return pa.array(letters, pa.string())


def cleaned_replies(predictions: pa.Array) -> pa.Array:
    """clean_reply of every prediction (null stays null), once per distinct prediction."""
    import pyarrow as pa

    return per_distinct_text(clean_reply, predictions, pa.string())


def extracted_choices(replies: pa.Array, options: pa.Array, threshold: float, margin: float) -> dict[str, pa.Array]:
    """extract_choice of each row's reply against its options, given the replies as cleaned_replies gives them (B3's;
    cleaned once, as extract_choice cleans a raw reply): letter (null when none), rule and score, read once per
    distinct (reply, options) pair (one row stands for each; see _pairs_by_reply) and taken back to every row. Pairs
    are read reply after reply, so what is worked out per reply (its text, case fold, column readings) is worked out
    in one chunk of pairs, not again in each chunk that holds the reply."""
    import numpy as np
    import pyarrow as pa

    option_values, item_codes = list_item_codes(options)
    reply_codes = codes_of(replies)
    standing, pair_of_row = _pairs_by_reply(reply_codes, options, item_codes)
    compared, lengths = compared_options(option_values), list_lengths(options)
    kinds = {"letter": pa.string(), "rule": pa.string(), "score": pa.float64()}
    parts: dict[str, list[pa.Array]] = {name: [pa.array([], kind)] for name, kind in kinds.items()}
    reading_of_pair, read = [], 0
    similarity = KeptScores()
    for start in range(0, len(standing), EXTRACT_ROWS):  # Python objects for this many pairs at a time
        rows = standing[start:start + EXTRACT_ROWS]
        taken = pa.array(rows)
        found, result_of = _extracted_once(replies.take(taken), lengths[rows], reply_codes[rows],
                                           item_codes[list_item_positions(lengths, rows)], compared, threshold,
                                           margin, similarity)
        for name, kind in kinds.items():
            parts[name].append(pa.array([getattr(reading, name) for reading in found], kind))
        reading_of_pair.append(read + result_of)
        read += len(found)
    back = pa.array(np.concatenate([np.zeros(0, np.int64), *reading_of_pair])[pair_of_row])
    return {name: pa.concat_arrays(arrays).take(back) for name, arrays in parts.items()}


def _pairs_by_reply(reply_codes: np.ndarray, options: pa.Array, item_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """first_rows of the rows' (reply, options) pairs, reply after reply. Where the option lists mostly differ from
    row to row (every question distinct), each row is a pair of its own, its rows ordered by reply: numbering a
    million lists would find few repeats (a repeat is then read twice, alike)."""
    import numpy as np

    if mostly_repeated_lists(options, REPEATED_OPTIONS):
        return first_rows(reply_codes, list_row_codes(options, item_codes)[1])
    order = np.argsort(reply_codes, kind="stable")
    pair_of_row = np.empty_like(order)
    pair_of_row[order] = np.arange(len(order))
    return order, pair_of_row


def _extracted_once(replies: pa.Array, counts: np.ndarray, reply_keys: np.ndarray, option_codes: np.ndarray,
                    compared: ComparedOptions, threshold: float, margin: float,
                    similarity: KeptScores) -> tuple[list[ChoiceExtraction], np.ndarray]:
    """extract_choice of rows that are each a different (reply, options) pair (`counts`: each row's number of
    options; `reply_keys`: each reply's number in the whole column; `option_codes`: each option's index into
    `compared`, the rows' options laid end to end), as distinct readings and each row's index into them. A
    reply that holds none of its options' texts reads the same against any options with as many letters, so it is
    read once per distinct (text, number of options), and against its own options only when its letters leave it
    undecided (by similarity alone: all such rows at once, best_options); a reply that is exactly one option's text
    names that option, and one that opens on its letter, or ends in 故选X, with nothing else able to decide is read
    by that letter (leading_letters, chosen_letters); one that no letter rule can read and that names one option's
    text is read by the option texts alone (unlettered_replies); the rest are read row by row with the option texts
    they may hold. `similarity` keeps replies' similarity to option texts across calls."""
    import numpy as np

    reply_values, reply_codes = value_codes(replies)
    texts = [None if reply is None else fold_spaces(reply) for reply in reply_values]
    mentions = option_text_mentions(texts, reply_codes, option_codes, counts, compared)
    free = np.flatnonzero(~mentions.any_mention)
    keys, rows = combined_codes(reply_codes[free], counts[free])
    read = [_read_without_mentions(texts[text], int(count), threshold, margin) for text, count in keys]
    decided = np.array([result is not None for result in read], bool)
    found: list[ChoiceExtraction] = [result for result in read if result is not None]
    result_of = np.full(len(reply_codes), -1, np.int64)
    result_of[free] = np.where(decided, np.cumsum(decided) - 1, -1)[rows]
    result_of[mentions.equal_rows] = len(found) + mentions.equal_positions
    found += [option_text_reading(letter, "option_text") for letter in LETTERS]
    for read_on_column, rule in ((leading_letters, "leading_letter"), (chosen_letters, "answer_statement")):
        waiting = np.flatnonzero((result_of < 0) & mentions.any_mention & mentions.letters_unmasked)
        letters = _read_replies_once(read_on_column, texts, reply_codes[waiting])
        kept = (letters >= 0) & (letters < counts[waiting])
        result_of[waiting[kept]] = len(found) + letters[kept]
        found += [letter_by_rule(letter, rule) for letter in LETTERS]
    named_rows, named = _read_by_option_texts(texts, reply_codes, counts, mentions, compared, result_of)
    result_of[named_rows] = len(found) + np.arange(len(named_rows))
    found += named
    left = np.flatnonzero(result_of < 0)
    unread = left[~mentions.any_mention[left]]
    opening = _read_replies_once(_leading_word_positions, texts, reply_codes[unread])
    by_rows = np.union1d(left[mentions.any_mention[left]], unread[(opening >= 0) & (opening < counts[unread])])
    result_of[by_rows] = len(found) + np.arange(len(by_rows))
    starts = list_starts(counts)

    def option_map(row: int) -> dict[str, str]:
        """A row's options by letter, as written (built only for rows whose letters leave them undecided)."""
        start = int(starts[row])
        return dict(zip(LETTERS, [compared.values[code] for code in option_codes[start:start + counts[row]].tolist()]))

    row_texts = [texts[code] for code in reply_codes[by_rows].tolist()]
    for row, text, mentioning, count in zip(by_rows.tolist(), row_texts, mentions.any_mention[by_rows].tolist(),
                                            counts[by_rows].tolist()):
        found.append(_read_mentioning(text, row, LETTERS[:count], mentions, compared, option_map, threshold, margin)
                     if mentioning else read_by_options(text, LETTERS[:count], option_map(row), threshold, margin))
    similar = np.setdiff1d(left, by_rows, assume_unique=True)
    result_of[similar] = len(found) + np.arange(len(similar))
    keys, first = np.unique(reply_keys[similar], return_index=True)
    similar_texts = dict(zip(keys.tolist(), [texts[code] for code in reply_codes[similar[first]].tolist()]))
    found += best_options(similar_texts, reply_keys[similar], option_codes[list_item_positions(counts, similar)],
                          counts[similar], compared.values, threshold, margin, similarity)
    return found, result_of


def _read_replies_once(read_on_column: Callable[[list[str | None]], np.ndarray], texts: list[str | None],
                       codes: np.ndarray) -> np.ndarray:
    """A column reading of the replies texts[codes], each distinct reply read once."""
    import numpy as np

    distinct, row_of = np.unique(codes, return_inverse=True)
    return read_on_column([texts[code] for code in distinct.tolist()])[row_of]


def _leading_word_positions(texts: list[str]) -> np.ndarray:
    """Per reply, the position among LETTERS of the letter it opens with as a word (leading_word_letter), -1 when
    none."""
    import numpy as np

    return np.array([LETTERS.find(letter) if letter else -1 for letter in map(leading_word_letter, texts)], np.int64)


def _read_by_option_texts(texts: list[str | None], reply_codes: np.ndarray, counts: np.ndarray,
                          mentions: OptionTextMentions, compared: ComparedOptions,
                          result_of: np.ndarray) -> tuple[np.ndarray, list[ChoiceExtraction]]:
    """The rows not yet read whose reply holds an option's text and no letter any rule before the option-text rules
    could read (unlettered_replies) and that those rules decide — the reply equal to one option's text, or naming
    exactly one — with their readings. A reply that may hold one option's text and names it as names_only finds
    needs no option_mentions."""
    import numpy as np

    waiting = np.flatnonzero((result_of < 0) & mentions.any_mention)
    rows = waiting[counts[waiting] <= _read_replies_once(unlettered_replies, texts, reply_codes[waiting])]
    first = mentions.found_starts[rows]
    readings = []
    for row, code, alone, at in zip(rows.tolist(), reply_codes[rows].tolist(),
                                    (mentions.found_starts[rows + 1] - first == 1).tolist(), first.tolist()):
        if alone and names_only(texts[code], compared.texts[mentions.found_codes[at]]):
            readings.append(option_text_reading(LETTERS[mentions.found_positions[at]], "option_text_contained"))
        else:
            readings.append(read_option_texts(option_mentions(texts[code], mentions.mentioned(row, compared))))
    decided = np.array([reading is not None for reading in readings], bool)
    return rows[decided], [reading for reading in readings if reading is not None]


def _read_mentioning(text: str, row: int, valid: str, mentions: OptionTextMentions, compared: ComparedOptions,
                     option_map: Callable[[int], dict[str, str]], threshold: float, margin: float) -> ChoiceExtraction:
    """read_reply of a reply that may hold some of its options' texts (`valid`: its options' letters; option_map(row):
    its options by letter). When none of those texts can mask a letter and the reply is neither boxed nor a lone
    character (the rules that weigh equal option texts), its letters read the same on the reply as it is, so its
    option texts are sought only when the letters leave it undecided."""
    if mentions.letters_unmasked[row] and "\\boxed" not in text and not is_one_character(text):
        folded = case_folded(text)
        return (read_letters(text, text, (), valid, folded)
                or read_past_letters(text, option_mentions(text, mentions.mentioned(row, compared)), valid,
                                     option_map(row), threshold, margin, folded))
    return read_reply(text, option_mentions(text, mentions.mentioned(row, compared)), valid, option_map(row),
                      threshold, margin)


def _read_without_mentions(text: str | None, count: int, threshold: float, margin: float) -> ChoiceExtraction | None:
    """extract_choice of a reply that names none of its `count` options' texts, when its letters alone decide."""
    if text is None:
        return ChoiceExtraction(None, "missing")
    if not text:
        return ChoiceExtraction(None, "empty")
    return read_reply(text, NO_MENTIONS, LETTERS[:count] if count else LETTERS[:8], None if count else {},
                      threshold, margin)
