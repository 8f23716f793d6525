"""B3's join: each question takes the first prediction with its id; missing and unmatched ids are listed; Arrow
tables and Python columns join alike, and predictions already in the questions' order join without a copy."""
import random

import pyarrow as pa

from stages import join_predictions
from stages.core.records import as_columns

QUESTIONS = {"id": ["q1", "q2", "q3", "q4"], "line": [1, 2, 3, 4], "golds": [["a"], ["b"], ["c"], ["d"]]}


def test_first_prediction_of_an_id_answers_and_missing_and_unmatched_are_listed():
    predictions = {"id": ["q3", "x9", "q1", "q3", "q4"], "line": [1, 2, 3, 4, 5],
                   "prediction": ["C", "stray", "A", "second C", "D"], "confidence": [0.5, None, 0.9, 0.1, None]}
    expected = {"id": ["q1", "q2", "q3", "q4"], "golds": [["a"], ["b"], ["c"], ["d"]],
                "prediction": ["A", None, "C", "D"], "confidence": [0.9, None, 0.5, None]}
    for questions, answers in ((QUESTIONS, predictions), (pa.table(QUESTIONS), pa.table(predictions))):
        joined, info = join_predictions(questions, answers)
        assert as_columns(joined) == expected
        assert info["missing_predictions"] == ["q2"] and info["unmatched_predictions"] == ["x9"]
        assert info["counts"] == {"questions": 4, "predictions": 5, "joined": 3, "replies": 3,
                                  "missing_predictions": 1, "unmatched_predictions": 1}


def test_with_several_replies_the_replies_joined_are_counted_apart_from_the_questions_answered():
    predictions = {"id": ["q1", "q1", "q1", "q3", "x9"], "line": [1, 2, 3, 4, 5], "sample": [0, 1, 2, 0, 0],
                   "prediction": ["A", "B", "C", "D", "E"]}
    for questions, answers in ((QUESTIONS, predictions), (pa.table(QUESTIONS), pa.table(predictions))):
        joined, info = join_predictions(questions, answers)
        assert as_columns(joined)["prediction"] == ["A", "B", "C", None, "D", None]
        assert info["counts"] == {"questions": 4, "predictions": 5, "joined": 2, "replies": 4,
                                  "missing_predictions": 2, "unmatched_predictions": 1}


def test_predictions_in_the_questions_order_join_without_a_copy():
    predictions = pa.table({"id": ["q1", "q2", "q3", "q4"], "line": [1, 2, 3, 4],
                            "prediction": ["A", "B", "wrong", "D"], "evidence": [["p\t1"], [], None, ["p\t2"]]})
    joined, info = join_predictions(pa.table(QUESTIONS), predictions)
    assert as_columns(joined)["prediction"] == ["A", "B", "wrong", "D"]
    assert as_columns(joined)["evidence"] == [["p\t1"], [], None, ["p\t2"]]
    assert info["missing_predictions"] == [] and info["unmatched_predictions"] == []
    for name in ("prediction", "evidence"):
        shared = [buffer.address for buffer in joined.column(name).chunks[0].buffers() if buffer is not None]
        own = [buffer.address for buffer in predictions.column(name).chunks[0].buffers() if buffer is not None]
        assert shared == own


def test_distinct_question_ids_in_the_predictions_order_join_without_hashing_them(monkeypatch):
    """A caller that knows its question ids are distinct (B3, from B1) joins predictions whose ids equal them row for
    row without index_in; ids in another order still join by id."""
    import pyarrow.compute as pc

    in_order = pa.table({"id": ["q1", "q2", "q3", "q4"], "line": [1, 2, 3, 4], "prediction": ["A", "B", "C", "D"]})
    shuffled = pa.table({"id": ["q2", "q1", "q4", "q3"], "line": [1, 2, 3, 4], "prediction": ["B", "A", "D", "C"]})
    expected, _ = join_predictions(pa.table(QUESTIONS), in_order)
    index_in = pc.index_in
    hashed = []
    monkeypatch.setattr(pc, "index_in", lambda *args, **kwargs: hashed.append(1) or index_in(*args, **kwargs))
    for predictions, hashes in ((in_order, 0), (shuffled, 1)):
        joined, info = join_predictions(pa.table(QUESTIONS), predictions, distinct_question_ids=True)
        assert as_columns(joined) == as_columns(expected) and len(hashed) == hashes
        assert info["missing_predictions"] == [] and info["unmatched_predictions"] == []
        assert info["counts"]["joined"] == 4


def test_samples_join_on_arrow_columns_as_row_by_row():
    """Replies out of order, a repeated (id, sample), an unasked id and a question without a reply: the Arrow join
    gives what the per-row join of plain columns gives."""
    questions = {"id": ["a", "b", "c"], "line": [1, 2, 3], "golds": [["1"], ["2"], ["3"]]}
    predictions = {"id": ["b", "a", "zz", "a", "b", "zz"], "line": [1, 2, 3, 4, 5, 6],
                   "prediction": ["b1", "a0", "z", "a1", "b1 again", "z"], "sample": [1, 0, 0, 1, 1, 0]}
    joined, info = join_predictions(pa.table(questions), pa.table(predictions))
    assert list(zip(*(joined.column(name).to_pylist() for name in ("id", "sample", "prediction")))) == [
        ("a", 0, "a0"), ("a", 1, "a1"), ("b", 1, "b1"), ("c", None, None)]
    assert info["missing_predictions"] == ["c"] and info["unmatched_predictions"] == ["zz"]
    rng = random.Random(5)
    for _ in range(20):
        asked = [f"q{i}" for i in range(rng.randint(0, 30))]
        rows = [(f"q{rng.randint(0, 35)}", rng.randint(0, 3)) for _ in range(rng.randint(0, 80))]
        questions = {"id": asked, "line": list(range(len(asked)))}
        predictions = {"id": [i for i, _ in rows], "line": list(range(len(rows))),
                       "prediction": [f"p{n}" for n in range(len(rows))], "sample": [s for _, s in rows]}
        by_row = join_predictions(questions, predictions)
        columnar = join_predictions(pa.table(questions, schema=pa.schema([("id", pa.string()), ("line", pa.int64())])),
                                    pa.table(predictions))
        assert columnar[0].to_pydict() == by_row[0] and columnar[1] == by_row[1]
