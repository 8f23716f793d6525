"""AlpacaEval 2 as a leaderboard: the annotator's recorded preferences of each model against the baseline, the ones
it did not record asked of the [judge] with the annotator's template (the order shown drawn per item as AlpacaEval
does)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from ...core.errors import UsageError
from ..asking import Scoring, TurnCall
from ..board import Leaderboard, LeaderboardScores, SectionInputs, register_leaderboard
from ..board_files import LeaderboardFiles
from ..sections import SectionForm
from .files import DEFAULT_BASELINE, read_alpaca_eval
from .rules import (
    LC_NEEDS_DIFFICULTY,
    alpaca_eval_figures,
    annotator_prompt,
    preference_of,
    preference_value,
    shows_model_first,
)

FORM = SectionForm("AlpacaEval 2", ("length_controlled_winrate", "win_rate", "standard_error", "n_wins", "n_wins_base",
                                    "n_draws", "n_total", "discrete_win_rate", "avg_length"),
                   "percent", "length_controlled_winrate", fallback="win_rate")


@register_leaderboard
class AlpacaEval(Leaderboard):
    name, tool = "alpaca_eval", "alpaca-eval"
    required = ("baseline",)
    default_baseline = DEFAULT_BASELINE

    def check_table(self, table: dict[str, Any], origin: str) -> None:
        if not {"verdicts", "prompts"} & set(table):
            raise UsageError(f"{origin}: [leaderboard] alpaca_eval needs verdicts (the annotator's recorded ones), "
                             "prompts (the annotator's template, to ask [judge]) or both")

    def read_files(self, root: Path, baseline: str | None) -> LeaderboardFiles:
        return read_alpaca_eval(root, baseline or DEFAULT_BASELINE)

    def recorded_value(self, record: dict[str, Any]) -> tuple[Any, str | None]:
        value = preference_value(record.get("preference"))
        return value, None if value is not None else (
            f"preference {record.get('preference')!r} is not in [1, 2] (0 or 1.5: a draw)")

    def asks_judge(self, board: dict[str, Any], has_judge: bool) -> bool:
        return has_judge and bool(board.get("prompts"))

    def score(self, scoring: Scoring) -> LeaderboardScores:
        """Per item the preference (recorded, else the mean of the judge's), both answers' lengths, and the figures
        AlpacaEval's tool prints."""
        questions = scoring.questions()
        answers = scoring.answers(scoring.model)
        baseline = scoring.answers(scoring.board["baseline"])
        recorded, rejects = scoring.recorded()
        difficulty = dict(zip(map(str, questions["id"]), questions.get("instruction_difficulty") or []))
        both = [item for item in map(str, questions["id"]) if item in answers and item in baseline]
        preferences = {item: recorded[(item, 1)] for item in both if (item, 1) in recorded}
        header, failures, unparsed = {}, 0, 0
        pending = [item for item in both if item not in preferences]
        if scoring.asks() and pending:
            texts = dict(zip(map(str, questions["id"]), questions["question"]))
            prompts = orjson.loads(scoring.input_path(scoring.board["prompts"]).read_bytes())
            calls = []
            for item in pending:
                pair = (answers[item], baseline[item]) if shows_model_first(item) else (baseline[item], answers[item])
                calls.append(TurnCall(scoring.model, item, 1, "alpaca_eval", prompts.get("system"),
                                      annotator_prompt(prompts, texts[item], *pair)))
            header, replied, failures = scoring.replied(calls)
            values: dict[str, list[float]] = {}
            for call, record in replied:
                value = preference_of(record["prediction"], record.get("top_logprobs"), shows_model_first(call.item))
                unparsed += value is None
                if value is not None:
                    values.setdefault(call.item, []).append(value)
            preferences.update({item: sum(found) / len(found) for item, found in values.items()})
        judged = [item for item in both if item in preferences]
        rows = {"id": judged, "preference": [preferences[item] for item in judged],
                "length": [len(answers[item]) for item in judged],
                "baseline_length": [len(baseline[item]) for item in judged]}
        figures = alpaca_eval_figures(rows["preference"], rows["length"], rows["baseline_length"],
                                      [difficulty.get(item) for item in judged] if difficulty else None)
        figures["avg_length"] = int(sum(map(len, answers.values())) / len(answers)) if answers else None
        counts = {"items": len(questions["id"]), "both_answered": len(both), "judged": len(judged),
                  "recorded": sum((item, 1) in recorded for item in both), "unparsed": unparsed,
                  "failed_calls": failures, "not_judged": len(both) - len(judged)}
        return LeaderboardScores(rows, counts, rejects, header=header, body={"figures": figures})

    def section_form(self, board: dict[str, Any]) -> SectionForm:
        return FORM

    def section(self, inputs: SectionInputs) -> dict[str, Any] | None:
        """With the note that the length-controlled win rate needs AlpacaEval's instruction difficulty, when a
        model's figures lack it for that reason."""
        section = self.recorded_section(inputs, inputs.board)
        lacking = {d["figures"].get("length_controlled_note") for d in inputs.documents.values()} & {
            LC_NEEDS_DIFFICULTY}
        section["notes"] = sorted(set(section["notes"]) | lacking)
        return section

    def item_values(self, rows: dict[str, list]) -> tuple[str, list[str], list[float | None]]:
        """The preference − 1 per item (alpaca_eval:win_rate)."""
        return "alpaca_eval:win_rate", [str(item) for item in rows["id"]], [p - 1 for p in rows["preference"]]
