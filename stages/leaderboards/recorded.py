"""Verdicts a leaderboard's judge recorded (AlpacaEval's annotations as imported): one JSON line per item and model,
{"id", "model", "preference"}; a row that cannot be read is set aside with its file, line and reason."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.records import Reject
from ..io.readers import iter_records
from .alpaca_eval import preference_value


def read_recorded_verdicts(path: Path, model: str) -> tuple[dict[str, float], list[Reject]]:
    """`model`'s recorded preference per item id, and the rows of that model set aside (no id, no preference, an id
    twice); rows of other models are not read further."""
    found: dict[str, float] = {}
    rejects: list[Reject] = []
    for item in iter_records(path):
        if isinstance(item, Reject):
            rejects.append(item)
            continue
        line, record, _ = item
        if not isinstance(record, dict) or record.get("model") != model:
            continue
        reason = _problem(record, found)
        if reason is not None:
            rejects.append(Reject(str(path), line, reason))
            continue
        found[str(record["id"])] = preference_value(record["preference"])
    return found, rejects


def _problem(record: dict[str, Any], found: dict[str, float]) -> str | None:
    if record.get("id") is None or isinstance(record["id"], (dict, list)):
        return "no id"
    if str(record["id"]) in found:
        return f"id {record['id']!r} twice for model {record['model']!r}"
    if preference_value(record.get("preference")) is None:
        return f"preference {record.get('preference')!r} is not in [1, 2] (0 or 1.5: a draw)"
    return None
