"""The one interface every leaderboard implements (stages/leaderboards/<name>/leaderboard.py registers it): what its
[leaderboard] table needs, how its tool's files import, how one model is scored by its rules (B5L), its section of
the report (B6) and its item metric for the nightly comparison. pipeline/ only calls these."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ..core.records import Columns, Reject
from ..core.registry import Registry
from .asking import Scoring
from .board_files import LeaderboardFiles
from .sections import SectionForm, leaderboard_section

NEEDS_JUDGE = "no [judge] to ask: add url and model to ask the ratings"


@dataclass
class LeaderboardScores:
    """One model's B5L: rows per item (or turn), counts, the rows set aside, the header's additions (the judge's
    usage) and the body (its figures, a note)."""

    rows: Columns
    counts: dict[str, Any]
    rejects: list[Reject] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)


@dataclass
class SectionInputs:
    """What B6 hands a leaderboard for its report section."""

    board: dict[str, Any]  # the [leaderboard] table
    judges: list[str]  # the [judge]'s models ([] without one)
    documents: dict[str, dict[str, Any]]  # each scored model's B5L document
    rows: Callable[[str], Columns]  # a scored model's B5L rows
    published: dict[str, dict[str, Any]]  # the figures a leaderboard published, per imported model
    answers: Callable[[], dict[str, dict[str, str]]]  # every model's answers by item id (the baseline's too)
    pairwise: Columns | None = None  # the [judge]'s pairwise rows (B5P), when it has five-way verdicts


class Leaderboard:
    """A published leaderboard evalpipe reproduces; `name` is dataset.toml's [leaderboard] name, `tool` the name
    `evalpipe import` reads its files by."""

    name: ClassVar[str]
    tool: ClassVar[str]
    required: ClassVar[tuple[str, ...]]  # [leaderboard] keys it needs besides name
    default_baseline: ClassVar[str | None] = None  # None: it rates each model on its own (no --baseline)
    turned: ClassVar[bool] = False  # whether its recorded verdicts are per item and turn
    pairwise_scale: ClassVar[str | None] = None  # a [judge] pairwise scale it draws without a [leaderboard] table,
    # whose recorded games are the [judge]'s pairwise verdicts (B5P does not ask their questions again)

    def check_table(self, table: dict[str, Any], origin: str) -> None:
        """Further checks of a [leaderboard] table beyond its required keys (a UsageError each)."""

    def read_files(self, root: Path, baseline: str | None) -> LeaderboardFiles:
        """Its tool's folder read for `evalpipe import`."""
        raise NotImplementedError

    def recorded_value(self, record: dict[str, Any]) -> tuple[Any, str | None]:
        """One recorded verdict line's value, or why it is not one."""
        raise NotImplementedError

    def asks_judge(self, board: dict[str, Any], has_judge: bool) -> bool:
        """Whether B5L asks the [judge] for the verdicts not recorded."""
        return has_judge

    def score(self, scoring: Scoring) -> LeaderboardScores:
        """B5L: one model scored by the leaderboard's rules."""
        raise NotImplementedError

    def section_form(self, board: dict[str, Any]) -> SectionForm:
        """How the report shows it: title, columns in its tool's order, unit and headline."""
        raise NotImplementedError

    def section(self, inputs: SectionInputs) -> dict[str, Any] | None:
        """The report's section: each scored model's B5L figures, with the published ones beside."""
        return self.recorded_section(inputs, inputs.board)

    def recorded_section(self, inputs: SectionInputs, board: dict[str, Any]) -> dict[str, Any]:
        """The section from each scored model's B5L figures and counts, with the notes they carry."""
        notes = sorted({d["note"] for d in inputs.documents.values() if d.get("note")})
        return leaderboard_section(self.section_form(board), board,
                                   {model: d["figures"] for model, d in inputs.documents.items()},
                                   {model: d["header"]["counts"] for model, d in inputs.documents.items()},
                                   inputs.published, notes)

    def section_name(self, board: dict[str, Any]) -> str:
        """The key of its section in the report (and of its figures in nightly metrics)."""
        return self.name

    def item_values(self, rows: Columns) -> tuple[str, list[str], list[float | None]] | None:
        """Its paired item metric from a model's B5L rows: (metric, item ids, values), compared night to night by
        the mean test; None when one model's rows give none."""
        raise NotImplementedError


def judged_body(figures: dict[str, Any], counts: dict[str, Any], scoring: Scoring) -> dict[str, Any]:
    """B5L's body: the figures, and a note when items went unjudged for want of a [judge] to ask."""
    return {"figures": figures, **({} if scoring.asks() or not counts["not_judged"] else {"note": NEEDS_JUDGE})}


LEADERBOARDS: Registry[Leaderboard] = Registry("leaderboard", "stages.leaderboards", module="leaderboard")


def register_leaderboard(cls: type[Leaderboard]) -> type[Leaderboard]:
    """Class decorator: make a Leaderboard available by its name (dataset.toml [leaderboard] name)."""
    LEADERBOARDS.register(cls.name)(cls())
    return cls


def get_leaderboard(name: str) -> Leaderboard:
    """The registered leaderboard called `name`."""
    return LEADERBOARDS.get(name)


def leaderboard_of_pairwise(scale: str | None) -> Leaderboard | None:
    """The leaderboard that a [judge]'s pairwise verdicts on `scale` draw, if any (Arena-Hard's five-way scale)."""
    return next((board for _, board in LEADERBOARDS.items() if scale is not None and board.pairwise_scale == scale),
                None)


def leaderboard_by_tool(tool: str) -> Leaderboard | None:
    """The leaderboard whose files `evalpipe import <tool>` reads, if any."""
    return next((board for _, board in LEADERBOARDS.items() if board.tool == tool), None)
