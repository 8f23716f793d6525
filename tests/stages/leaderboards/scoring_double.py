"""A Scoring for leaderboard tests: the rows, answers, recorded verdicts and files B5L would hand a leaderboard, and
a judge whose replies come from a function of the prompt."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.core.records import Reject
from stages.leaderboards.asking import TurnCall


@dataclass
class ScoringDouble:
    model: str
    board: dict[str, Any]
    rows: dict[str, list]
    turns_by_model: dict[str, dict[str, list[str]]]
    folder: Path
    recorded_verdicts: dict[tuple[str, int], Any] = field(default_factory=dict)
    judge: Callable[[TurnCall], str | None] | None = None  # None: no [judge] to ask
    asked: list[TurnCall] = field(default_factory=list)

    def asks(self) -> bool:
        return self.judge is not None

    def questions(self) -> dict[str, list]:
        return self.rows

    def answers(self, model: str) -> dict[str, str]:
        return {item: turns[-1] for item, turns in self.turns_by_model[model].items()}

    def turns(self, model: str) -> dict[str, list[str]]:
        return self.turns_by_model[model]

    def recorded(self) -> tuple[dict[tuple[str, int], Any], list[Reject]]:
        return self.recorded_verdicts, []

    def input_path(self, name: str) -> Path:
        return self.folder / name

    def replied(self, calls: list[TurnCall]) -> tuple[dict[str, Any], list[tuple[TurnCall, dict[str, Any]]], int]:
        self.asked += calls
        replies = [(call, self.judge(call)) for call in calls]
        return ({"judge": {"asked": len(calls)}}, [(call, {"prediction": text}) for call, text in replies
                                                   if text is not None], sum(text is None for _, text in replies))
