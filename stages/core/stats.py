"""Additive statistics: counts and sums that shards add up exactly, from which a kind derives its metrics."""
from __future__ import annotations

from typing import Any

Stats = dict[str, Any]


def add_stats(total: Stats, part: Stats) -> Stats:
    """total + part, key by key: numbers are added, nested tables added recursively, missing keys count as 0."""
    merged = dict(total)
    for key, value in part.items():
        if isinstance(value, dict):
            merged[key] = add_stats(merged.get(key) or {}, value)
        else:
            merged[key] = merged.get(key, 0) + value
    return merged


def share(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None for an empty denominator."""
    return numerator / denominator if denominator else None


def running_total(column: Any) -> float:
    """The sum of a column of numbers added one after another from the first, as Python 3.11's sum() of its values
    (and the official scorers' `total +=`) gives it, on whole arrays (a cumulative sum's last value)."""
    import numpy as np

    values = column.to_numpy() if hasattr(column, "to_numpy") else np.asarray(column)
    if getattr(column, "null_count", 0):
        raise TypeError("a column with nulls has no total")
    return float(np.cumsum(values, dtype=np.float64)[-1]) if len(values) else 0
