"""A leaderboard from pairwise outcomes, as Arena-Hard-Auto and Chatbot Arena draw theirs: Bradley–Terry ratings on
the Elo scale fitted by maximum likelihood (a tie half a win each way), 95% intervals from a bootstrap over items,
and each model's rank."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

ELO_SCALE = 400 / math.log(10)  # rating points per unit of log-odds: 400 points are 10:1 odds
BASE_RATING = 1000.0
RATING_BOUND = 2000.0  # a model that never lost has no finite maximum: its rating stops this far from the anchor
RESAMPLES = 1000


def win_matrix(first: np.ndarray, second: np.ndarray, outcome: np.ndarray, size: int,
               weights: np.ndarray | None = None) -> np.ndarray:
    """W[i, j]: how often model i beat model j (a tie half a win each way), each outcome counted `weights` times."""
    weights = np.ones(len(first)) if weights is None else weights
    scores = np.where(outcome == 0, 1.0, np.where(outcome == 1, 0.5, 0.0))  # 0 first won, 1 tie, 2 second won
    wins = np.zeros((size, size))
    np.add.at(wins, (first, second), weights * scores)
    np.add.at(wins, (second, first), weights * (1.0 - scores))
    return wins


def bradley_terry(wins: np.ndarray, anchor: int | None = None) -> np.ndarray:
    """Ratings (Elo scale) maximizing the Bradley–Terry likelihood of `wins`: P(i beats j) = 1 / (1 + 10^((r_j −
    r_i) / 400)); the anchor model (else the mean) at BASE_RATING, each within RATING_BOUND of it."""
    from scipy.optimize import minimize

    size = len(wins)
    fixed = 0 if anchor is None else anchor
    free = [i for i in range(size) if i != fixed]

    def negative_log_likelihood(theta_free: np.ndarray) -> tuple[float, np.ndarray]:
        theta = np.zeros(size)
        theta[free] = theta_free
        difference = theta[:, None] - theta[None, :]
        log_p = -np.logaddexp(0.0, -difference)  # log σ(θi − θj)
        p = np.exp(log_p)
        gradient = (wins * (1.0 - p)).sum(axis=1) - (wins.T * (1.0 - p.T)).sum(axis=1)
        return -float((wins * log_p).sum()), -gradient[free]

    bound = RATING_BOUND / ELO_SCALE
    found = minimize(negative_log_likelihood, np.zeros(len(free)), jac=True, method="L-BFGS-B",
                     bounds=[(-bound, bound)] * len(free), options={"ftol": 1e-12, "gtol": 1e-9, "maxiter": 1000})
    theta = np.zeros(size)
    theta[free] = found.x
    if anchor is None:
        theta -= theta.mean()
    return BASE_RATING + ELO_SCALE * theta


def leaderboard(first: list[str], second: list[str], outcome: list[str | None], items: list[str],
                baseline: str | None = None, resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
    """Ratings, 95% bootstrap intervals (items resampled with replacement, `resamples` times) and ranks of every
    model from pairwise outcomes ("first", "tie", "second"; None — unparsed — is left out), anchored at the
    baseline when there is one."""
    codes = {"first": 0, "tie": 1, "second": 2}
    kept = [i for i, found in enumerate(outcome) if found is not None]
    models = sorted({*first, *second})
    index = {model: i for i, model in enumerate(models)}
    a = np.array([index[first[i]] for i in kept], dtype=np.int64)
    b = np.array([index[second[i]] for i in kept], dtype=np.int64)
    result = np.array([codes[outcome[i]] for i in kept], dtype=np.int64)
    item_ids = sorted({items[i] for i in kept})
    item_of = np.searchsorted(np.array(item_ids, dtype=object), np.array([items[i] for i in kept], dtype=object))
    anchor = index.get(baseline) if baseline else None
    ratings = bradley_terry(win_matrix(a, b, result, len(models)), anchor)
    generator = np.random.default_rng(seed)
    draws = np.empty((resamples, len(models)))
    for draw in range(resamples):
        counts = np.bincount(generator.integers(0, len(item_ids), len(item_ids)), minlength=len(item_ids))
        draws[draw] = bradley_terry(win_matrix(a, b, result, len(models), counts[item_of].astype(float)), anchor)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if resamples else (ratings, ratings)
    order = sorted(range(len(models)), key=lambda i: -ratings[i])
    tallies = {model: {"wins": 0.0, "ties": 0, "losses": 0.0} for model in models}
    for i, j, found in zip(a, b, result):
        winner, loser = (i, j) if found == 0 else (j, i)
        if found == 1:
            tallies[models[i]]["ties"] += 1
            tallies[models[j]]["ties"] += 1
        else:
            tallies[models[winner]]["wins"] += 1
            tallies[models[loser]]["losses"] += 1
    return {
        "method": "Bradley–Terry, maximum likelihood (scipy L-BFGS-B), Elo scale 400 / ln 10, a tie half a win each "
                  f"way; 95% interval: percentile bootstrap over items ({resamples} resamples, seed {seed})",
        "anchor": baseline or "mean", "base": BASE_RATING, "outcomes": len(kept), "items": len(item_ids),
        "resamples": resamples,
        "models": [{"model": models[i], "rank": rank, "rating": float(ratings[i]), "low": float(low[i]),
                    "high": float(high[i]), **{k: int(v) for k, v in tallies[models[i]].items()}}
                   for rank, i in enumerate(order, start=1)],
    }


def with_people(board: dict[str, Any], people: dict[tuple[str, str, str], str], baseline: str | None,
                resamples: int = RESAMPLES) -> dict[str, Any]:
    """The judge's leaderboard with people's beside it — fitted the same way to people's outcome per item (their
    majority) — and Kendall's τ-b between the two orders of the models both rank (scipy)."""
    from scipy.stats import kendalltau

    keys = sorted(people)
    theirs = leaderboard([k[0] for k in keys], [k[1] for k in keys], [people[k] for k in keys], [k[2] for k in keys],
                         baseline, resamples)
    ours = {row["model"]: row["rating"] for row in board["models"]}
    shared = [row["model"] for row in theirs["models"] if row["model"] in ours]
    tau = kendalltau([ours[m] for m in shared], [row["rating"] for row in theirs["models"] if row["model"] in ours])
    value = None if len(shared) < 2 or math.isnan(tau.statistic) else float(tau.statistic)
    return {**board, "people": theirs, "kendall_tau": {"tau": value, "models": len(shared),
                                                       "method": "Kendall's τ-b of the two sets of ratings (scipy)"}}
