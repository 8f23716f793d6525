"""B5J and B5P as Luigi tasks: a judge model grades one model's answers on the dataset's [judge] criteria (B5J), and
compares every pair of models' answers (B5P, with [judge] pairwise = true)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stages import (
    AnswerStore,
    JudgeConfig,
    ask_judges,
    get_kind,
    item_verdicts,
    join_predictions,
    judge_calls,
    judge_summary,
    pairwise_calls,
    pairwise_rows,
    pairwise_summary,
    parse_verdict,
    read_judge_reply,
    render_fields,
)
from stages.core.records import as_columns
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.storage import location
from stages.judge.asking import JudgeReplies
from stages.judge.biases import judge_biases
from stages.judge.budget import Budget
from stages.judge.config import NOT_VERDICTS
from stages.judge.scores import unanswered_items
from stages.leaderboards.board import get_leaderboard
from stages.leaderboards.recorded import read_recorded
from stages.text.reasoning import UNFINISHED, answers_after_reasoning

from .match_judge import budget_ledger, distrusted_line, say_once
from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions, stage_rows

if TYPE_CHECKING:
    from upath import UPath


class JudgeStage(StageTask):
    """What both judge stages share: the [judge] config, a journal of every call beside the artifact (failed calls
    asked again by the next run) and the endpoint resource their calls hold."""

    journal_name: str

    def config(self) -> JudgeConfig:
        return JudgeConfig.from_described(self.plain_spec["judge"], self.spec["judge_concurrency"])

    def journal_path(self) -> UPath:
        """Every judge call as it was answered (kept by --force; delete it to ask everything again)."""
        return self.artifact_path().with_name(self.journal_name)

    def fingerprint_parts(self) -> dict[str, Any]:
        """Calls that failed make every new run stale (so it asks them again), stable within the run."""
        parts = super().fingerprint_parts()
        if AnswerStore(self.journal_path()).has_failures():
            parts["retry_run"] = self.spec.get("run_token")
        return parts

    def fingerprint_after_compute(self) -> bool:
        """The journal is read after asking: a call that failed now is recorded in this run's fingerprint, so the
        stage completes with it and the next run asks it again."""
        return True

    def replies(self, calls: list[Any], config: JudgeConfig) -> JudgeReplies:
        """Every call's reply through this stage's journal, the shared verdict store and the run's budget."""
        store = self.spec.get("judge_store")
        replies = ask_judges(calls, config, self.journal_path(), None if store is None else location(store),
                             self.budget(config), recheck_seed=self.outputs_dir, verdict_of=verdict_reader(config))
        for judge, why in replies.distrusted.items():
            say_once(distrusted_line(judge, why))
        return replies

    def budget(self, config: JudgeConfig) -> Budget | None:
        """[judge] max_calls / max_cost for this run of the dataset, shared by its judge stages through a ledger."""
        if config.max_calls is None and config.max_cost is None:
            return None
        return Budget(budget_ledger(self), config.max_calls, config.max_cost, config.price)

    def process_resources(self) -> dict[str, int]:
        """The judge's calls hold `concurrency` units of endpoint.<protocol>, like generation's."""
        return {f"endpoint.{self.spec['judge']['protocol']}": self.spec["judge_concurrency"]}

    def judged_items(self, questions: Any, predictions: StageTask, persona: str | None) -> list[dict[str, Any]]:
        """Every question (B1 rows) with one model's answer after its reasoning (None where it has none), as
        render_fields values with an id; a reply that ends inside its reasoning is not answered."""
        joined, _ = join_predictions(questions, stage_rows(predictions))
        joined, _ = answers_after_reasoning(joined, self.reasoning_tags())
        rows = as_columns(joined)
        options = rows.get("options") or [None] * len(rows["id"])
        states = rows.get("reasoning") or [None] * len(rows["id"])
        dialogue = get_kind(self.spec["kind"]).conversation_column is not None
        return [{"id": str(item), **render_fields(question, golds, prediction, choices, persona, dialogue),
                 "answered": prediction is not None and state != UNFINISHED}
                for item, question, golds, prediction, choices, state in zip(
                    rows["id"], rows["question"], rows["golds"], rows["prediction"], options, states)]


