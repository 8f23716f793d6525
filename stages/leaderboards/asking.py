"""What a leaderboard scores one model with (Scoring, which B5L provides), and its verdicts asked of the [judge]: one
call per prompt, keyed as the judge's own calls are, the recorded verdicts taken first, so only what the
leaderboard's judge did not record is asked."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import product
from typing import Any, Protocol

from ..core.records import Columns, Reject
from ..judge.asking import call_key
from ..judge.config import JudgeConfig


@dataclass(frozen=True)
class TurnCall:
    """One verdict asked of the judge: a model's answer to one turn of one question, in the leaderboard's prompt."""

    model: str
    item: str
    turn: int
    prompt_name: str
    system: str | None  # None: the [judge]'s own system prompt
    prompt: str
    judge: str = ""
    sample: int = 0
    key: str = ""


class Scoring(Protocol):
    """What B5L hands a leaderboard to score one model with: the dataset's rows, its files and the [judge]."""

    model: str

    @property
    def board(self) -> dict[str, Any]: ...  # the dataset's [leaderboard] table

    def asks(self) -> bool: ...  # whether verdicts missing from the recorded ones are asked of the [judge]

    def questions(self) -> Columns: ...  # B1 rows

    def answers(self, model: str) -> dict[str, str]: ...  # a model's B2 answers by item id

    def turns(self, model: str) -> dict[str, list[str]]: ...  # a model's B2 answers by item id as their turns

    def recorded(self) -> tuple[dict[tuple[str, int], Any], list[Reject]]: ...  # this model's recorded verdicts

    def input_path(self, name: str) -> Any: ...  # a file of the dataset folder (a path or fsspec UPath)

    def replied(self, calls: list[TurnCall]) -> tuple[dict[str, Any], list[tuple[TurnCall, dict[str, Any]]], int]:
        ...  # calls asked of the [judge]: header, (call, journal record) of those replied, failed calls


def judged_turn_calls(calls: list[TurnCall], config: JudgeConfig) -> list[TurnCall]:
    """Every call for each judge model and sample, keyed as the judge's calls are (prompt, judge, sampling settings
    with the prompt's own system prompt), so the journal and the verdict store serve them like any other."""
    return [replace(call, judge=judge, sample=sample,
                    key=call_key(call.prompt, judge, sample, replace(config, system_prompt=call.system)))
            for call in calls for judge, sample in product(config.models, range(config.samples))]


def asked_values(scoring: Scoring, calls: list[TurnCall], read: Callable[[str], float | None],
                 recorded: dict[tuple[str, int], Any], on_reply: Callable[[TurnCall, str], None] | None = None,
                 ) -> tuple[dict[str, Any], dict[tuple[str, int], float], set[tuple[str, int]], int]:
    """The recorded verdicts, and each call they lack asked of the [judge] (when B5L asks it): (header with the
    judge's usage, per (item, turn) the mean of the values `read` takes from the replies, the (item, turn)s with a
    verdict or a reply, failed calls); `on_reply` sees each reply as it is read."""
    wanted = {(c.item, c.turn) for c in calls}
    values = {key: [value] for key, value in recorded.items() if key in wanted and value is not None}
    replied = wanted & set(recorded)
    pending = [c for c in calls if (c.item, c.turn) not in recorded]
    if not scoring.asks() or not pending:
        return {}, {key: found[0] for key, found in values.items()}, replied, 0
    header, answered, failures = scoring.replied(pending)
    for call, record in answered:
        replied.add((call.item, call.turn))
        value = read(record["prediction"])
        if value is not None:
            values.setdefault((call.item, call.turn), []).append(value)
        if on_reply is not None:
            on_reply(call, record["prediction"])
    means = {key: sum(found) / len(found) for key, found in values.items()}
    return header, means, replied, failures
