"""Join questions to one model's predictions by id (SQuAD convention: a missing prediction scores 0)."""
from __future__ import annotations

from typing import Any

from ..core.records import Columns


def join_predictions(questions: Columns, predictions: Columns) -> tuple[Columns, dict[str, Any]]:
    """Every question with its prediction and the prediction's other fields (None when missing); predictions without
    a question are listed apart."""
    by_id = dict(zip(predictions["id"], predictions["prediction"]))
    joined = {name: values for name, values in questions.items() if name != "line"}
    joined["prediction"] = [by_id.get(question_id) for question_id in questions["id"]]
    for name in predictions:
        if name not in ("id", "line", "prediction"):
            by_name = dict(zip(predictions["id"], predictions[name]))
            joined[name] = [by_name.get(question_id) for question_id in questions["id"]]
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


def join_shard(questions: Columns, predictions: list[Columns], unmatched: list[str],
               shard_predictions: int) -> tuple[Columns, dict[str, Any]]:
    """join_predictions for one shard of a dataset split by row ranges: the shard's questions take their answer from
    `predictions` (this shard's prediction rows and its neighbours', in file order, already narrowed to this shard's
    question ids: a few missing rows shift later answers into the next shard); the first of two answers with one id
    wins, as in a whole-file load. `unmatched` and `shard_predictions` describe this shard's own prediction rows."""
    pool: Columns = {"id": [], "prediction": []}
    for columns in predictions:
        pool.update({name: [] for name in columns if name not in pool and name != "line"})
    seen: set = set()
    for columns in predictions:
        for index, prediction_id in enumerate(columns["id"]):
            if prediction_id not in seen:
                seen.add(prediction_id)
                for name in pool:
                    pool[name].append(columns[name][index] if name in columns else None)
    joined, info = join_predictions(questions, pool)
    info["unmatched_predictions"] = unmatched
    info["counts"].update(predictions=shard_predictions, unmatched_predictions=len(unmatched))
    return joined, info
