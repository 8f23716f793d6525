"""B5L as a Luigi task: one model scored by its [leaderboard]'s own rules (stages/leaderboards/<name>/), this task
handing them the dataset's rows and files and asking the [judge] through its journal, verdict store and budget."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.core.records import Columns, Reject, as_columns
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.artifacts import read_columns
from stages.leaderboards.asking import TurnCall, judged_turn_calls
from stages.leaderboards.board import Leaderboard, get_leaderboard
from stages.leaderboards.recorded import read_recorded

from .judge_task import NOT_VERDICTS, JudgeStage
from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions

if TYPE_CHECKING:
    from upath import UPath


class B5Leaderboard(JudgeStage):
    """Per item what the leaderboard's rules take from it (a recorded preference with both answers' lengths, or each
    turn's rating), and the model's figures under the names the leaderboard's tool prints."""

    stage, artifact_name, journal_name = "B5L", ARTIFACT_NAMES["B5L"], "B5_leaderboard_calls.jsonl"

    @property
    def board(self) -> dict[str, Any]:
        return self.plain_spec["leaderboard"]

    @property
    def leaderboard(self) -> Leaderboard:
        return get_leaderboard(self.board["name"])

    def asks(self) -> bool:
        """Whether this leaderboard's verdicts are asked of the [judge] (MT-Bench's ratings, when there is one)."""
        return self.leaderboard.asks_judge(self.board, bool(self.spec.get("judge")))

    def requires(self) -> dict[str, StageTask]:
        found = {"questions": B1Questions(outputs_dir=self.outputs_dir, spec=self.spec),
                 "answers": B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model)}
        if self.board.get("baseline"):
            found["baseline"] = B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec,
                                              model=self.board["baseline"])
        return found

    def input_files(self) -> dict[str, UPath]:
        return {self.board[key]: self.input_location(self.board[key]) for key in ("verdicts", "prompts")
                if self.board.get(key)}

    def stage_params(self) -> dict[str, Any]:
        params = {"leaderboard": self.board}
        if self.asks():
            params["judge"] = {k: v for k, v in self.plain_spec["judge"].items() if k not in NOT_VERDICTS}
        return params

    def fingerprint_after_compute(self) -> bool:
        return self.asks()

    def process_resources(self) -> dict[str, int]:
        return super().process_resources() if self.asks() else {}

    def compute(self) -> StageResult:
        found = self.leaderboard.score(self)
        return StageResult(found.rows, found.counts, found.rejects, header=found.header, body=found.body)

    def questions(self) -> Columns:
        return read_columns(self.requires()["questions"].artifact_path())

    def answers(self, model: str) -> dict[str, str]:
        """A model's answers by item id (B2 rows)."""
        return answers_by_id(B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=model))

    def turns(self, model: str) -> dict[str, list[str]]:
        """A model's answers by item id as their turns (B2 rows; a one-turn answer is its text)."""
        rows = as_columns(read_columns(B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec,
                                                     model=model).artifact_path()))
        every = rows.get("turns") or [None] * len(rows["id"])
        return {str(item): turns or [text] for item, text, turns in zip(rows["id"], rows["prediction"], every)
                if text is not None}

    def recorded(self) -> tuple[dict[tuple[str, int], Any], list[Reject]]:
        """This model's recorded verdicts by (item, turn), and the rows set aside; none without a verdicts file."""
        if not self.board.get("verdicts"):
            return {}, []
        return read_recorded(self.input_location(self.board["verdicts"]), self.model, self.board["name"])

    def input_path(self, name: str) -> UPath:
        return self.input_location(name)

    def replied(self, calls: list[TurnCall]) -> tuple[dict[str, Any], list[tuple[TurnCall, dict[str, Any]]], int]:
        """The calls asked of the [judge] for each judge model and sample, through its journal, the verdict store and
        the budget: the header with the judge's usage, each call that got a reply with its record, the failed calls."""
        config = self.config()
        asked = judged_turn_calls(calls, config)
        replies = self.replies(asked, config)
        found, failures = [], 0
        for call in asked:
            record = replies.records.get(call.key, {})
            if "prediction" in record:
                found.append((call, record))
            else:
                failures += not record.get("budget")
        return {"judge_usage": replies.usage}, found, failures


def answers_by_id(task: StageTask) -> dict[str, str]:
    """A model's answers by item id (B2 rows)."""
    rows = as_columns(read_columns(task.artifact_path()))
    return {str(item): text for item, text in zip(rows["id"], rows["prediction"]) if text is not None}
