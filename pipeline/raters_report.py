"""B6's raters: where their labels files are and what the fingerprint takes of them, and the judge's verdicts and
pairwise outcomes measured against them (stages/raters does the measuring; this reads the task's files)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.io.artifacts import read_column, read_columns
from stages.judge.config import JudgeConfig
from stages.raters.files import LabelsFiles, rater_digests, rater_files, read_rater_files
from stages.raters.judge_agreement import agreement_with_raters
from stages.raters.preferences import preferences_against_judge

from .tasks import B1Questions

if TYPE_CHECKING:
    from upath import UPath

    from .task_base import StageTask


def report_rater_files(report: StageTask) -> dict[str, UPath]:
    """Rater → labels CSV: the dialogue report's annotation sheet as people filled it in, and every
    inputs/<dataset>/labels/<rater>.csv."""
    return rater_files(report.artifact_path().parent, report.input_location(f"{report.dataset}/labels"))


def raters_fingerprint(report: StageTask) -> dict[str, str]:
    """What the raters' labels are now, for B6's fingerprint."""
    return rater_digests(report_rater_files(report), report.artifact_path().parent)


def read_labels_files(report: StageTask) -> LabelsFiles:
    """Every labels file with its bytes, read once for all B6 measures against them; none without a [judge]."""
    return read_rater_files(report_rater_files(report)) if report.spec.get("judge") else {}


def _questions(report: StageTask) -> UPath:
    return B1Questions(outputs_dir=report.outputs_dir, spec=report.spec, shard=0).artifact_path()


def judge_against_raters(report: StageTask, verdicts: dict[str, Any], labels_files: LabelsFiles,
                         ) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The judge's verdicts against the raters' labels, on the criteria's scales and the dataset's items."""
    if not verdicts or not labels_files:
        return {}, {}, []
    criteria = JudgeConfig.from_described(report.plain_spec["judge"], 1).criteria
    return agreement_with_raters(verdicts, labels_files, {name: c.scale for name, c in criteria.items()},
                                 set(report.spec["predictions"]), read_columns(_questions(report)))


def pairwise_against_raters(report: StageTask, outcomes: dict[str, list], labels_files: LabelsFiles,
                            ) -> tuple[dict[str, Any] | None, dict[Any, str], list[Any]]:
    """The judge's pairwise outcomes against the raters' preferences between two answers."""
    items = {str(i) for i in read_column(_questions(report), "id").to_pylist()}
    return preferences_against_judge(outcomes, items, labels_files)
