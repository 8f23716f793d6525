"""MT-Bench as a leaderboard: each turn rated 1–10 by the [judge] with FastChat's prompts (the ratings FastChat's judge
recorded taken first), or, with a baseline, FastChat's pairwise-baseline mode: each turn judged against the baseline's
answer in both orders."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.records import Columns, Reject, as_columns
from ...io.readers import iter_records
from ..asking import Scoring, asked_values
from ..board import Leaderboard, LeaderboardScores, SectionInputs, judged_body, register_leaderboard
from ..board_files import LeaderboardFiles
from ..recorded import recorded_score
from ..sections import SectionForm
from .files import read_mt_bench
from .rules import (
    mt_bench_figures,
    pair_figures,
    pair_outcome,
    pair_turn_calls,
    pair_winner,
    prompt_names_missing,
    rating_of,
    turn_calls,
)

FORM = SectionForm("MT-Bench", ("turn_1", "turn_2", "overall", "rated", "unparsed"), "score", "overall",
                   interval=("overall_interval",), interval_n="rated",
                   interval_method="percentile bootstrap over rated turns")
PAIRWISE_FORM = SectionForm("MT-Bench (pairwise against the baseline)",
                            ("win", "loss", "tie", "win_rate", "loss_rate", "win_rate_adjusted", "rated", "unparsed"),
                            "rate", "win_rate_adjusted")
Question = tuple[str, list[str], "str | None", "list[str] | None"]  # id, turns, category, reference answers


@register_leaderboard
class MtBench(Leaderboard):
    name, tool = "mt_bench", "mt-bench"
    required = ("prompts",)
    turned = True

    def read_files(self, root: Path, baseline: str | None) -> LeaderboardFiles:
        return read_mt_bench(root, baseline)

    def recorded_value(self, record: dict[str, Any]) -> tuple[Any, str | None]:
        return recorded_score(record)

    def score(self, scoring: Scoring) -> LeaderboardScores:
        """Each turn's rating (recorded, else the mean of the judge's) and FastChat's turn_1, turn_2 and overall."""
        if scoring.board.get("baseline"):
            return self._pairwise(scoring)
        turns_of = scoring.turns(scoring.model)
        questions, prompts, rejects = _fastchat_questions(scoring, pairwise=False)
        calls = []
        for item, turns, category, references in questions:
            if item in turns_of:
                calls += turn_calls(scoring.model, item, category, turns, turns_of[item], references, prompts)
        recorded, recorded_rejects = scoring.recorded()
        header, per_turn, replied, failures = asked_values(scoring, calls, rating_of, recorded)
        rows = {"id": [c.item for c in calls], "turn": [c.turn for c in calls],
                "prompt": [c.prompt_name for c in calls],
                "rating": [per_turn.get((c.item, c.turn)) for c in calls]}
        figures = mt_bench_figures([(c.item, c.turn, per_turn.get((c.item, c.turn))) for c in calls
                                    if (c.item, c.turn) in replied])
        counts = {"items": len(questions), "answered": len(turns_of), "turns": len(calls),
                  "rated": figures["rated"], "failed_calls": failures,
                  "not_judged": sum((c.item, c.turn) not in replied for c in calls)}
        return LeaderboardScores(rows, counts, rejects + recorded_rejects, header=header,
                                 body=judged_body(figures, counts, scoring))

    def _pairwise(self, scoring: Scoring) -> LeaderboardScores:
        """FastChat's pairwise-baseline mode: each turn judged against the baseline's answer in both orders."""
        baseline = scoring.board["baseline"]
        mine, theirs = scoring.turns(scoring.model), scoring.turns(baseline)
        questions, prompts, rejects = _fastchat_questions(scoring, pairwise=True)
        calls = []
        for item, turns, category, references in questions:
            if item in mine and item in theirs:
                calls += pair_turn_calls(scoring.model, baseline, item, category, turns, mine[item], theirs[item],
                                         references, prompts)
        games: dict[tuple[str, int], dict[int, str | None]] = {}
        header, failures, asked = {}, 0, set()
        if scoring.asks():
            header, replied, failures = scoring.replied(calls)
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
        return LeaderboardScores(rows, counts, rejects, header=header, body=judged_body(figures, counts, scoring))

    def section_form(self, board: dict[str, Any]) -> SectionForm:
        return PAIRWISE_FORM if board.get("baseline") else FORM

    def section_name(self, board: dict[str, Any]) -> str:
        return "mt_bench_pairwise" if board.get("baseline") else self.name

    def section(self, inputs: SectionInputs) -> dict[str, Any] | None:
        """Captioned with the [judge]'s models, when it has one (FastChat's judge otherwise)."""
        board = {**inputs.board, "judge": ", ".join(inputs.judges)} if inputs.judges else inputs.board
        return self.recorded_section(inputs, board)

    def item_values(self, rows: Columns) -> tuple[str, list[str], list[float | None]]:
        """The rating per item and turn (mt_bench:overall, ids <id>#turn<n>); in pairwise mode the outcome against
        the baseline (mt_bench_pairwise:win_rate_adjusted)."""
        ids = [f"{item}#turn{turn}" for item, turn in zip(rows["id"], rows["turn"])]
        if "outcome" in rows:
            return "mt_bench_pairwise:win_rate_adjusted", ids, list(rows["outcome"])
        return "mt_bench:overall", ids, list(rows["rating"])


def _fastchat_questions(scoring: Scoring, pairwise: bool) -> tuple[list[Question], dict[str, dict[str, str]],
                                                                   list[Reject]]:
    """MT-Bench's questions as (id, turns, category, references), FastChat's prompts (the single-answer or the
    pairwise ones, each checked there) and the prompt lines set aside."""
    rows = as_columns(scoring.questions())
    prompts, rejects = _prompts(scoring.input_path(scoring.board["prompts"]))
    missing = prompt_names_missing(prompts, pairwise=pairwise)
    if missing:
        raise ValueError(f"{scoring.board['prompts']}: lacks FastChat's prompts {', '.join(missing)}")
    n = len(rows["id"])
    questions = [(item, turns or [question], category, references) for item, question, turns, category, references
                 in zip(map(str, rows["id"]), rows["question"], rows.get("turns") or [None] * n,
                        rows.get("category") or [None] * n, rows.get("references") or [None] * n)]
    return questions, prompts, rejects


def _prompts(path: Any) -> tuple[dict[str, dict[str, str]], list[Reject]]:
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
