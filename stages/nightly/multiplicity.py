"""One night's tests corrected together: Benjamini–Hochberg (false discovery rate) or Holm (family-wise error)
adjusted p-values, so a suite of hundreds of tests does not alarm every night by chance."""
from __future__ import annotations

from collections.abc import Sequence

CORRECTIONS = ("bh", "holm", "none")


def adjust_pvalues(pvalues: Sequence[float], method: str = "bh") -> list[float]:
    """Adjusted p-values in the input order: 'bh' (Benjamini–Hochberg step-up), 'holm' (Holm step-down) or 'none'.
    A test is significant at level alpha when its adjusted p is below alpha."""
    import numpy as np

    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r} (use one of {', '.join(CORRECTIONS)})")
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    if m == 0 or method == "none":
        return p.tolist()
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if method == "bh":
        scaled = ranked * m / np.arange(1, m + 1)
        adjusted = np.minimum.accumulate(scaled[::-1])[::-1]
    else:
        scaled = ranked * (m - np.arange(m))
        adjusted = np.maximum.accumulate(scaled)
    result = np.empty(m)
    result[order] = np.minimum(adjusted, 1.0)
    return result.tolist()
