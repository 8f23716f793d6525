"""Arena-Hard-Auto as a leaderboard: each model's games against the baseline as its judge recorded them (B5L), and
the scores fitted from every model's games together (B6) — with the [judge]'s five-way pairwise verdicts where it
asked a question again, from the recorded games alone without one."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.records import Columns
from ..asking import Scoring
from ..board import Leaderboard, LeaderboardScores, SectionInputs, register_leaderboard
from ..board_files import LeaderboardFiles
from ..sections import SectionForm, leaderboard_section
from .files import DEFAULT_BASELINE, read_arena_hard
from .rules import FIVE_WAY, arena_hard_figures, battles_from_pairwise

FORM = SectionForm("Arena-Hard-Auto", ("score", "lower", "upper", "style_controlled_score", "battles", "avg_length"),
                   "percent", "score", interval=("lower", "upper"), interval_n="battles",
                   interval_method="percentile bootstrap over battles")


@register_leaderboard
class ArenaHard(Leaderboard):
    name, tool = "arena_hard", "arena-hard"
    required = ("baseline", "verdicts")
    default_baseline = DEFAULT_BASELINE
    pairwise_scale = "five_way"

    def read_files(self, root: Path, baseline: str | None) -> LeaderboardFiles:
        return read_arena_hard(root, baseline or DEFAULT_BASELINE)

    def recorded_value(self, record: dict[str, Any]) -> tuple[Any, str | None]:
        """The two games' verdicts (None for a game without one)."""
        games = record.get("games")
        if isinstance(games, list) and len(games) == 2 and all(g is None or g in FIVE_WAY for g in games):
            return tuple(games), None
        return None, f"games {str(games)[:60]!r} are not two of {', '.join(FIVE_WAY)} (or null)"

    def asks_judge(self, board: dict[str, Any], has_judge: bool) -> bool:
        return False  # the [judge]'s pairwise stage (B5P) asks Arena-Hard's questions again

    def score(self, scoring: Scoring) -> LeaderboardScores:
        """This model's recorded games against the baseline (B6 fits them with the games asked)."""
        recorded, rejects = scoring.recorded()
        items = sorted(item for item, _ in recorded)
        rows = {"id": items, "game_1": [recorded[(i, 1)][0] for i in items],
                "game_2": [recorded[(i, 1)][1] for i in items]}
        return LeaderboardScores(rows, {"recorded": len(items), "not_judged": 0}, rejects, body={"figures": {}})

    def section_form(self, board: dict[str, Any]) -> SectionForm:
        return FORM

    def section(self, inputs: SectionInputs) -> dict[str, Any] | None:
        """Scores from the [judge]'s five-way pairwise verdicts against the baseline — the recorded games where a
        question was not asked, or every recorded game without a [judge] —, with every model's answers for the
        style features."""
        baseline = inputs.board["baseline"]
        recorded = {}
        for model in inputs.documents:
            rows = inputs.rows(model)
            recorded.update({(model, str(item)): (first, second)
                             for item, first, second in zip(rows["id"], rows["game_1"], rows["game_2"])})
        battles, missing = battles_from_pairwise(inputs.pairwise, baseline, recorded)
        board = {**inputs.board, "judge": ", ".join(inputs.judges) or inputs.board.get("judge")}
        figures = arena_hard_figures(battles, baseline, inputs.answers()) if battles else {}
        return leaderboard_section(FORM, board, figures,
                                   {model: {"not_judged": missing.get(model, 0)} for model in {*figures, *missing}},
                                   inputs.published)

    def item_values(self, rows: Columns) -> tuple[str, list[str], list[float | None]] | None:
        return None  # its scores come from every model's games together: no per-item value of one model
