"""Join questions to one model's predictions by id (SQuAD convention: a missing prediction scores 0)."""
from __future__ import annotations

from typing import Any

from ..core.records import Columns


def join_predictions(questions: Columns, predictions: Columns) -> tuple[Columns, dict[str, Any]]:
    """Every question with its prediction (None when missing); predictions without a question are listed apart."""
    by_id = dict(zip(predictions["id"], predictions["prediction"]))
    joined = {name: values for name, values in questions.items() if name != "line"}
    joined["prediction"] = [by_id.get(question_id) for question_id in questions["id"]]
    if "confidence" in predictions:
        confidence = dict(zip(predictions["id"], predictions["confidence"]))
        joined["confidence"] = [confidence.get(question_id) for question_id in questions["id"]]
    question_ids = set(questions["id"])
    missing = [qid for qid, p in zip(questions["id"], joined["prediction"]) if p is None]
    unmatched = [pid for pid in predictions["id"] if pid not in question_ids]
    info = {"missing_predictions": missing, "unmatched_predictions": unmatched}
    counts = {
        "questions": len(questions["id"]),
        "predictions": len(predictions["id"]),
        "joined": len(questions["id"]) - len(missing),
        "missing_predictions": len(missing),
        "unmatched_predictions": len(unmatched),
    }
    return joined, {**info, "counts": counts}
