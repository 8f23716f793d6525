"""What B6 hands a dataset's leaderboard for its report section (stages/leaderboards/<name>/ draws it): each model's
B5L documents and rows, the figures the leaderboard published, every model's answers and, with a five-way [judge],
its pairwise rows."""
from __future__ import annotations

from typing import Any

from stages.core.records import Columns
from stages.io.artifacts import read_artifact_json, read_columns
from stages.leaderboards.board import SectionInputs, get_leaderboard, leaderboard_of_pairwise

from .leaderboard_task import answers_by_id
from .task_base import StageTask
from .tasks import B2Predictions


def published_figures(plain_spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per imported model, the figures its leaderboard published (from the dataset's provenance)."""
    return {model: found["published"] for model, found in plain_spec.get("provenance", {}).items()
            if "published" in found}


def leaderboard_sections(outputs_dir: str, spec: Any, plain_spec: dict[str, Any], tasks: dict[str, StageTask],
                         pairwise: Columns | None) -> dict[str, Any]:
    """The [leaderboard]'s section of the report under its name, from each model's B5L `tasks` ({} without one); a
    [judge] whose pairwise verdicts are on a leaderboard's own scale draws that leaderboard (Arena-Hard's five-way)
    even without a [leaderboard]."""
    judge = plain_spec.get("judge") or {}
    scale = (judge.get("pairwise") or {}).get("scale") if pairwise is not None else None
    drawn = leaderboard_of_pairwise(scale)
    board = plain_spec.get("leaderboard") or (None if drawn is None else {"name": drawn.name,
                                                                          "baseline": judge.get("baseline")})
    if board is None:
        return {}
    leaderboard = get_leaderboard(board["name"])
    on_its_scale = scale is not None and leaderboard.pairwise_scale == scale
    inputs = SectionInputs(
        board=board, judges=list(judge.get("models", [])),
        documents={model: read_artifact_json(task.artifact_path()) for model, task in tasks.items()},
        rows=lambda model: read_columns(tasks[model].artifact_path()),
        published=published_figures(plain_spec),
        answers=lambda: {model: answers_by_id(B2Predictions(outputs_dir=outputs_dir, spec=spec, model=model))
                         for model in sorted(spec["predictions"])},
        pairwise=pairwise if on_its_scale else None)
    section = leaderboard.section(inputs)
    return {} if section is None else {leaderboard.section_name(board): section}

