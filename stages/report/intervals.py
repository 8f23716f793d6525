"""Uncertainty beside every headline number: 95% intervals (Wilson for proportions, percentile bootstrap for means,
its normal limit for very large sets) and paired model-against-model differences on the same items."""
from __future__ import annotations

import math
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
    import numpy as np

    data = np.asarray(values, dtype=np.float64)
    if data.size > NORMAL_BEYOND:
        error = data.std() / math.sqrt(data.size)
        return float(data.mean() - Z95 * error), float(data.mean() + Z95 * error)
    low, high = np.quantile(_resampled_means(data, resamples, seed), [0.025, 0.975])
    return float(low), float(high)


def _resampled_means(data: Any, resamples: int, seed: int) -> Any:
    import numpy as np

    rng = np.random.default_rng(seed)
    step = max(1, CHUNK // max(data.size, 1))
    return np.concatenate([data[rng.integers(0, data.size, size=(min(step, resamples - start), data.size))].mean(axis=1)
                           for start in range(0, resamples, step)])


def metric_interval(values: list[float | None], test: str) -> dict[str, Any] | None:
    """A metric's interval from its per-item values: Wilson when they are 0/1 ("binary"), bootstrap otherwise."""
    defined = [v for v in values if v is not None]
    if not defined:
        return None
    if test == "binary" or all(v in (0.0, 1.0) for v in defined):
        low, high = wilson_interval(sum(defined), len(defined))
        return {"low": low, "high": high, "n": len(defined), "method": "Wilson score"}
    low, high = bootstrap_mean_interval(defined)
    method = "normal" if len(defined) > NORMAL_BEYOND else f"percentile bootstrap ({RESAMPLES} resamples)"
    return {"low": low, "high": high, "n": len(defined), "method": method}


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
    intervals = {model: {metric: metric_interval(values[metric], test) for metric, test in paired_metrics.items()
                         if metric in values}
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
