"""B5L as a Luigi task: one model scored by a [leaderboard]'s own rules — against the baseline by the verdicts its
judge recorded (AlpacaEval 2), or rated by the [judge] with the leaderboard's prompts (MT-Bench's turns, AlignBench's
answers)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from stages.core.records import Reject, as_columns
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.artifacts import read_columns
from stages.io.readers import iter_records
from stages.leaderboards.alignbench import CONFIG_KEYS, alignbench_figures, judge_prompt, read_ratings
from stages.leaderboards.alpaca_eval import alpaca_eval_figures, annotator_prompt, preference_of, shows_model_first
from stages.leaderboards.mt_bench import (
    TurnCall,
    judged_turn_calls,
    mt_bench_figures,
    pair_figures,
    pair_outcome,
    pair_turn_calls,
    pair_winner,
    prompt_names_missing,
    rating_of,
    turn_calls,
)
from stages.leaderboards.recorded import read_recorded

from .judge_task import NOT_VERDICTS, JudgeStage
from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions

if TYPE_CHECKING:
    from upath import UPath

NEEDS_JUDGE = "no [judge] to ask: add url and model to ask the ratings"
ASKED = ("mt_bench", "alignbench", "alpaca_eval")  # leaderboards whose verdicts are asked of the [judge]


class B5Leaderboard(JudgeStage):
    """Per item what the leaderboard's rules take from it (a recorded preference with both answers' lengths, or each
    turn's rating), and the model's figures under the names the leaderboard's tool prints."""

    stage, artifact_name, journal_name = "B5L", ARTIFACT_NAMES["B5L"], "B5_leaderboard_calls.jsonl"

    @property
    def board(self) -> dict[str, Any]:
        return self.plain_spec["leaderboard"]

    def asks(self) -> bool:
        """Whether this leaderboard's verdicts are asked of the [judge] (MT-Bench's ratings, when there is one)."""
        return (self.board["name"] in ASKED and bool(self.spec.get("judge"))
                and (self.board["name"] != "alpaca_eval" or bool(self.board.get("prompts"))))

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
        found = {"alpaca_eval": self._alpaca_eval, "mt_bench": self._mt_bench, "alignbench": self._alignbench,
                 "arena_hard": self._arena_hard}
        return found[self.board["name"]]()

    def _alpaca_eval(self) -> StageResult:
        upstream = self.requires()
        questions = read_columns(upstream["questions"].artifact_path())
        answers = answers_by_id(upstream["answers"])
        baseline = answers_by_id(upstream["baseline"])
        recorded, rejects = self._recorded()
        difficulty = dict(zip(map(str, questions["id"]), questions.get("instruction_difficulty") or []))
        both = [item for item in map(str, questions["id"]) if item in answers and item in baseline]
        preferences = {item: recorded[(item, 1)] for item in both if (item, 1) in recorded}
        header, failures, unparsed = {}, 0, 0
        pending = [item for item in both if item not in preferences]
        if self.asks() and pending:
            texts = dict(zip(map(str, questions["id"]), questions["question"]))
            prompts = orjson.loads(self.input_location(self.board["prompts"]).read_bytes())
            calls = []
            for item in pending:
                first = shows_model_first(item)
                pair = (answers[item], baseline[item]) if first else (baseline[item], answers[item])
                calls.append(TurnCall(self.model, item, 1, "alpaca_eval", prompts.get("system"),
                                      annotator_prompt(prompts, texts[item], *pair)))
            header, replied, failures = self._replied(calls)
            values: dict[str, list[float]] = {}
            for call, record in replied:
                value = preference_of(record["prediction"], record.get("top_logprobs"), shows_model_first(call.item))
                unparsed += value is None
                if value is not None:
                    values.setdefault(call.item, []).append(value)
            preferences.update({item: sum(found) / len(found) for item, found in values.items()})
        judged_items = [item for item in both if item in preferences]
        rows = {"id": judged_items, "preference": [preferences[item] for item in judged_items],
                "length": [len(answers[item]) for item in judged_items],
                "baseline_length": [len(baseline[item]) for item in judged_items]}
        figures = alpaca_eval_figures(rows["preference"], rows["length"], rows["baseline_length"],
                                      [difficulty.get(item) for item in judged_items] if difficulty else None)
        figures["avg_length"] = int(sum(map(len, answers.values())) / len(answers)) if answers else None
        counts = {"items": len(questions["id"]), "both_answered": len(both), "judged": len(judged_items),
                  "recorded": sum((item, 1) in recorded for item in both), "unparsed": unparsed,
                  "failed_calls": failures, "not_judged": len(both) - len(judged_items)}
        return StageResult(rows, counts, rejects, header=header, body={"figures": figures})

    def _mt_bench(self) -> StageResult:
        if self.board.get("baseline"):
            return self._mt_bench_pairwise()
        upstream = self.requires()
        turns_of = _turns(upstream["answers"])
        questions, prompts, rejects = self._fastchat_questions(pairwise=False)
        calls = []
        for item, turns, category, references in questions:
            if item in turns_of:
                calls += turn_calls(self.model, item, category, turns, turns_of[item], references, prompts)
        recorded, recorded_rejects = self._recorded()
        header, per_turn, replied, failures = self._ask(calls, rating_of, recorded)
        rejects += recorded_rejects
        rows = {"id": [c.item for c in calls], "turn": [c.turn for c in calls],
                "prompt": [c.prompt_name for c in calls],
                "rating": [per_turn.get((c.item, c.turn)) for c in calls]}
        figures = mt_bench_figures([(c.item, c.turn, per_turn.get((c.item, c.turn))) for c in calls
                                    if (c.item, c.turn) in replied])
        counts = {"items": len(questions), "answered": len(turns_of), "turns": len(calls),
                  "rated": figures["rated"], "failed_calls": failures,
                  "not_judged": sum((c.item, c.turn) not in replied for c in calls)}
        body = {"figures": figures, **({} if self.asks() or not counts["not_judged"] else {"note": NEEDS_JUDGE})}
        return StageResult(rows, counts, rejects, header=header, body=body)

    def _mt_bench_pairwise(self) -> StageResult:
        """FastChat's pairwise-baseline mode: each turn judged against the baseline's answer in both orders."""
        upstream = self.requires()
        mine, theirs = _turns(upstream["answers"]), _turns(upstream["baseline"])
        questions, prompts, rejects = self._fastchat_questions(pairwise=True)
        calls = []
        for item, turns, category, references in questions:
            if item in mine and item in theirs:
                calls += pair_turn_calls(self.model, self.board["baseline"], item, category, turns, mine[item],
                                         theirs[item], references, prompts)
        games: dict[tuple[str, int], dict[int, str | None]] = {}
        header, failures, asked = {}, 0, set()
        if self.asks():
            header, replied, failures = self._replied(calls)
            for call, record in replied:
                asked.add((call.item, call.turn))
                games.setdefault((call.item, call.turn), {})[int(call.prompt_name[-1])] = pair_winner(
                    record["prediction"])
        turns = sorted({(c.item, c.turn) for c in calls})
        outcomes = [pair_outcome(games.get(key, {}).get(1), games.get(key, {}).get(2)) for key in turns]
        rows = {"id": [item for item, _ in turns], "turn": [turn for _, turn in turns],
                "game_1": [games.get(key, {}).get(1) for key in turns],
                "game_2": [games.get(key, {}).get(2) for key in turns], "outcome": outcomes}
        figures = pair_figures([o for key, o in zip(turns, outcomes) if key in asked])
        counts = {"items": len(questions), "turns": len(turns), "rated": figures["rated"], "failed_calls": failures,
                  "not_judged": sum(key not in asked for key in turns)}
        body = {"figures": figures, **({} if self.asks() or not counts["not_judged"] else {"note": NEEDS_JUDGE})}
        return StageResult(rows, counts, rejects, header=header, body=body)

    def _fastchat_questions(self, pairwise: bool) -> tuple[list[tuple[str, list[str], str | None, list[str] | None]],
                                                           dict[str, dict[str, str]], list[Reject]]:
        """MT-Bench's questions as (id, turns, category, references), FastChat's prompts (the single-answer or the
        pairwise ones, each checked there) and the prompt lines set aside."""
        rows = as_columns(read_columns(self.requires()["questions"].artifact_path()))
        prompts, rejects = _prompts(self.input_location(self.board["prompts"]))
        missing = prompt_names_missing(prompts, pairwise=pairwise)
        if missing:
            raise ValueError(f"{self.board['prompts']}: lacks FastChat's prompts {', '.join(missing)}")
        n = len(rows["id"])
        questions = [(item, turns or [question], category, references) for item, question, turns, category, references
                     in zip(map(str, rows["id"]), rows["question"], rows.get("turns") or [None] * n,
                            rows.get("category") or [None] * n, rows.get("references") or [None] * n)]
        return questions, prompts, rejects

    def _alignbench(self) -> StageResult:
        upstream = self.requires()
        questions = as_columns(read_columns(upstream["questions"].artifact_path()))
        answers = answers_by_id(upstream["answers"])
        config = orjson.loads(self.input_location(self.board["prompts"]).read_bytes())
        missing = [key for key in CONFIG_KEYS if key not in config]
        if missing:
            raise ValueError(f"{self.board['prompts']}: lacks {', '.join(missing)}")
        n = len(questions["id"])
        calls, categories = [], {}
        for item, question, golds, category, subcategory in zip(
                map(str, questions["id"]), questions["question"], questions["golds"],
                questions.get("category") or [None] * n, questions.get("subcategory") or [None] * n):
            if item in answers:
                prompt = judge_prompt(category, subcategory, question, " / ".join(golds or []), answers[item], config)
                calls.append(TurnCall(self.model, item, 1, "alignbench", None, prompt))
                categories[item] = category
        dimensions: dict[str, str] = {}
        recorded, rejects = self._recorded()
        header, scores, replied, failures = self._ask(calls, lambda reply: read_ratings(reply)[1], recorded,
                                                      dimensions)
        rows = {"id": [c.item for c in calls], "category": [categories[c.item] for c in calls],
                "score": [scores.get((c.item, 1)) for c in calls],
                "ratings": [dimensions.get(c.item) for c in calls]}
        figures = alignbench_figures([(categories[c.item], scores.get((c.item, 1))) for c in calls
                                      if (c.item, 1) in replied])
        counts = {"items": n, "answered": len(answers), "rated": figures["rated"], "failed_calls": failures,
                  "not_judged": sum((c.item, 1) not in replied for c in calls)}
        body = {"figures": figures, **({} if self.asks() or not counts["not_judged"] else {"note": NEEDS_JUDGE})}
        return StageResult(rows, counts, rejects, header=header, body=body)

    def _recorded(self) -> tuple[dict[tuple[str, int], Any], list[Reject]]:
        """This model's recorded verdicts by (item, turn), and the rows set aside; none without a verdicts file."""
        if not self.board.get("verdicts"):
            return {}, []
        return read_recorded(self.input_location(self.board["verdicts"]), self.model, self.board["name"])

    def _arena_hard(self) -> StageResult:
        """Arena-Hard's recorded games of this model against the baseline (B6 fits them with the games asked)."""
        recorded, rejects = self._recorded()
        items = sorted(item for item, _ in recorded)
        rows = {"id": items, "game_1": [recorded[(i, 1)][0] for i in items],
                "game_2": [recorded[(i, 1)][1] for i in items]}
        return StageResult(rows, {"recorded": len(items), "not_judged": 0}, rejects, body={"figures": {}})

    def _ask(self, calls: list[TurnCall], read: Any, recorded: dict[tuple[str, int], Any],
             ratings_by_item: dict[str, str] | None = None,
             ) -> tuple[dict[str, Any], dict[tuple[str, int], float], set[tuple[str, int]], int]:
        """The recorded verdicts, and each call they lack asked of the [judge] (when there is one) through its
        journal, the verdict store and the budget: (header with the judge's usage, per (item, turn) the mean of the
        values, the (item, turn)s with a verdict or a reply, failed calls); with `ratings_by_item`, AlignBench's
        dimension ratings of each item's first reply."""
        wanted = {(c.item, c.turn) for c in calls}
        values = {key: [value] for key, value in recorded.items() if key in wanted and value is not None}
        replied = wanted & set(recorded)
        pending = [c for c in calls if (c.item, c.turn) not in recorded]
        if not self.asks() or not pending:
            return {}, {key: found[0] for key, found in values.items()}, replied, 0
        header, answered, failures = self._replied(pending)
        for call, record in answered:
            replied.add((call.item, call.turn))
            value = read(record["prediction"])
            if value is not None:
                values.setdefault((call.item, call.turn), []).append(value)
            if ratings_by_item is not None and call.item not in ratings_by_item:
                ratings_by_item[call.item] = orjson.dumps(read_ratings(record["prediction"])[0]).decode()
        means = {key: sum(found) / len(found) for key, found in values.items()}
        return header, means, replied, failures

    def _replied(self, calls: list[TurnCall]) -> tuple[dict[str, Any], list[tuple[TurnCall, dict[str, Any]]], int]:
        """The calls asked of the [judge] for each judge model and sample, through its journal, the verdict store and
        the budget: the header with the judge's usage, each call that got a reply with its record, the failed calls."""
        config = self.config()
        asked = judged_turn_calls(calls, config)
        replies = self.replies(asked, config)
        replied, failures = [], 0
        for call in asked:
            record = replies.records.get(call.key, {})
            if "prediction" in record:
                replied.append((call, record))
            else:
                failures += not record.get("budget")
        return {"judge_usage": replies.usage}, replied, failures


def _turns(task: StageTask) -> dict[str, list[str]]:
    """A model's answers by item id as their turns (B2 rows; a one-turn answer is its text)."""
    rows = as_columns(read_columns(task.artifact_path()))
    every = rows.get("turns") or [None] * len(rows["id"])
    return {str(item): turns or [text] for item, text, turns in zip(rows["id"], rows["prediction"], every)
            if text is not None}


def answers_by_id(task: StageTask) -> dict[str, str]:
    """A model's answers by item id (B2 rows)."""
    rows = as_columns(read_columns(task.artifact_path()))
    return {str(item): text for item, text in zip(rows["id"], rows["prediction"]) if text is not None}


def _prompts(path: UPath) -> tuple[dict[str, dict[str, str]], list[Reject]]:
    """FastChat's judge prompts by name; a line that is not a prompt record is set aside with its line."""
    prompts, rejects = {}, []
    for item in iter_records(path):
        if isinstance(item, Reject):
            rejects.append(item)
        elif not isinstance(item[1], dict) or not isinstance(item[1].get("prompt_template"), str):
            rejects.append(Reject(str(path), item[0], "not a judge prompt record (name, system_prompt, prompt_template)"))
        else:
            prompts[item[1].get("name")] = item[1]
    return prompts, rejects
