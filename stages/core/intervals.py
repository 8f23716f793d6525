"""95% intervals of a proportion or a mean: Wilson's score interval, the percentile bootstrap and its normal limit for
very large sets — the one implementation the report's intervals over items and the kinds' own figures share."""
from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any

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
