"""MT-Bench scored for one model: each turn rated in FastChat's prompt for it (recorded ratings taken first, the rest
asked of the judge), the figures from the ratings by hand, and the item metric compared night to night."""
import json

import pytest

from stages.leaderboards.board import get_leaderboard
from tests.stages.leaderboards.mt_bench.test_mt_bench_rules import PROMPTS
from tests.stages.leaderboards.scoring_double import ScoringDouble

MATH = {**PROMPTS, "single-math-v1": PROMPTS["single-math-v1"]}


def _folder(tmp_path):
    (tmp_path / "judge_prompts.jsonl").write_text("".join(
        json.dumps({"name": name, **prompt}) + "\n" for name, prompt in MATH.items()) + "not json\n")
    return tmp_path


def test_a_model_is_rated_turn_by_turn_and_its_figures_are_fastchats(tmp_path):
    rows = {"id": ["81", "111"], "question": ["Write a poem.", "2+2?"], "turns": [["Write a poem.", "Shorter."],
                                                                                   ["2+2?", "3+3?"]],
            "category": ["writing", "math"], "references": [None, ["4", "6"]]}
    ratings = {"81": {1: "[[9]]", 2: "Rating: [6]"}, "111": {1: "[[10]]", 2: "no number"}}
    scoring = ScoringDouble("m", {"name": "mt_bench", "prompts": "judge_prompts.jsonl"}, rows,
                            {"m": {"81": ["poem", "short poem"], "111": ["4"]}}, _folder(tmp_path),
                            recorded_verdicts={("81", 1): 8.0},
                            judge=lambda call: ratings[call.item][call.turn])
    board = get_leaderboard("mt_bench")
    scored = board.score(scoring)
    assert [(c.item, c.turn, c.prompt_name) for c in scoring.asked] == [("81", 2, "single-v1-multi-turn"),
                                                                        ("111", 1, "single-math-v1")]
    assert scoring.asked[1].prompt == "Q 2+2? R 4 A 4"
    assert scored.rows["rating"] == [8.0, 6.0, 10.0]  # the recorded 8 kept over asking again
    figures = scored.body["figures"]
    assert figures["turn_1"] == pytest.approx(9.0) and figures["turn_2"] == 6.0
    assert figures["overall"] == pytest.approx(8.0) and figures["rated"] == 3
    assert scored.counts["not_judged"] == 0 and [r.line for r in scored.rejects] == [len(MATH) + 1]
    assert board.item_values(scored.rows) == ("mt_bench:overall", ["81#turn1", "81#turn2", "111#turn1"],
                                              [8.0, 6.0, 10.0])
    assert board.section_name({"baseline": "gpt-3.5-turbo"}) == "mt_bench_pairwise"
