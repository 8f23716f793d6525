"""MT-Bench as FastChat scores it: the prompt named for each turn (reference prompts for math, reasoning and coding),
ratings read as [[x]] then [x], pairwise games that must agree for a win, and the figures by hand."""
import pytest

from stages.leaderboards.mt_bench.rules import (
    mt_bench_figures,
    pair_figures,
    pair_outcome,
    pair_turn_calls,
    pair_winner,
    prompt_names_missing,
    rating_of,
    turn_calls,
)

PROMPTS = {name: {"system_prompt": f"system {name}", "prompt_template": template} for name, template in {
    "single-v1": "Q {question} A {answer}",
    "single-v1-multi-turn": "Q1 {question_1} A1 {answer_1} Q2 {question_2} A2 {answer_2}",
    "single-math-v1": "Q {question} R {ref_answer_1} A {answer}",
    "single-math-v1-multi-turn": "Q1 {question_1} R1 {ref_answer_1} A1 {answer_1} Q2 {question_2} "
                                 "R2 {ref_answer_2} A2 {answer_2}",
    "pair-v2": "Q {question} A {answer_a} B {answer_b}",
    "pair-v2-multi-turn": "{question_1} {answer_a_1} {answer_b_1} {question_2} {answer_a_2} {answer_b_2}",
}.items()}


def test_each_turn_is_rated_with_its_prompt_and_math_with_the_reference():
    writing = turn_calls("m", "81", "writing", ["q1", "q2", "q3"], ["a1", "a2", "a3"], None, PROMPTS)
    assert [(c.turn, c.prompt_name, c.prompt) for c in writing] == [
        (1, "single-v1", "Q q1 A a1"), (2, "single-v1-multi-turn", "Q1 q1 A1 a1 Q2 q2 A2 a2")]
    assert writing[0].system == "system single-v1"
    math = turn_calls("m", "111", "math", ["q1", "q2"], ["a1"], ["r1", "r2"], PROMPTS)
    assert [(c.prompt_name, c.prompt) for c in math] == [("single-math-v1", "Q q1 R r1 A a1")]
    assert prompt_names_missing(PROMPTS) == [] and prompt_names_missing(PROMPTS, pairwise=True) == [
        "pair-math-v1", "pair-math-v1-multi-turn"]


def test_pairwise_asks_both_orders_per_turn():
    calls = pair_turn_calls("m", "gpt-3.5", "1", "writing", ["q1"], ["mine"], ["theirs"], None, PROMPTS)
    assert [(c.prompt_name, c.prompt) for c in calls] == [("pair-v2#g1", "Q q1 A mine B theirs"),
                                                          ("pair-v2#g2", "Q q1 A theirs B mine")]


def test_ratings_and_verdicts_as_fastchat_reads_them():
    assert rating_of("Rating: [[8.5]]") == 8.5 and rating_of("I give it [7]") == 7.0
    assert rating_of("no rating here") is None
    assert [pair_winner(r) for r in ("[[A]] then [[B]]", "[[B]]", "[[C]]", "A")] == ["A", "B", "tie", None]
    assert pair_outcome("A", "B") == 1.0 and pair_outcome("B", "A") == 0.0  # both games agree
    assert pair_outcome("A", "A") == 0.5 and pair_outcome("tie", "B") == 0.5  # disagreeing games, a tie
    assert pair_outcome(None, "A") is None


def test_figures_by_hand():
    ratings = [("1", 1, 8.0), ("1", 2, 6.0), ("2", 1, 10.0), ("2", 2, None), ("3", 1, 3.0)]
    found = mt_bench_figures(ratings)
    assert found["turn_1"] == pytest.approx(7.0) and found["turn_2"] == 6.0
    assert found["overall"] == pytest.approx(27 / 4) and (found["rated"], found["unparsed"]) == (4, 1)
    low, high = found["overall_interval"]
    assert 3.0 <= low < found["overall"] < high <= 10.0
    assert found["turn_2_interval"] == [6.0, 6.0]  # one rating: no spread to draw
    pairs = pair_figures([1.0, 1.0, 0.5, 0.0, None])
    assert pairs == {"win": 2, "loss": 1, "tie": 1, "win_rate": 0.5, "loss_rate": 0.25, "win_rate_adjusted": 0.625,
                     "rated": 4, "unparsed": 1}
