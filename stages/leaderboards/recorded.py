"""Verdicts a leaderboard's judge recorded, as `evalpipe import` writes them: one JSON line per item (and turn) and
model — AlpacaEval's {"id", "model", "preference"}, MT-Bench's {"id", "model", "turn", "score"}, AlignBench's
{"id", "model", "score", "rating"}, Arena-Hard's {"id", "model", "games"}; a row that cannot be read is set aside
with its file, line and reason."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.records import Reject
from ..io.readers import iter_records
from .board import get_leaderboard


def recorded_score(record: dict[str, Any]) -> tuple[Any, str | None]:
    """A 1–10 score, or None for the tool's −1 (no score in the judge's reply: kept as unparsed)."""
    value = record.get("score")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (value == -1 or 1 <= value <= 10):
        return (None if value == -1 else float(value)), None
    return None, f"score {value!r} is not 1–10 (or −1 for none)"


def read_recorded(path: Path, model: str, leaderboard: str) -> tuple[dict[tuple[str, int], Any], list[Reject]]:
    """`model`'s recorded verdict per (item id, turn — 1 where there are no turns), and the rows of that model set
    aside (no id, a wrong value, an item recorded twice); rows of other models are not read further."""
    board = get_leaderboard(leaderboard)
    found: dict[tuple[str, int], Any] = {}
    rejects: list[Reject] = []
    for item in iter_records(path):
        if isinstance(item, Reject):
            rejects.append(item)
            continue
        line, record, _ = item
        if not isinstance(record, dict) or record.get("model") != model:
            continue
        turn = record.get("turn", 1) if board.turned else 1
        value, reason = board.recorded_value(record)
        if record.get("id") is None or isinstance(record["id"], (dict, list)):
            reason = "no id"
        elif turn not in (1, 2):
            reason = f"turn {turn!r} is not 1 or 2"
        elif (str(record["id"]), turn) in found:
            reason = f"id {record['id']!r} twice for model {model!r}" + (f" (turn {turn})" if board.turned
                                                                         else "")
        if reason is not None:
            rejects.append(Reject(str(path), line, reason))
            continue
        found[(str(record["id"]), turn)] = value
    return found, rejects
