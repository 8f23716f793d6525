"""What B6 reports of a dataset's leaderboard: each model's B5L figures under the leaderboard's name, or Arena-Hard's
scores from the five-way pairwise verdicts — with the names its own tool prints and the published figures beside."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.core.records import Columns
from stages.io.artifacts import read_artifact_json, read_columns
from stages.leaderboards.arena_hard import arena_hard_figures, battles_from_pairwise
from stages.leaderboards.sections import leaderboard_section

from .leaderboard_task import answers_by_id
from .tasks import B2Predictions

if TYPE_CHECKING:
    from .report_tasks import B6Report


def published_figures(report: B6Report) -> dict[str, dict[str, Any]]:
    """Per imported model, the figures its leaderboard published (from the dataset's provenance)."""
    return {model: found["published"] for model, found in report.plain_spec.get("provenance", {}).items()
            if "published" in found}


def recorded_sections(report: B6Report) -> dict[str, Any]:
    """The [leaderboard]'s section: each model's B5L figures and counts, the notes they carry."""
    board = report.plain_spec["leaderboard"]
    if board["name"] == "arena_hard":
        return {}  # its scores come from every game together: arena_hard_section
    documents = {model: read_artifact_json(task.artifact_path()) for model, task in report.leaderboard_tasks().items()}
    notes = sorted({d["note"] for d in documents.values() if d.get("note")})
    if board["name"] == "mt_bench" and report.spec.get("judge"):
        board = {**board, "judge": ", ".join(report.plain_spec["judge"]["models"])}
    if board["name"] == "mt_bench" and board.get("baseline"):
        board = {**board, "name": "mt_bench_pairwise"}  # FastChat's pairwise-baseline mode
    return {board["name"]: leaderboard_section(board, {model: d["figures"] for model, d in documents.items()},
                                               {model: d["header"]["counts"] for model, d in documents.items()},
                                               published_figures(report), notes)}


def arena_hard_section(report: B6Report, outcomes: Columns, baseline: str) -> dict[str, Any]:
    """Arena-Hard-Auto's scores from the five-way pairwise verdicts against the baseline — the recorded games where a
    question was not asked —, with every model's answers for the style features."""
    answers = {model: answers_by_id(B2Predictions(outputs_dir=report.outputs_dir, spec=report.spec, model=model))
               for model in sorted(report.spec["predictions"])}
    recorded = {}
    for model, task in report.leaderboard_tasks().items():
        rows = read_columns(task.artifact_path())
        recorded.update({(model, str(item)): (first, second)
                         for item, first, second in zip(rows["id"], rows["game_1"], rows["game_2"])})
    battles, missing = battles_from_pairwise(outcomes, baseline, recorded)
    board = {"name": "arena_hard", "judge": ", ".join(report.plain_spec["judge"]["models"]), "baseline": baseline}
    figures = arena_hard_figures(battles, baseline, answers) if battles else {}
    return leaderboard_section(board, figures, {model: {"not_judged": missing.get(model, 0)} for model in figures},
                               published_figures(report))
