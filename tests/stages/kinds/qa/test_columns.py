"""Open QA on Arrow tables gives the per-row functions' values exactly (EM, F1, best gold, label, mode)."""
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from stages.core.distinct import mostly_repeated
from stages.io.artifacts import rows_file_encoding
from stages.io.rows_writer import encoded_rows
from stages.kinds.qa import OpenQA, columns, match_normalized, token_f1
from stages.kinds.qa.columns import (
    REPEATED_SHARE,
    SHORT_TOKENS,
    _normalized,
    _rows_repeat,
    match_table,
    normalize_table,
    token_f1_pairs,
)
from stages.text.normalize import NORMALIZERS, choose_mode

QA = OpenQA()
WORDS = ["a", "b", "c", "denver", "broncos", "the", "paris", "x", "北", "京"]


def _random_text(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 5)))


def test_token_f1_pairs_equals_token_f1_with_repeats_and_empties():
    rng = random.Random(4)
    pairs = [(_random_text(rng), _random_text(rng)) for _ in range(3000)] + [("", ""), ("a a a", "a"), ("a", "a a")]
    predictions, golds = zip(*pairs)
    got = token_f1_pairs(pa.array(predictions), pa.array(golds))
    assert list(got) == [token_f1(p, g) for p, g in pairs]


def test_token_f1_pairs_short_and_long_pairs_side_by_side():
    """Pairs of at most SHORT_TOKENS tokens are overlapped on grids, longer ones on sorted keys: both in one call."""
    rng = random.Random(7)
    texts = [" ".join(rng.choice(WORDS[:4]) for _ in range(rng.choice([0, 1, 3, SHORT_TOKENS, SHORT_TOKENS + 1, 20])))
             for _ in range(6000)]
    pairs = list(zip(texts[::2], texts[1::2])) + [("a " * 9 + "b", "a b b"), ("a b b", "a " * 9 + "b")]
    predictions, golds = zip(*pairs)
    got = token_f1_pairs(pa.array(predictions), pa.array(golds))
    assert list(got) == [token_f1(p, g) for p, g in pairs]


def test_token_f1_pairs_on_texts_that_recur_across_pairs_and_sides():
    """Each distinct text is split and numbered once: one that is a pair's reply and another's gold, recurs in many
    pairs, or is long beside short ones on the same grid, scores as token_f1 every time."""
    rng = random.Random(11)
    pool = [" ".join(rng.choice(WORDS[:5]) for _ in range(rng.choice([0, 1, 2, SHORT_TOKENS, SHORT_TOKENS + 3])))
            for _ in range(40)]
    pairs = [(rng.choice(pool), rng.choice(pool)) for _ in range(5000)]
    predictions, golds = zip(*pairs)
    got = token_f1_pairs(pa.array(predictions), pa.array(golds))
    assert list(got) == [token_f1(p, g) for p, g in pairs]


