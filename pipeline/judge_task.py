"""B5J as a Luigi task: a judge model grades one model's answers on the dataset's [judge] criteria."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages import (
    AnswerStore,
    JudgeConfig,
    ask_judges,
    item_verdicts,
    join_predictions,
    judge_calls,
    judge_summary,
    render_fields,
)
from stages.core.records import as_columns
from stages.core.stage_names import ARTIFACT_NAMES

from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions, stage_rows

if TYPE_CHECKING:
    from upath import UPath


class B5Judge(StageTask):
    """Per item and criterion the judge's verdicts, reasons and unparsed replies; per criterion the mean over
    parsed verdicts with its interval and the parse rate. Every call is journaled beside the artifact."""

    stage, artifact_name = "B5J", ARTIFACT_NAMES["B5J"]

    def requires(self) -> dict[str, StageTask]:
        return {"questions": B1Questions(outputs_dir=self.outputs_dir, spec=self.spec),
                "predictions": B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model)}

    def config(self) -> JudgeConfig:
        return JudgeConfig.from_described(self.plain_spec["judge"], self.spec["judge_concurrency"])

    def journal_path(self) -> UPath:
        """Every judge call as it was answered (kept by --force; delete it to ask everything again)."""
        return self.artifact_path().with_name("B5_judge_calls.jsonl")

    def stage_params(self) -> dict[str, Any]:
        return {"judge": self.plain_spec["judge"]}

    def fingerprint_parts(self) -> dict[str, Any]:
        """Calls that failed make every new run stale (so it asks them again), stable within the run."""
        parts = super().fingerprint_parts()
        if AnswerStore(self.journal_path()).has_failures():
            parts["retry_run"] = self.spec["run_token"]
        return parts

    def process_resources(self) -> dict[str, int]:
        """The judge's calls hold `concurrency` units of endpoint.<protocol>, like generation's."""
        return {f"endpoint.{self.spec['judge']['protocol']}": self.spec["judge_concurrency"]}

    def compute(self) -> StageResult:
        config = self.config()
        upstream = self.requires()
        joined, _ = join_predictions(stage_rows(upstream["questions"]), stage_rows(upstream["predictions"]))
        rows = as_columns(joined)
        options = rows.get("options") or [None] * len(rows["id"])
        items = [{"id": str(item), **render_fields(question, golds, prediction, choices, config.persona)}
                 for item, question, golds, prediction, choices in zip(rows["id"], rows["question"], rows["golds"],
                                                                      rows["prediction"], options)
                 if prediction is not None]
        calls = judge_calls(items, config)
        verdicts = item_verdicts(calls, ask_judges(calls, config, self.journal_path()), config)
        summary = judge_summary(verdicts, config)
        counts = {"items": len(items), "unanswered": len(rows["id"]) - len(items), "calls": len(calls),
                  "failed_calls": sum(verdicts["failures"])}
        return StageResult(verdicts, counts, body={"summary": summary})
