"""AlignBench as a leaderboard: each answer rated 1–10 on its category's dimensions by the [judge] with AlignBench's
template and the reference answer (the ratings its judge recorded taken first), and the figures its tool prints."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from ...core.records import Columns, as_columns
from ..asking import Scoring, TurnCall, asked_values
from ..board import Leaderboard, LeaderboardScores, judged_body, register_leaderboard
from ..board_files import LeaderboardFiles
from ..recorded import recorded_score
from ..sections import SectionForm
from .files import read_alignbench
from .rules import CONFIG_KEYS, LANGUAGE, REASONING, alignbench_figures, judge_prompt, read_ratings

FORM = SectionForm("AlignBench", (*REASONING, *LANGUAGE, "中文推理", "中文语言", "总分", "rated", "unparsed"), "score",
                   "总分")


@register_leaderboard
class AlignBench(Leaderboard):
    name, tool = "alignbench", "alignbench"
    required = ("prompts",)

    def read_files(self, root: Path, baseline: str | None) -> LeaderboardFiles:
        return read_alignbench(root, baseline)

    def recorded_value(self, record: dict[str, Any]) -> tuple[Any, str | None]:
        return recorded_score(record)

    def score(self, scoring: Scoring) -> LeaderboardScores:
        """Per answer its overall score and dimension ratings, and the figures per category."""
        questions = as_columns(scoring.questions())
        answers = scoring.answers(scoring.model)
        config = orjson.loads(scoring.input_path(scoring.board["prompts"]).read_bytes())
        missing = [key for key in CONFIG_KEYS if key not in config]
        if missing:
            raise ValueError(f"{scoring.board['prompts']}: lacks {', '.join(missing)}")
        n = len(questions["id"])
        calls, categories = [], {}
        for item, question, golds, category, subcategory in zip(
                map(str, questions["id"]), questions["question"], questions["golds"],
                questions.get("category") or [None] * n, questions.get("subcategory") or [None] * n):
            if item in answers:
                prompt = judge_prompt(category, subcategory, question, " / ".join(golds or []), answers[item], config)
                calls.append(TurnCall(scoring.model, item, 1, "alignbench", None, prompt))
                categories[item] = category
        dimensions: dict[str, str] = {}

        def keep_dimensions(call: TurnCall, reply: str) -> None:
            if call.item not in dimensions:  # the item's first reply
                dimensions[call.item] = orjson.dumps(read_ratings(reply)[0]).decode()

        recorded, rejects = scoring.recorded()
        header, scores, replied, failures = asked_values(scoring, calls, lambda reply: read_ratings(reply)[1],
                                                         recorded, keep_dimensions)
        rows = {"id": [c.item for c in calls], "category": [categories[c.item] for c in calls],
                "score": [scores.get((c.item, 1)) for c in calls],
                "ratings": [dimensions.get(c.item) for c in calls]}
        figures = alignbench_figures([(categories[c.item], scores.get((c.item, 1))) for c in calls
                                      if (c.item, 1) in replied])
        counts = {"items": n, "answered": len(answers), "rated": figures["rated"], "failed_calls": failures,
                  "not_judged": sum((c.item, 1) not in replied for c in calls)}
        return LeaderboardScores(rows, counts, rejects, header=header, body=judged_body(figures, counts, scoring))

    def section_form(self, board: dict[str, Any]) -> SectionForm:
        return FORM

    def item_values(self, rows: Columns) -> tuple[str, list[str], list[float | None]]:
        """The score per item (alignbench:score)."""
        return "alignbench:score", [str(item) for item in rows["id"]], list(rows["score"])
