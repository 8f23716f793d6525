"""Arena-Hard-Auto as its show_result scores it: a strong verdict counts three battles, each game read from its own
side (game 1 shows the baseline as A, game 2 the model); the Bradley–Terry rating against the baseline at 1000 in closed form for one model; win rates and style
features by hand; the bootstrap interval around the score."""
import math

import pytest

from stages.leaderboards.arena_hard.rules import (
    Battle,
    arena_hard_figures,
    battles_from_pairwise,
    elo_ratings,
    game_battles,
    style_features,
    win_rate,
)


def test_a_questions_two_games_give_its_battles():
    assert game_battles("m", "q", ("A>>B", "A>B")) == [Battle("m", "q", "baseline")] * 3 + [Battle("m", "q", "model")]
    assert game_battles("m", "q", ("B>A", "A=B")) == [Battle("m", "q", "model"), Battle("m", "q", "tie")]
    assert game_battles("m", "q", (None, "B>>A")) == [Battle("m", "q", "baseline")] * 3


def test_one_models_rating_is_the_log_odds_of_its_wins_on_the_elo_scale():
    battles = [Battle("m", str(i), "model") for i in range(30)] + [Battle("m", str(i), "baseline") for i in range(10)]
    ratings = elo_ratings(battles, "base")
    assert ratings["base"] == pytest.approx(1000.0)
    assert ratings["m"] == pytest.approx(1000 + 400 * math.log10(30 / 10), abs=0.5)  # win rate 3/4 → odds 3
    assert win_rate(ratings["m"]) == pytest.approx(75.0, abs=0.05)
    assert win_rate(1000.0) == 50.0


def test_style_features_by_hand():
    answer = "# Title\n\nSome **bold** and __strong__ text.\n\n1. one\n2. two\n- dash\n* star\n"
    assert style_features(answer) == (len(answer), 1, 4, 2)


def test_figures_hold_the_score_inside_its_bootstrap_interval():
    battles = [Battle("m", str(i), "model" if i % 3 else "baseline") for i in range(60)]
    answers = {"base": {str(i): "short" for i in range(60)}, "m": {str(i): "a longer answer" for i in range(60)}}
    figures = arena_hard_figures(battles, "base", answers)
    assert figures["base"]["score"] == pytest.approx(50.0)
    found = figures["m"]
    assert found["lower"] <= found["score"] <= found["upper"] and found["upper"] - found["lower"] > 5
    assert found["score"] == pytest.approx(100 * 40 / 60, abs=0.1) and found["battles"] == 60
    assert found["avg_length"] == len("a longer answer")


def test_pairwise_rows_and_recorded_games_become_battles():
    rows = {"first": ["m"], "second": ["base"], "id": ["q1"], "labels": [["B>A", "A>>B"]]}
    battles, missing = battles_from_pairwise(rows, "base", {("m", "q2"): ("A=B", None)})
    assert [(b.item, b.winner) for b in battles] == [("q1", "baseline")] * 3 + [("q1", "baseline"), ("q2", "tie")]
    assert missing == {"m": 1}
