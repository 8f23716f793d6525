"""Uncertainty beside every headline number: 95% intervals (Wilson for proportions, percentile bootstrap for means,
its normal limit for very large sets) and paired model-against-model differences on the same items."""
from __future__ import annotations

from typing import Any

from ..core.intervals import (
    NORMAL_BEYOND,
    RESAMPLES,
    bootstrap_mean_interval,
    bootstrap_mean_intervals,
    wilson_interval,
)
from ..core.paired_tests import paired_test


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
