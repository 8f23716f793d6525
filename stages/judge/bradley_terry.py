"""A leaderboard from pairwise outcomes, as Arena-Hard-Auto and Chatbot Arena draw theirs: Bradley–Terry ratings on
the Elo scale fitted by maximum likelihood (a tie half a win each way), 95% intervals from a bootstrap over items,
and each model's rank."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

ELO_SCALE = 400 / math.log(10)  # rating points per unit of log-odds: 400 points are 10:1 odds
BASE_RATING = 1000.0
RATING_BOUND = 2000.0  # a model that never lost has no finite maximum: its rating stops this far from the anchor
RESAMPLES = 1000


def bradley_terry(first: np.ndarray, second: np.ndarray, score: np.ndarray, size: int,
                  weight: np.ndarray | None = None, features: np.ndarray | None = None, anchor: int | None = None,
                  bound: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The one Bradley–Terry fit: maximum likelihood (scipy L-BFGS-B) of P(first beats second) = σ(θ_first −
    θ_second + β·features), `score` 1 a win of first, ½ a tie, 0 a loss, each row counted `weight` times. Returns the
    models' ratings on the Elo scale (anchor — else the mean — at BASE_RATING, each free one within `bound` rating
    points of the anchor) and β. Rows without features are summed per pair of models first."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit

    first, second = np.asarray(first, np.int64), np.asarray(second, np.int64)
    weight = np.ones(len(first)) if weight is None else np.asarray(weight, float)
    score = np.asarray(score, float)
    if features is None:
        pair, codes = np.unique(np.asarray(first) * size + np.asarray(second), return_inverse=True)
        first, second = pair // size, pair % size
        wins = np.bincount(codes, weight * score, len(pair))
        losses = np.bincount(codes, weight * (1.0 - score), len(pair))
        features = np.zeros((len(pair), 0))
    else:
        wins, losses = weight * score, weight * (1.0 - score)
        features = np.asarray(features, float)
    fixed = 0 if anchor is None else anchor
    free = np.array([i for i in range(size) if i != fixed], dtype=np.int64)
    width = features.shape[1]

    def negative_log_likelihood(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta = np.zeros(size)
        theta[free] = x[:len(free)]
        z = theta[first] - theta[second] + features @ x[len(free):]
        slope = (wins + losses) * expit(z) - wins  # d(−log L)/dz per row
        gradient = np.bincount(first, slope, size) - np.bincount(second, slope, size)
        value = -float(wins @ log_expit(z) + losses @ log_expit(-z))
        return value, np.concatenate([gradient[free], features.T @ slope])

    limit = None if bound is None else bound / ELO_SCALE
    found = minimize(negative_log_likelihood, np.zeros(len(free) + width), jac=True, method="L-BFGS-B",
                     bounds=[(-limit, limit) if limit else (None, None)] * len(free) + [(None, None)] * width,
                     options={"ftol": 1e-12, "gtol": 1e-10, "maxiter": 10_000})
    theta = np.zeros(size)
    theta[free] = found.x[:len(free)]
    if anchor is None:
        theta -= theta.mean()
    return BASE_RATING + ELO_SCALE * theta, found.x[len(free):]


def bradley_terry_ratings(first: list[str], second: list[str], outcome: list[str | None], items: list[str],
                          baseline: str | None = None, resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
    """Ratings, 95% bootstrap intervals (items resampled with replacement, `resamples` times) and ranks of every
    model from pairwise outcomes ("first", "tie", "second"; None — unparsed — is left out), anchored at the
    baseline when there is one."""
    import numpy as np

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
    score = np.where(result == 0, 1.0, np.where(result == 1, 0.5, 0.0))  # 0 first won, 1 tie, 2 second won
    ratings = bradley_terry(a, b, score, len(models), anchor=anchor, bound=RATING_BOUND)[0]
    generator = np.random.default_rng(seed)
    draws = np.empty((resamples, len(models)))
    for draw in range(resamples):
        counts = np.bincount(generator.integers(0, len(item_ids), len(item_ids)), minlength=len(item_ids))
        draws[draw] = bradley_terry(a, b, score, len(models), counts[item_of].astype(float), anchor=anchor,
                                    bound=RATING_BOUND)[0]
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
    """The judge's Bradley–Terry ratings with people's beside them — fitted the same way to people's outcome per item
    (their majority) — and Kendall's τ-b between the two orders of the models both rank (scipy)."""
    from scipy.stats import kendalltau

    keys = sorted(people)
    theirs = bradley_terry_ratings([k[0] for k in keys], [k[1] for k in keys], [people[k] for k in keys],
                                   [k[2] for k in keys], baseline, resamples)
    ours = {row["model"]: row["rating"] for row in board["models"]}
    shared = [row["model"] for row in theirs["models"] if row["model"] in ours]
    tau = kendalltau([ours[m] for m in shared], [row["rating"] for row in theirs["models"] if row["model"] in ours])
    value = None if len(shared) < 2 or math.isnan(tau.statistic) else float(tau.statistic)
    return {**board, "people": theirs, "kendall_tau": {"tau": value, "models": len(shared),
                                                       "method": "Kendall's τ-b of the two sets of ratings (scipy)"}}
