"""What a leaderboard's folder holds once read, before it is written as a dataset folder."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..core.records import Reject
from ..harness.wild_files import read_wild_bytes
from ..io.readers import decode_jsonl_line


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
    judge_table: dict[str, Any] = field(default_factory=dict)  # the dataset's [judge] as the leaderboard asks (no url)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # files read past, each with why (said on the console)


def jsonl(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


def read_json_lines(path: Path, found: LeaderboardFiles) -> list[dict[str, Any]] | None:
    """A JSON-lines file's records (read by io's line decoder in its lenient mode); None when it is missing, a
    problem when a line is not a JSON object."""
    if not path.is_file():
        return None
    records = []
    for number, line in enumerate(read_wild_bytes(path).splitlines(), start=1):
        if not line.strip():
            continue
        decoded = decode_jsonl_line(str(path), number, line, lenient=True)
        if isinstance(decoded, Reject):
            found.problems.append(f"{path}: line {number} is not JSON ({decoded.reason})")
            return None
        if not isinstance(decoded[1], dict):
            found.problems.append(f"{path}: line {number} is not a JSON object")
            return None
        records.append(decoded[1])
    return records
