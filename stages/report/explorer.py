"""The items behind the numbers, for report.html's explorer: per dataset a bounded selection of questions (every
item some model did not get right, up to a cap, plus a uniform sample of the rest) with each model's prediction,
what evalpipe read from it, its score and status, and the rows set aside with their reasons. Only the chosen items'
texts are ever looked up, so a large dataset costs its B4 columns and nothing more."""
from __future__ import annotations

from typing import Any

from ..core.records import Columns
from ..kinds import Kind

NOT_RIGHT_CAP = 300  # items some model did not get right, per dataset
SAMPLE_CAP = 100  # items every model got right, sampled uniformly
SET_ASIDE_CAP = 100
TEXT_CAP = 600  # characters of a question, gold or prediction shown (annotation documents are long)


def display_text(value: Any) -> str:
    """A question, gold list or prediction as the explorer shows it (lists joined, long texts cut)."""
    if value is None:
        return ""
    text = " | ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + "…"


def choose_items(kind: Kind, matched: dict[str, Columns], not_right_cap: int = NOT_RIGHT_CAP,
                 sample_cap: int = SAMPLE_CAP) -> tuple[list[int], dict[str, list[tuple[str, str]]], int]:
    """(chosen row positions in question order, each model's (status, reading) per chosen row, rows some model did
    not get right). B4 rows of every model are aligned with the questions."""
    names = {model: list(columns) for model, columns in matched.items()}
    views = {model: [kind.item_view(dict(zip(names[model], values))) for values in zip(*columns.values())]
             for model, columns in matched.items()}
    rows = len(next(iter(views.values()), []))
    not_right = [i for i in range(rows) if any(view[i][0] != "correct" for view in views.values())]
    flagged = set(not_right)
    right = [i for i in range(rows) if i not in flagged]
    step = max(1, -(-len(right) // sample_cap)) if right else 1
    chosen = sorted(not_right[:not_right_cap] + right[::step][:sample_cap])
    return chosen, {model: [view[i] for i in chosen] for model, view in views.items()}, len(not_right)


def explorer_items(ids: list[str], questions: list[Any], golds: list[Any], predictions: dict[str, list[Any]],
                   views: dict[str, list[tuple[str, str]]], scores: dict[str, list[float | None]], total: int,
                   not_right: int, set_aside: list[dict[str, Any]]) -> dict[str, Any]:
    """The explorer's data for the chosen items (all lists aligned with `ids`); a missing prediction shows as missing."""
    items = []
    for index, row_id in enumerate(ids):
        cells = {}
        for model in views:
            prediction = predictions[model][index]
            status, reading = ("missing", "") if prediction is None else views[model][index]
            cells[model] = {"prediction": display_text(prediction), "reading": reading, "status": status,
                            "score": scores[model][index]}
        items.append({"id": row_id, "question": display_text(questions[index]), "gold": display_text(golds[index]),
                      "cells": cells})
    return {"models": sorted(views), "items": items, "total": total, "not_right": not_right,
            "set_aside": set_aside[:SET_ASIDE_CAP], "set_aside_total": len(set_aside)}


def merge_explorers(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Shards' explorer data as one dataset's."""
    set_aside = [row for part in parts for row in part["set_aside"]][:SET_ASIDE_CAP]
    return {"models": parts[0]["models"], "items": [item for part in parts for item in part["items"]],
            "total": sum(p["total"] for p in parts), "not_right": sum(p["not_right"] for p in parts),
            "set_aside": set_aside, "set_aside_total": sum(p["set_aside_total"] for p in parts)}
