"""The items behind the numbers, for report.html's explorer: per dataset a bounded selection of questions (every
item some model did not get right, up to a cap, plus a uniform sample of the rest) with each model's prediction,
what evalpipe read from it, its score and status, and the rows set aside with their reasons."""
from __future__ import annotations

from typing import Any

from ..core.records import Columns
from ..kinds import Kind

NOT_RIGHT_CAP = 300  # items some model did not get right, per dataset
SAMPLE_CAP = 100  # items every model got right, sampled uniformly
SET_ASIDE_CAP = 100
TEXT_CAP = 600  # characters of a question, gold or prediction shown (annotation documents are long)


def _text(value: Any) -> str:
    if value is None:
        return ""
    text = " | ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + "…"


def explorer_items(kind: Kind, questions: Columns, predictions: dict[str, dict[str, Any]],
                   matched: dict[str, Columns], scores: dict[str, dict[str, float | None]],
                   set_aside: list[dict[str, Any]], not_right_cap: int = NOT_RIGHT_CAP,
                   sample_cap: int = SAMPLE_CAP) -> dict[str, Any]:
    """The explorer's data for one dataset (or one shard of it): items in question order, bounded by the caps."""
    rows_by_model = {model: {row_id: {name: values[i] for name, values in columns.items()}
                             for i, row_id in enumerate(columns["id"])} for model, columns in matched.items()}
    cells_by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for row_id in questions["id"]:
        cells = {}
        for model, rows in rows_by_model.items():
            prediction = predictions[model].get(row_id)
            status, reading = ("missing", "") if prediction is None else kind.item_view(rows.get(row_id, {}))
            cells[model] = {"prediction": _text(prediction), "reading": reading, "status": status,
                            "score": scores[model].get(row_id)}
        cells_by_id[row_id] = cells
    not_right = [i for i, row_id in enumerate(questions["id"])
                 if any(cell["status"] != "correct" for cell in cells_by_id[row_id].values())]
    flagged = set(not_right)
    right = [i for i in range(len(questions["id"])) if i not in flagged]
    step = max(1, -(-len(right) // sample_cap)) if right else 1
    chosen = sorted(not_right[:not_right_cap] + right[::step][:sample_cap])
    texts = questions.get("question") or [None] * len(questions["id"])
    items = [{"id": questions["id"][i], "question": _text(texts[i]),
              "gold": _text(questions["golds"][i]) if "golds" in questions else "",
              "cells": cells_by_id[questions["id"][i]]} for i in chosen]
    return {"models": sorted(matched), "items": items, "total": len(questions["id"]),
            "not_right": len(not_right), "set_aside": set_aside[:SET_ASIDE_CAP], "set_aside_total": len(set_aside)}


def merge_explorers(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Shards' explorer data as one dataset's."""
    first = parts[0]
    set_aside = [row for part in parts for row in part["set_aside"]][:SET_ASIDE_CAP]
    return {"models": first["models"], "items": [item for part in parts for item in part["items"]],
            "total": sum(p["total"] for p in parts), "not_right": sum(p["not_right"] for p in parts),
            "set_aside": set_aside, "set_aside_total": sum(p["set_aside_total"] for p in parts)}