def _joined(rng, rows):
    golds = [[_random_text(rng).title() + rng.choice(["", "!", "."]) or "!" for _ in range(rng.randint(1, 4))]
             for _ in range(rows)]  # never blank as written (B1 sets a blank gold aside unless blank_gold says)
    for row in rng.sample(range(rows), rows // 10):
        golds[row].append(golds[row][0])  # a repeated gold
    predictions = [None if rng.random() < 0.05 else rng.choice([*golds[i], _random_text(rng), "", "The"])
                   for i in range(rows)]
    questions = [rng.choice(["What?", "哪里？", None]) for _ in range(rows)]
    return pa.table({"id": [f"q{i}" for i in range(rows)], "question": questions, "golds": golds,
                     "prediction": predictions})


@pytest.mark.parametrize("mode", ["auto", "squad", "hotpot", "cjk", "cmrc"])
def test_normalize_and_match_tables_equal_the_per_row_path(mode):
    joined = _joined(random.Random(mode), 2000)
    normalized = normalize_table(joined, mode)
    rows = joined.to_pylist()
    modes = [choose_mode(row["golds"], row["question"]) if mode == "auto" else mode for row in rows]
    assert normalized.column("mode").to_pylist() == modes
    expected_predictions = [None if row["prediction"] is None else NORMALIZERS[m](row["prediction"])
                            for row, m in zip(rows, modes)]
    expected_golds = [[NORMALIZERS[m](gold) for gold in row["golds"]] for row, m in zip(rows, modes)]
    assert normalized.column("prediction_norm").to_pylist() == expected_predictions
    assert normalized.column("golds_norm").to_pylist() == expected_golds

    matched = match_table(normalized, 0.5)
    for index, (m, prediction, golds) in enumerate(zip(modes, expected_predictions, expected_golds)):
        row = {name: matched.column(name)[index].as_py() for name in matched.column_names}
        if prediction is None:
            assert (row["exact_match"], row["f1"], row["best_gold"], row["label"]) == (0.0, 0.0, None, "missing")
            assert row["best_gold_text"] is None
            continue
        em, f1, best = match_normalized(prediction, golds, m)
        label = "correct" if em else "partial" if f1 >= 0.5 else "wrong"
        assert (row["exact_match"], row["f1"], row["best_gold"], row["label"]) == (em, f1, best, label)
        assert row["best_gold_text"] == rows[index]["golds"][best]  # the gold as written, not normalized


@pytest.mark.parametrize("texts_repeat", [True, False])
@pytest.mark.parametrize("modes_used", [("squad",), ("cjk",), ("squad", "cjk", "hotpot")])
def test_texts_are_normalized_by_their_own_mode_whether_or_not_they_repeat(texts_repeat, modes_used):
    rng = random.Random(f"{texts_repeat}{modes_used}")
    pool = [_random_text(rng).title() for _ in range(300)]
    texts = [None if rng.random() < 0.05 else rng.choice(pool) + ("" if texts_repeat else f" w{i}")
             for i in range(3000)]
    modes = [rng.choice(modes_used) for _ in texts]
    assert mostly_repeated(pa.array(texts), REPEATED_SHARE) == texts_repeat  # both paths are taken
    got = _normalized(pa.array(texts, pa.string()), pa.array(modes)).to_pylist()
    assert got == [None if text is None else NORMALIZERS[mode](text) for text, mode in zip(texts, modes)]


@pytest.mark.parametrize("golds_repeat", [True, False])
def test_gold_answers_are_normalized_by_their_rows_mode_whether_or_not_they_repeat(golds_repeat):
    rng = random.Random(f"golds{golds_repeat}")
    wide = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}  # full-width forms: squad keeps them, cjk folds them
    pool = [(_random_text(rng).title() + "!").translate(wide if index % 2 else {}) for index in range(200)]
    golds = []
    for i in range(2000):
        answers = [rng.choice(pool) + ("" if golds_repeat else f" w{i}.{k}") for k in range(rng.randint(1, 4))]
        golds.append(answers + answers[:rng.randint(0, 2)])  # annotators repeating an answer within the row
    questions = [rng.choice(["What?", "哪里？"]) for _ in golds]
    joined = pa.table({"id": [f"q{i}" for i in range(2000)], "question": questions, "golds": golds,
                       "prediction": ["x"] * 2000})
    flat = pa.array([gold for row in golds for gold in row])
    assert mostly_repeated(flat, REPEATED_SHARE) == golds_repeat  # both paths are taken
    normalized = normalize_table(joined, "auto")
    modes = [choose_mode(row, question) for row, question in zip(golds, questions)]
    assert set(modes) == {"squad", "cjk"} and normalized.column("mode").to_pylist() == modes
    assert normalized.column("golds_norm").to_pylist() == [[NORMALIZERS[m](gold) for gold in row]
                                                           for row, m in zip(golds, modes)]
    assert normalized.column("golds").to_pylist() == golds


def _matched_rows(matched: pa.Table) -> list[tuple]:
    """(exact_match, f1, best_gold) of each row B4 matched."""
    return list(zip(matched.column("exact_match").to_pylist(), matched.column("f1").to_pylist(),
                    matched.column("best_gold").to_pylist()))


def _matched_one_by_one(normalized: pa.Table) -> list[tuple]:
    """What match_normalized gives each normalized row on its own (a missing reply: 0, 0 and no gold)."""
    return [(0.0, 0.0, None) if prediction is None else match_normalized(prediction, golds, mode)
            for prediction, golds, mode in zip(normalized.column("prediction_norm").to_pylist(),
                                               normalized.column("golds_norm").to_pylist(),
                                               normalized.column("mode").to_pylist())]