class B5Judge(JudgeStage):
    """Per item and criterion the judge's verdicts, reasons and unparsed replies; per criterion the mean over
    parsed verdicts with its interval and the parse rate."""

    stage, artifact_name, journal_name = "B5J", ARTIFACT_NAMES["B5J"], "B5_judge_calls.jsonl"

    def requires(self) -> dict[str, StageTask]:
        return {"questions": B1Questions(outputs_dir=self.outputs_dir, spec=self.spec),
                "predictions": B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model)}

    def stage_params(self) -> dict[str, Any]:
        return {"judge": {k: v for k, v in self.plain_spec["judge"].items() if k not in ("pairwise", "baseline",
                                                                                       *NOT_VERDICTS)},
                "reasoning": self.reasoning_tags().described()}

    def compute(self) -> StageResult:
        config = self.config()
        upstream = self.requires()
        every = self.judged_items(stage_rows(upstream["questions"]), upstream["predictions"], config.persona)
        items = [{k: v for k, v in item.items() if k != "answered"} for item in every if item["answered"]]
        calls = judge_calls(items, config)
        replies = self.replies(calls, config)
        verdicts = item_verdicts(calls, replies.records, config)
        counts = {"items": len(items), "unanswered": len(every) - len(items), "calls": len(calls),
                  "failed_calls": sum(verdicts["failures"]), "not_judged": sum(verdicts["not_judged"])}
        unanswered = unanswered_items(calls, replies.records)
        return StageResult(verdicts, counts, header={"judge_usage": replies.usage},
                           body={"summary": judge_summary(verdicts, config, counts["unanswered"]),
                                 **({"unanswered": unanswered} if unanswered else {})})


class B5Pairwise(JudgeStage):
    """Every pair of the dataset's models on every item both answered: the judge's preference in both orders, the
    outcome per item, and per pair win / tie / loss rates with intervals and the position-consistency rate."""

    stage, artifact_name, journal_name = "B5P", ARTIFACT_NAMES["B5P"], "B5_pairwise_calls.jsonl"

    def requires(self) -> dict[str, Any]:
        return {"questions": B1Questions(outputs_dir=self.outputs_dir, spec=self.spec),
                "predictions": {model: B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=model)
                                for model in sorted(self.spec["predictions"])}}

    def stage_params(self) -> dict[str, Any]:
        return {"judge": {k: v for k, v in self.plain_spec["judge"].items() if k not in ("criteria", *NOT_VERDICTS)},
                "reasoning": self.reasoning_tags().described()}

    def recorded_path(self) -> UPath | None:
        """The recorded games of a leaderboard whose games are pairwise verdicts (Arena-Hard's [leaderboard]
        verdicts), whose questions are not asked again."""
        board = self.spec.get("leaderboard") or {}
        recorded = board.get("name") is not None and get_leaderboard(board["name"]).pairwise_scale is not None
        return self.input_location(board["verdicts"]) if recorded else None

    def input_files(self) -> dict[str, UPath]:
        path = self.recorded_path()
        return {} if path is None else {self.spec["leaderboard"]["verdicts"]: path}

    def recorded_questions(self) -> set[tuple[str, str]]:
        """(model, item) whose two games the leaderboard's judge recorded."""
        path = self.recorded_path()
        if path is None:
            return set()
        return {(model, item) for model in self.spec["predictions"]
                for (item, _), games in read_recorded(path, model, self.spec["leaderboard"]["name"])[0].items()
                if None not in games}

    def compute(self) -> StageResult:
        config = self.config()
        upstream = self.requires()
        questions = stage_rows(upstream["questions"])
        items, answers = [], {}
        for model, task in upstream["predictions"].items():
            every = self.judged_items(questions, task, config.persona)
            answers[model] = {item["id"]: item["prediction"] for item in every if item["answered"]}
            items = items or [{k: v for k, v in item.items() if k not in ("answered", "prediction")} for item in every]
        recorded = self.recorded_questions()
        calls = [call for call in pairwise_calls(items, answers, config) if (call.first, call.item) not in recorded]
        replies = self.replies(calls, config)
        records = replies.records
        rows = pairwise_rows(calls, records, config.pairwise.scale)
        characters = {(model, item): len(text) for model, found in answers.items() for item, text in found.items()}
        for side in ("first", "second"):
            rows[f"{side}_characters"] = [characters[(model, item)] for model, item in zip(rows[side], rows["id"])]
        counts = {"items": len(items), "pairs": len({(f, s) for f, s in zip(rows["first"], rows["second"])}),
                  "calls": len(calls), "failed_calls": sum(rows["failures"]), "not_judged": sum(rows["not_judged"])}
        return StageResult(rows, counts, header={"judge_usage": replies.usage},
                           body={"summary": pairwise_summary(rows), "biases": judge_biases(calls, records, characters,
                                                                                    config.pairwise.scale)})


def verdict_reader(config: JudgeConfig) -> Callable[[Any, str], Any]:
    """How a reply's verdict is read for comparing rechecked verdicts: by its criterion's scale, or the pairwise
    question's; a leaderboard's call by its text."""
    def read(call: Any, text: str) -> Any:
        criterion = getattr(call, "criterion", None)
        if criterion in config.criteria:
            return read_judge_reply(text, config.criteria[criterion].scale).label
        if hasattr(call, "order") and config.pairwise is not None:
            return parse_verdict(text, config.pairwise.scale).label
        return text
    return read
