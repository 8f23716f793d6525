"""B5L as a Luigi task: one model against the [leaderboard]'s baseline by the verdicts its judge recorded, scored by
the leaderboard's own rules."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.core.records import as_columns
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.artifacts import read_columns
from stages.leaderboards.alpaca_eval import alpaca_eval_figures
from stages.leaderboards.recorded import read_recorded_verdicts

from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions

if TYPE_CHECKING:
    from upath import UPath


class B5Leaderboard(StageTask):
    """Per item the recorded preference of the model's answer over the baseline's, with both answers' lengths; the
    leaderboard's figures for the model (AlpacaEval 2's win rate, standard error, wins, draws, average length and
    length-controlled win rate)."""

    stage, artifact_name = "B5L", ARTIFACT_NAMES["B5L"]

    def requires(self) -> dict[str, StageTask]:
        baseline = self.spec["leaderboard"]["baseline"]
        return {"questions": B1Questions(outputs_dir=self.outputs_dir, spec=self.spec),
                "answers": B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model),
                "baseline": B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=baseline)}

    def verdicts_path(self) -> UPath:
        return self.input_location(self.spec["leaderboard"]["verdicts"])

    def input_files(self) -> dict[str, UPath]:
        return {self.spec["leaderboard"]["verdicts"]: self.verdicts_path()}

    def stage_params(self) -> dict[str, Any]:
        return {"leaderboard": self.plain_spec["leaderboard"]}

    def compute(self) -> StageResult:
        upstream = self.requires()
        questions = read_columns(upstream["questions"].artifact_path())
        answers = _answers(upstream["answers"])
        baseline = _answers(upstream["baseline"])
        recorded, rejects = read_recorded_verdicts(self.verdicts_path(), self.model)
        difficulty = dict(zip(map(str, questions["id"]), questions.get("instruction_difficulty") or []))
        both = [item for item in map(str, questions["id"]) if item in answers and item in baseline]
        judged = [item for item in both if item in recorded]
        rows = {"id": judged, "preference": [recorded[item] for item in judged],
                "length": [len(answers[item]) for item in judged],
                "baseline_length": [len(baseline[item]) for item in judged]}
        figures = alpaca_eval_figures(rows["preference"], rows["length"], rows["baseline_length"],
                                      [difficulty.get(item) for item in judged] if difficulty else None)
        figures["avg_length"] = int(sum(map(len, answers.values())) / len(answers)) if answers else None
        counts = {"items": len(questions["id"]), "both_answered": len(both), "judged": len(judged),
                  "not_judged": len(both) - len(judged)}
        return StageResult(rows, counts, rejects, body={"figures": figures})


def _answers(task: StageTask) -> dict[str, str]:
    """A model's answers by item id (B2 rows)."""
    rows = as_columns(read_columns(task.artifact_path()))
    return {str(item): text for item, text in zip(rows["id"], rows["prediction"]) if text is not None}