@pytest.mark.parametrize("rows_repeat", [True, False])
def test_rows_match_as_row_by_row_whether_or_not_they_repeat(rows_repeat):
    rng = random.Random(f"rows{rows_repeat}")
    joined = _joined(rng, 3000)
    if rows_repeat:  # 3,000 rows drawn from 150
        joined = _joined(rng, 150).take([rng.randrange(150) for _ in range(3000)])
    normalized = normalize_table(joined, "auto")
    assert _rows_repeat(normalized.column("prediction_norm"), normalized.column("golds_norm")) == rows_repeat
    modes = normalized.column("mode").to_pylist()
    assert {"squad", "cjk"} <= set(modes) and None in normalized.column("prediction_norm").to_pylist()
    matched = match_table(normalized, 0.5)
    assert _matched_rows(matched) == _matched_one_by_one(normalized)


def test_score_sums_what_match_found():
    joined = _joined(random.Random(7), 500)
    normalized, _ = QA.normalize(joined, {"mode": "squad"})
    matched, info = QA.match(normalized, {"partial_f1_threshold": 0.5})
    scored, metrics = QA.score(matched, {})
    assert scored.column_names == ["id", "exact_match", "f1"]
    assert metrics["rows"] == 500 and sum(info["labels"].values()) == 500
    assert metrics["f1"] == pytest.approx(sum(matched.column("f1").to_pylist()) / 500, abs=1e-12)
    assert metrics["labels"] == info["labels"]


def test_rows_with_many_repeated_golds_match_as_row_by_row():
    rng = random.Random(12)
    golds = [[rng.choice(["Denver", "denver!", "The Broncos", "Broncos", "北京"]) for _ in range(rng.randint(1, 15))]
             for _ in range(400)]
    joined = pa.table({"id": [f"q{i}" for i in range(400)], "question": ["What?"] * 400, "golds": golds,
                       "prediction": [rng.choice(["broncos", "denver", "the denver broncos", "北京", ""])
                                      for _ in range(400)]})
    normalized = normalize_table(joined, "auto")
    assert normalized.column("golds_norm").to_pylist() == [
        [NORMALIZERS[m](gold) for gold in row] for row, m in zip(golds, normalized.column("mode").to_pylist())]
    matched = match_table(normalized, 0.5)
    assert _matched_rows(matched) == _matched_one_by_one(normalized)


@pytest.mark.parametrize("rows_repeat", [True, False])
def test_tables_made_in_slices_and_encoded_alongside_equal_the_per_row_path(rows_repeat, monkeypatch):
    """B3 normalizes and B4 matches a few rows at a time (B4 gives rows as soon as every row before them is matched,
    mixed modes and missing replies among them), encoding each table's rows file meanwhile: the values are the per-row
    path's and the rows files read back as the tables."""
    monkeypatch.setattr(columns, "NORMALIZED_SLICE_ROWS", 700)
    monkeypatch.setattr(columns, "MATCH_BATCH_ROWS", 300)
    rng = random.Random(f"slices{rows_repeat}")
    joined = _joined(rng, 2500) if not rows_repeat else _joined(rng, 150).take([rng.randrange(150) for _ in range(2500)])
    with rows_file_encoding():
        normalized = normalize_table(joined, "auto")
        assert pq.read_table(pa.BufferReader(encoded_rows(normalized))).equals(normalized)
    assert normalized.column("prediction_norm").num_chunks == 4  # made in slices
    modes = normalized.column("mode").to_pylist()
    assert normalized.column("golds_norm").to_pylist() == [[NORMALIZERS[m](gold) for gold in row["golds"]]
                                                           for row, m in zip(joined.to_pylist(), modes)]
    with rows_file_encoding():
        matched = match_table(normalized, 0.5)
        assert pq.read_table(pa.BufferReader(encoded_rows(matched))).equals(matched)
    assert (matched.column("f1").num_chunks == 1) == rows_repeat  # repeated pairs are matched all at once
    assert _matched_rows(matched) == _matched_one_by_one(normalized)
