"""What a leaderboard's folder holds once read, before it is written as a dataset folder."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson


@dataclass
class LeaderboardFiles:
    """One leaderboard's files read: questions, each model's answers, the recorded verdicts, the judge, and the
    problems that stop the import (each one line)."""

    questions: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    judge: str | None = None
    sources: dict[str, str] = field(default_factory=dict)  # model → the file its answers came from
    published: dict[str, dict[str, Any]] = field(default_factory=dict)  # model → the leaderboard's published figures
    files: dict[str, bytes] = field(default_factory=dict)  # other files for the dataset folder (its judge prompts)
    board: dict[str, str] = field(default_factory=dict)  # the dataset's [leaderboard] table (paths in its folder)
    problems: list[str] = field(default_factory=list)


def jsonl(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)
