"""B3's join: each question takes the first prediction with its id; missing and unmatched ids are listed; Arrow
tables and Python columns join alike, and predictions already in the questions' order join without a copy."""
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
