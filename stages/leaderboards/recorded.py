"""Verdicts a leaderboard's judge recorded, as `evalpipe import` writes them: one JSON line per item (and turn) and
model — AlpacaEval's {"id", "model", "preference"}, MT-Bench's {"id", "model", "turn", "score"}, AlignBench's
{"id", "model", "score", "rating"}, Arena-Hard's {"id", "model", "games"}; a row that cannot be read is set aside
with its file, line and reason."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.records import Reject
from ..io.readers import iter_records
from .alpaca_eval import preference_value

FIVE_WAY = ("A>>B", "A>B", "A=B", "B>A", "B>>A")


def _preference(record: dict[str, Any]) -> tuple[Any, str | None]:
    value = preference_value(record.get("preference"))
    return value, None if value is not None else (
        f"preference {record.get('preference')!r} is not in [1, 2] (0 or 1.5: a draw)")


def _score(record: dict[str, Any]) -> tuple[Any, str | None]:
    """A 1–10 score, or None for the tool's −1 (no score in the judge's reply: kept as unparsed)."""
    value = record.get("score")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (value == -1 or 1 <= value <= 10):
        return (None if value == -1 else float(value)), None
    return None, f"score {value!r} is not 1–10 (or −1 for none)"


def _games(record: dict[str, Any]) -> tuple[Any, str | None]:
    """Arena-Hard's two games' verdicts (None for a game without one)."""
    games = record.get("games")
    if isinstance(games, list) and len(games) == 2 and all(g is None or g in FIVE_WAY for g in games):
        return tuple(games), None
    return None, f"games {str(games)[:60]!r} are not two of {', '.join(FIVE_WAY)} (or null)"


VALUES: dict[str, Callable[[dict[str, Any]], tuple[Any, str | None]]] = {
    "alpaca_eval": _preference, "mt_bench": _score, "alignbench": _score, "arena_hard": _games}
TURNED = ("mt_bench",)  # leaderboards whose verdicts are per item and turn


def read_recorded(path: Path, model: str, leaderboard: str) -> tuple[dict[tuple[str, int], Any], list[Reject]]:
    """`model`'s recorded verdict per (item id, turn — 1 where there are no turns), and the rows of that model set
    aside (no id, a wrong value, an item recorded twice); rows of other models are not read further."""
    found: dict[tuple[str, int], Any] = {}
    rejects: list[Reject] = []
    for item in iter_records(path):
        if isinstance(item, Reject):
            rejects.append(item)
            continue
        line, record, _ = item
        if not isinstance(record, dict) or record.get("model") != model:
            continue
        turn = record.get("turn", 1) if leaderboard in TURNED else 1
        value, reason = VALUES[leaderboard](record)
        if record.get("id") is None or isinstance(record["id"], (dict, list)):
            reason = "no id"
        elif turn not in (1, 2):
            reason = f"turn {turn!r} is not 1 or 2"
        elif (str(record["id"]), turn) in found:
            reason = f"id {record['id']!r} twice for model {model!r}" + (f" (turn {turn})" if leaderboard in TURNED
                                                                         else "")
        if reason is not None:
            rejects.append(Reject(str(path), line, reason))
            continue
        found[(str(record["id"]), turn)] = value
    return found, rejects
