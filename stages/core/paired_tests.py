"""Paired tests of two sets of per-item values on the same items — one implementation for B6's model against model,
`evalpipe nightly` and `evalpipe compare`: exact McNemar for 0/1 values, the exact sign-flip permutation test when at
most 20 items changed, else the paired bootstrap (its p never below 1/(B+1)) or, for very large sets, its normal
limit. `alternative`: "less" (the second set's mean is below the first's: a drop) or "two-sided"."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BOOTSTRAP_DRAWS = 200_000_000  # resamples × items drawn at most (about 4 s); larger sets resample less
MIN_RESAMPLES = 1000  # below this the bootstrap is replaced by its normal limit (sets above 200k items)
CHUNK_DRAWS = 1 << 23
EXACT_MAX_DIFFERENCES = 20  # at most this many items that changed: the exact sign-flip test (2^20 sign patterns)
ALTERNATIVES = ("less", "two-sided")


def mcnemar_pvalue(before: Sequence[float], after: Sequence[float], alternative: str) -> tuple[float, int, int]:
    """Exact McNemar test on 0/1 values: (p, items right before and wrong after, the reverse)."""
    from scipy.stats import binomtest

    lost = sum(1 for b, a in zip(before, after) if b >= 0.5 > a)
    gained = sum(1 for b, a in zip(before, after) if a >= 0.5 > b)
    if lost + gained == 0:
        return 1.0, 0, 0
    side = "greater" if alternative == "less" else "two-sided"
    return float(binomtest(lost, lost + gained, 0.5, alternative=side).pvalue), lost, gained


def _differences(before: Sequence[float], after: Sequence[float]) -> Any:
    import numpy as np

    return np.asarray(after, dtype=np.float64) - np.asarray(before, dtype=np.float64)


def sign_flip_pvalue(before: Sequence[float], after: Sequence[float], alternative: str) -> float:
    """Exact paired permutation (sign-flip) test over the 2^m sign patterns of the m non-zero item differences: the
    share whose sum is at most the observed one ("less") or as far from 0 ("two-sided"); never 0."""
    import numpy as np

    differences = _differences(before, after)
    differences = differences[differences != 0]
    m = differences.size
    if m == 0:
        return 1.0
    if m > EXACT_MAX_DIFFERENCES:
        raise ValueError(f"{m} differing items: the exact test enumerates at most {EXACT_MAX_DIFFERENCES}")
    half = m // 2
    sums = [_signed_sums(part) for part in (differences[:half], differences[half:])]
    totals = sums[0][:, None] + sums[1][None, :]
    observed = differences.sum()
    slack = 1e-9 * max(1.0, abs(observed))
    extreme = totals <= observed + slack if alternative == "less" else np.abs(totals) >= abs(observed) - slack
    return float(np.count_nonzero(extreme)) / 2 ** m


def _signed_sums(values: Any) -> Any:
    """The sum of every sign pattern of `values` (2^len of them; one pattern, sum 0, for no values)."""
    import numpy as np

    patterns = (np.arange(2 ** values.size)[:, None] >> np.arange(values.size)) & 1
    return (patterns * 2 - 1) @ values if values.size else np.zeros(1)


def bootstrap_pvalue(before: Sequence[float], after: Sequence[float], alternative: str, resamples: int = 10000,
                     seed: int = 0) -> float:
    """Paired bootstrap (items resampled with replacement, the same items in both sets): the share of resampled mean
    differences that are not below zero ("less"), or twice the smaller tail ("two-sided"); at least 1/(B+1)."""
    import numpy as np

    differences = _differences(before, after)
    n = differences.size
    if n == 0:
        return 1.0
    rng = np.random.default_rng(seed)
    chunk = max(1, CHUNK_DRAWS // n)
    not_below = not_above = 0
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        means = differences[rng.integers(0, n, size=(size, n))].mean(axis=1)
        not_below += int(np.count_nonzero(means >= -1e-12))
        not_above += int(np.count_nonzero(means <= 1e-12))
    less = (not_below + 1) / (resamples + 1)
    return less if alternative == "less" else min(1.0, 2 * min(less, (not_above + 1) / (resamples + 1)))


def normal_pvalue(before: Sequence[float], after: Sequence[float], alternative: str) -> float:
    """The large-sample limit of the paired bootstrap: the normal with the observed mean difference and its standard
    error."""
    import numpy as np
    from scipy.stats import norm

    differences = _differences(before, after)
    mean = float(differences.mean())
    error = float(differences.std() / np.sqrt(differences.size))
    if error == 0:
        return (1.0 if mean >= 0 else 0.0) if alternative == "less" else (1.0 if mean == 0 else 0.0)
    return float(norm.cdf(mean / error)) if alternative == "less" else float(2 * norm.sf(abs(mean) / error))


def bootstrap_resamples(requested: int, items: int) -> int:
    """Resamples affordable for `items` paired items: the requested number, fewer for large sets, 0 when even
    MIN_RESAMPLES would draw more than BOOTSTRAP_DRAWS (then the normal limit is used)."""
    affordable = BOOTSTRAP_DRAWS // max(items, 1)
    if affordable < MIN_RESAMPLES:
        return 0
    return min(requested, affordable)


def paired_test(before: Sequence[float], after: Sequence[float], test: str, alternative: str,
                resamples: int = 10000, seed: int = 0) -> dict[str, Any]:
    """p that `after` differs from `before` as `alternative` says, by the test that fits: exact McNemar for 0/1
    values ("binary", or a mean whose values are all 0 or 1), the exact sign-flip test when at most 20 items changed,
    the paired bootstrap, or its normal limit when the bootstrap would draw too much; with the method's name. A
    "binary" metric with other values (an item's mean over several replies) is tested as a mean."""
    if test not in ("binary", "mean"):
        raise ValueError(f"unknown paired test {test!r}")
    if all(v in (0.0, 1.0) for v in (*before, *after)):
        p_value, lost, gained = mcnemar_pvalue(before, after, alternative)
        return {"p_value": p_value, "method": "exact McNemar" + (" (every value 0 or 1)" if test == "mean" else ""),
                "items_lost": lost, "items_gained": gained}
    changed = sum(1 for b, a in zip(before, after) if a != b)
    if changed <= EXACT_MAX_DIFFERENCES:
        return {"p_value": sign_flip_pvalue(before, after, alternative),
                "method": f"exact sign-flip permutation, {changed} item(s) changed"}
    affordable = bootstrap_resamples(resamples, len(before))
    if affordable:
        return {"p_value": bootstrap_pvalue(before, after, alternative, affordable, seed),
                "method": f"paired bootstrap, {affordable} resamples"}
    return {"p_value": normal_pvalue(before, after, alternative), "method": "normal limit of the paired bootstrap"}
