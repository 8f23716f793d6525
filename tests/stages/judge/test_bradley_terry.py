"""Bradley–Terry ratings against an independent computation: Hunter's MM algorithm (Zermelo's iteration) on the same
wins, ties counted half a win each way; ranks, bootstrap intervals and the baseline anchor."""
import math

import numpy as np
import pytest

from stages.judge.bradley_terry import BASE_RATING, bradley_terry, bradley_terry_ratings


def _mm_ratings(wins: np.ndarray, iterations: int = 20000) -> np.ndarray:
    """Hunter (2004): p_i ← W_i / Σ_j n_ij / (p_i + p_j), then Elo-scale ratings with mean BASE_RATING."""
    strength = np.ones(len(wins))
    games = wins + wins.T
    for _ in range(iterations):
        denominator = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        strength = wins.sum(axis=1) / denominator
        strength /= np.exp(np.log(strength).mean())
    ratings = 400 * np.log10(strength)
    return ratings - ratings.mean() + BASE_RATING


def _outcomes(seed: int = 3, items: int = 300):
    rng = np.random.default_rng(seed)
    truth = {"a": 1200.0, "b": 1100.0, "c": 1000.0, "d": 950.0}
    models = sorted(truth)
    first, second, outcome, ids = [], [], [], []
    for item in range(items):
        for i, x in enumerate(models):
            for y in models[i + 1:]:
                p = 1 / (1 + 10 ** ((truth[y] - truth[x]) / 400))
                draw = rng.random()
                found = "tie" if abs(draw - p) < 0.05 else "first" if draw < p else "second"
                first.append(x), second.append(y), outcome.append(found), ids.append(f"q{item}")
    return first, second, outcome, ids


def test_the_fit_equals_hunters_mm_algorithm_on_the_same_wins():
    first, second, outcome, _ = _outcomes()
    models = sorted({*first, *second})
    index = {m: i for i, m in enumerate(models)}
    a, b = np.array([index[m] for m in first]), np.array([index[m] for m in second])
    score = np.array([{"first": 1.0, "tie": 0.5, "second": 0.0}[o] for o in outcome])
    wins = np.zeros((len(models), len(models)))
    for i, j, s in zip(a, b, score):
        wins[i, j] += s
        wins[j, i] += 1 - s
    assert wins.sum() == len(outcome)  # every outcome one game, a tie split in halves
    ratings, _ = bradley_terry(a, b, score, len(models))
    assert ratings == pytest.approx(_mm_ratings(wins), abs=1e-4)


def test_the_fit_with_features_equals_a_logistic_regression_by_hand():
    """With features (Arena-Hard's style control), the fit is the unpenalized logistic regression without intercept
    on +1 / −1 model columns and the features: checked by Newton's method written here."""
    rng = np.random.default_rng(5)
    size, rows = 3, 400
    a, b = rng.integers(0, size, rows), rng.integers(0, size, rows)
    keep = a != b
    a, b = a[keep], b[keep]
    features = rng.normal(size=(len(a), 2))
    truth = np.array([0.8, 0.0, -0.5])
    score = (rng.random(len(a)) < 1 / (1 + np.exp(-(truth[a] - truth[b] + features @ [0.7, -0.3])))).astype(float)
    ratings, beta = bradley_terry(a, b, score, size, features=features, anchor=1)
    x = np.zeros((len(a), size))
    x[np.arange(len(a)), a] += 1
    x[np.arange(len(a)), b] -= 1
    x = np.hstack([np.delete(x, 1, axis=1), features])
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        w += np.linalg.solve(x.T @ (x * (p * (1 - p))[:, None]), x.T @ (score - p))
    expected = np.insert(w[:size - 1], 1, 0.0) * 400 / math.log(10) + BASE_RATING
    assert ratings == pytest.approx(expected, abs=1e-3) and beta == pytest.approx(w[size - 1:], abs=1e-5)


def test_leaderboard_ranks_intervals_and_the_baseline_anchor():
    first, second, outcome, ids = _outcomes()
    board = bradley_terry_ratings(first, second, outcome, ids, baseline="c", resamples=200)
    by_model = {row["model"]: row for row in board["models"]}
    assert [row["model"] for row in board["models"]] == ["a", "b", "c", "d"]
    assert [row["rank"] for row in board["models"]] == [1, 2, 3, 4]
    assert by_model["c"]["rating"] == pytest.approx(1000.0) and by_model["c"]["low"] == pytest.approx(1000.0)
    for row in board["models"]:
        assert row["low"] <= row["rating"] <= row["high"]
    assert by_model["a"]["rating"] - by_model["c"]["rating"] == pytest.approx(200, abs=60)  # truth: 200 points
    assert by_model["a"]["wins"] + by_model["a"]["ties"] + by_model["a"]["losses"] == 3 * 300
    assert board == bradley_terry_ratings(first, second, outcome, ids, baseline="c", resamples=200)  # seeded
    assert board["items"] == 300 and board["outcomes"] == len(outcome)


def test_ties_are_half_a_win_each_way_and_unparsed_outcomes_are_left_out():
    board = bradley_terry_ratings(["x", "x", "x"], ["y", "y", "y"], ["first", "tie", None], ["1", "2", "3"], resamples=0)
    x, y = sorted(board["models"], key=lambda row: row["model"])
    # x won 1.5 of 2 games: odds 3:1, so the gap is 400·log10(3) points
    assert x["rating"] - y["rating"] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert board["outcomes"] == 2 and (x["wins"], x["ties"], x["losses"]) == (1, 1, 0)
