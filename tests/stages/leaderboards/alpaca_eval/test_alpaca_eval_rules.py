"""AlpacaEval 2's figures: preferences read as AlpacaEval reads them, win rate and its standard error by hand, and the
length-controlled GLM against scikit-learn's logistic regression fitted the way AlpacaEval fits it."""
import math

import numpy as np
import pytest

from stages.leaderboards.alpaca_eval.rules import (
    LC_NEEDS_DIFFICULTY,
    alpaca_eval_figures,
    length_controlled_winrate,
    preference_value,
    win_rate_figures,
)


@pytest.mark.parametrize("given, read", [(1, 1.0), (2.0, 2.0), ("1.25", 1.25), (0, 1.5), (1.5, 1.5), (2.5, None),
                                         (0.5, None), (None, None), (True, None), ("x", None), (float("nan"), None)])
def test_preferences_as_alpaca_eval_reads_them(given, read):
    assert preference_value(given) == read


def test_win_rate_standard_error_wins_and_draws_by_hand():
    found = win_rate_figures([1.0, 2.0, 2.0, 1.5, 1.25])
    shifted = [0, 1, 1, 0.5, 0.25]
    mean = sum(shifted) / 5
    sem = math.sqrt(sum((x - mean) ** 2 for x in shifted) / 4 / 5)
    assert found["win_rate"] == pytest.approx(55.0)
    assert found["standard_error"] == pytest.approx(sem * 100)
    assert (found["n_wins"], found["n_wins_base"], found["n_draws"], found["n_total"]) == (2, 2, 1, 5)
    assert found["discrete_win_rate"] == pytest.approx((0 + 1 + 1 + 0.5 + 0) / 5 * 100)  # 1.25 rounds to a loss


def _synthetic(seed: int, n: int = 400):
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0, 1, n)
    lengths = rng.integers(50, 2000, n)
    baseline = rng.integers(50, 2000, n)
    delta = (baseline - lengths) / np.std(baseline - lengths, ddof=1)
    p = 1 / (1 + np.exp(-(-0.8 - 1.2 * np.tanh(delta) + 0.7 * difficulty)))
    preferences = 1 + np.clip(p + rng.normal(0, 0.1, n), 0, 1)
    return preferences, lengths, baseline, difficulty


@pytest.mark.parametrize("seed", [0, 1])
def test_length_controlled_winrate_equals_scikit_learns_fit(seed):
    from sklearn.linear_model import LogisticRegression

    preferences, lengths, baseline, difficulty = _synthetic(seed)
    delta = (baseline - lengths) / np.std(baseline - lengths, ddof=1)
    features = np.column_stack([np.tanh(delta), difficulty, np.ones_like(difficulty)])
    y = preferences - 1
    # AlpacaEval's trick for probabilities as targets: every row once as a win weighted y, once as a loss weighted 1−y
    model = LogisticRegression(C=1e12, fit_intercept=False, tol=1e-12, max_iter=10_000)
    model.fit(np.vstack([features, features]), np.r_[np.ones_like(y), np.zeros_like(y)], sample_weight=np.r_[y, 1 - y])
    test = features.copy()
    test[:, 0] = 0
    expected = model.predict_proba(test)[:, 1].mean() * 100
    found = length_controlled_winrate(list(preferences), list(lengths), list(baseline), list(difficulty))
    assert found == pytest.approx(expected, abs=1e-4)


def test_without_instruction_difficulty_the_lc_figure_is_not_made_up():
    preferences, lengths, baseline, _ = _synthetic(2, 50)
    found = alpaca_eval_figures(list(preferences), list(lengths), list(baseline))
    assert found["length_controlled_winrate"] is None and found["length_controlled_note"] == LC_NEEDS_DIFFICULTY
    some = alpaca_eval_figures(list(preferences), list(lengths), list(baseline), [0.1] * 49 + [None])
    assert some["length_controlled_winrate"] is None


def test_values_that_are_no_preference_are_set_aside_not_scored():
    found = alpaca_eval_figures([2, 1, "broken", 3.0], [10, 10, 10, 10], [20, 20, 20, 20])
    assert found["n_total"] == 2 and found["not_preferences"] == 2 and found["win_rate"] == pytest.approx(50.0)


@pytest.mark.parametrize("reply, logprobs, model_first, expected", [
    ("M", None, False, 2.0), ("m", None, False, 1.0), ("M", None, True, 1.0), (" m.", None, True, 2.0),
    ("maybe", None, False, None),
    ("M", {"M": math.log(0.75), "m": math.log(0.25), "x": -3.0}, False, 1.75),
    ("M", {"M": math.log(0.75), "m": math.log(0.25)}, True, 1.25),
    ("m", {" M": math.log(0.3), " m": math.log(0.3)}, False, 1.5),  # tokens with a leading space
    ("M", {"Sure": -0.1}, False, 2.0),  # no m / M among the logprobs: the letter replied
])
def test_a_reply_becomes_alpaca_evals_weighted_preference(reply, logprobs, model_first, expected):
    from stages.leaderboards.alpaca_eval.rules import preference_of

    found = preference_of(reply, logprobs, model_first)
    assert found == (None if expected is None else pytest.approx(expected))


def test_the_order_of_the_outputs_is_drawn_per_item_and_balanced():
    from stages.leaderboards.alpaca_eval.rules import shows_model_first

    drawn = [shows_model_first(str(i)) for i in range(805)]
    assert drawn == [shows_model_first(str(i)) for i in range(805)] and 350 < sum(drawn) < 455
