"""Uncertainty beside every headline number: 95% intervals (Wilson for proportions, percentile bootstrap for means,
its normal limit for very large sets) and paired model-against-model differences on the same items."""
from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any

from ..core.paired_tests import paired_test

Z95 = 1.959963984540054
RESAMPLES = 2000
NORMAL_BEYOND = 20_000  # items: above this the bootstrap is replaced by its normal limit (equal to 3 digits there)
CHUNK = 1 << 22  # draws resampled at once


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion (None for n = 0)."""
    if n == 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_mean_interval(values: list[float], resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of a mean (normal limit beyond NORMAL_BEYOND items)."""
    return bootstrap_mean_intervals([values], resamples, seed)[0]


def bootstrap_mean_intervals(columns: list[Sequence[float]], resamples: int = RESAMPLES,
                             seed: int = 0) -> list[tuple[float, float]]:
    """bootstrap_mean_interval of each column, the columns of one length resampled by one index matrix (the draws
    each would make alone with `seed`, so the intervals are the same as one at a time); a column asked for again
    (the same values, as avg@n's and the model's interval of one metric are) is computed once."""
    import numpy as np

    data = [np.asarray(values, dtype=np.float64) for values in columns]
    keys = [(hashlib.blake2b(values.tobytes(), digest_size=16).digest(), values.size, resamples, seed)
            for values in data]
    found = {key: _KNOWN[key] for key in keys if key in _KNOWN}
    by_size: dict[int, dict[tuple, Any]] = {}
    for key, values in zip(keys, data):
        if key in found:
            continue
        if values.size > NORMAL_BEYOND:
            error = values.std() / math.sqrt(values.size)
            found[key] = float(values.mean() - Z95 * error), float(values.mean() + Z95 * error)
        else:
            by_size.setdefault(values.size, {})[key] = values
    for same_size in by_size.values():
        means = _resampled_means(np.stack(list(same_size.values())), resamples, seed)
        for key, row in zip(same_size, means):
            low, high = np.quantile(row, [0.025, 0.975])
            found[key] = float(low), float(high)
    for key, interval in found.items():
        _remember(key, interval)
    return [found[key] for key in keys]


_KNOWN: dict[tuple, tuple[float, float]] = {}  # intervals computed lately, by their column's digest, size and draws
_KNOWN_MOST = 256


def _remember(key: tuple, interval: tuple[float, float]) -> None:
    _KNOWN.pop(key, None)
    if len(_KNOWN) >= _KNOWN_MOST:
        del _KNOWN[next(iter(_KNOWN))]
    _KNOWN[key] = interval


def _resampled_means(data: Any, resamples: int, seed: int) -> Any:
    """Each row's mean over `resamples` draws of its columns with replacement, every row drawn by the same indices
    (one (resamples × columns) matrix, made CHUNK draws at a time): a (rows × resamples) array."""
    import numpy as np

    rng = np.random.default_rng(seed)
    size = data.shape[1]
    step = max(1, CHUNK // max(size, 1))
    means = np.empty((data.shape[0], resamples))
    for start in range(0, resamples, step):
        drawn = rng.integers(0, size, size=(min(step, resamples - start), size))
        for row, values in enumerate(data):
            means[row, start:start + len(drawn)] = values[drawn].mean(axis=1)
    return means


def metric_interval(values: list[float | None], test: str) -> dict[str, Any] | None:
    """A metric's interval from its per-item values: Wilson when they are 0/1 ("binary"), bootstrap otherwise."""
    return metric_intervals({"metric": values}, {"metric": test})["metric"]


def metric_intervals(values: dict[str, list[float | None]], tests: dict[str, str]) -> dict[str, dict[str, Any] | None]:
    """metric_interval of each metric (`values` by metric, its test in `tests`), the bootstrapped ones resampled
    together (bootstrap_mean_intervals)."""
    defined = {metric: [v for v in found if v is not None] for metric, found in values.items()}
    found: dict[str, dict[str, Any] | None] = {}
    for metric, kept in defined.items():
        if not kept:
            found[metric] = None
        elif tests[metric] == "binary" or set(kept) <= {0.0, 1.0}:
            low, high = wilson_interval(sum(kept), len(kept))
            found[metric] = {"low": low, "high": high, "n": len(kept), "method": "Wilson score"}
    graded = [metric for metric in defined if metric not in found]
    for metric, (low, high) in zip(graded, bootstrap_mean_intervals([defined[metric] for metric in graded])):
        size = len(defined[metric])
        method = "normal" if size > NORMAL_BEYOND else f"percentile bootstrap ({RESAMPLES} resamples)"
        found[metric] = {"low": low, "high": high, "n": size, "method": method}
    return {metric: found[metric] for metric in values}


def paired_difference(first: list[float | None], second: list[float | None], test: str) -> dict[str, Any] | None:
    """first − second on the items both scored: the mean difference, its bootstrap 95% interval and a two-sided
    p-value by the paired test that fits (stages/core/paired_tests.py, as the nightly uses)."""
    import numpy as np

    pairs = [(a, b) for a, b in zip(first, second) if a is not None and b is not None]
    if not pairs:
        return None
    a, b = np.asarray(pairs, dtype=np.float64).T
    differences = a - b
    low, high = bootstrap_mean_interval(differences.tolist())
    tested = paired_test(b.tolist(), a.tolist(), test, "two-sided", RESAMPLES, 0)
    return {"difference": float(differences.mean()), "low": low, "high": high, "n": len(pairs),
            "p_value": float(tested["p_value"]), "method": tested["method"]}


def uncertainty(paired_metrics: dict[str, str], primary: str,
                item_values: dict[str, dict[str, list[float | None]]]) -> dict[str, Any]:
    """Every model's interval for each paired metric, and for every pair of models the difference in the primary
    metric on the items both scored (`item_values`: model → metric → per-item values, aligned across models)."""
    intervals = {model: metric_intervals({metric: values[metric] for metric in paired_metrics if metric in values},
                                         paired_metrics)
                 for model, values in item_values.items()}
    models = sorted(item_values)
    test = paired_metrics.get(primary, "mean")
    differences = []
    for i, first in enumerate(models):
        for second in models[i + 1:]:
            if primary in item_values[first] and primary in item_values[second]:
                found = paired_difference(item_values[first][primary], item_values[second][primary], test)
                if found is not None:
                    differences.append({"first": first, "second": second, "metric": primary, **found})
    return {"intervals": intervals, "differences": differences}
