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


def join_shard(questions: Columns, predictions: list[Columns], own: int, nearby_question_ids: set) -> tuple[
        Columns, dict[str, Any]]:
    """join_predictions for one shard of a dataset split by row ranges: the shard's questions look for their
    prediction in this shard's predictions and its neighbours' (`predictions`, in file order: a few missing or extra
    rows shift later rows into the next shard); a prediction of this shard (`predictions[own]`) is unmatched when no
    question of this shard or its neighbours has its id. The first of two predictions with one id wins, as in a
    whole-file load."""
    pool: Columns = {"id": [], "prediction": []}
    if any("confidence" in columns for columns in predictions):
        pool["confidence"] = []
    for columns in predictions:
        for name in pool:
            pool[name].extend(columns.get(name) or [None] * len(columns["id"]))
    first = {}
    for index, prediction_id in enumerate(pool["id"]):
        first.setdefault(prediction_id, index)
    pool = {name: [values[i] for i in first.values()] for name, values in pool.items()}
    joined, info = join_predictions(questions, pool)
    unmatched = [pid for pid in predictions[own]["id"] if pid not in nearby_question_ids]
    info["unmatched_predictions"] = unmatched
    info["counts"].update(predictions=len(predictions[own]["id"]), unmatched_predictions=len(unmatched))
    return joined, info
