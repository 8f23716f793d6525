"""A night's tests corrected together, and exact tests for small samples, against independently known values."""
import itertools
import random

import numpy as np
import pytest
from scipy.stats import false_discovery_control

from stages import RegressionSettings, compare_metric, compare_nights
from stages.nightly.multiplicity import adjust_pvalues
from stages.nightly.regression import paired_bootstrap_drop_pvalue, sign_flip_drop_pvalue


def test_benjamini_hochberg_equals_scipy():
    rng = np.random.default_rng(1)
    for size in (1, 2, 7, 160):
        p = rng.uniform(size=size) ** 3
        assert adjust_pvalues(p, "bh") == pytest.approx(false_discovery_control(p, method="bh").tolist(), abs=1e-15)


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.04 (m = 4): 0.04, 0.06, 0.06 (monotone), 0.06
    assert adjust_pvalues([0.03, 0.01, 0.04, 0.02], "holm") == pytest.approx([0.06, 0.04, 0.06, 0.06])
    assert adjust_pvalues([0.5, 0.9], "holm") == [1.0, 1.0]  # capped at 1
    assert adjust_pvalues([0.03, 0.01], "none") == [0.03, 0.01]
    with pytest.raises(ValueError, match="unknown correction"):
        adjust_pvalues([0.1], "bonferroni-ish")


def _brute_force_sign_flip(before, after):
    d = [a - b for a, b in zip(after, before) if a != b]
    if not d:
        return 1.0
    sums = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((-1, 1), repeat=len(d))]
    return sum(total <= sum(d) + 1e-9 for total in sums) / len(sums)


def test_sign_flip_equals_brute_force_enumeration():
    rng = random.Random(5)
    for _ in range(50):
        n = rng.randint(0, 12)
        before = [rng.choice([0.0, 0.25, 0.5, 1.0]) for _ in range(n)]
        after = [rng.choice([b, rng.random()]) for b in before]
        assert sign_flip_drop_pvalue(before, after) == pytest.approx(_brute_force_sign_flip(before, after))


def test_a_six_item_dataset_gets_an_exact_p_never_zero():
    before, after = [0.9, 0.8, 1.0, 0.7, 0.9, 1.0], [0.2, 0.1, 0.3, 0.1, 0.2, 0.4]
    result = compare_metric(dict(enumerate(before)), dict(enumerate(after)), "mean", RegressionSettings())
    assert result["method"] == "exact sign-flip permutation, 6 item(s) changed"
    assert result["p_value"] == pytest.approx(1 / 64)  # every item fell: only the observed pattern is as low
    assert paired_bootstrap_drop_pvalue(before, after, resamples=999) == pytest.approx(1 / 1000)  # floor 1/(B+1)


def _columns(rows):
    return dict(zip(("dataset", "model", "metric", "test", "id", "value"), map(list, zip(*rows))))


def test_the_whole_night_is_corrected_together():
    # 20 datasets of 40 items: d0 loses 12 (McNemar p = 2^-12), d1 loses 3 (p = 1/8), the rest are unchanged (p = 1)
    before, after = [], []
    for d in range(20):
        lost = {0: 12, 1: 3}.get(d, 0)
        for i in range(40):
            before.append((f"d{d}", "m", "accuracy", "binary", str(i), 1.0))
            after.append((f"d{d}", "m", "accuracy", "binary", str(i), 0.0 if i < lost else 1.0))
    settings = {f"d{d}": RegressionSettings(alpha=0.2) for d in range(20)}
    raw = {c["dataset"]: c for c in compare_nights(_columns(before), _columns(after), settings, correction="none")}
    assert raw["d0"]["regression"] and raw["d1"]["regression"]  # each below 0.2 on its own
    bh = {c["dataset"]: c for c in compare_nights(_columns(before), _columns(after), settings)}
    assert bh["d0"]["p_value"] == pytest.approx(2 ** -12)
    assert bh["d0"]["p_adjusted"] == pytest.approx(20 * 2 ** -12) and bh["d0"]["regression"]
    assert bh["d1"]["p_adjusted"] == 1.0 and not bh["d1"]["regression"]  # 1/8 · 20 / 2 capped at 1
    assert "bh-adjusted 1" in bh["d1"]["reason"]
    holm = {c["dataset"]: c for c in compare_nights(_columns(before), _columns(after), settings, correction="holm")}
    assert holm["d0"]["p_adjusted"] == pytest.approx(20 * 2 ** -12) and holm["d0"]["regression"]
    assert holm["d1"]["p_adjusted"] == 1.0 and "holm-adjusted" in holm["d1"]["reason"]


def test_not_comparable_pairs_are_listed_never_tested():
    before = _columns([("d", "m", "accuracy", "binary", str(i), 1.0) for i in range(30)])
    after = _columns([("d", "m", "accuracy", "binary", str(i), 0.0) for i in range(30)])
    (result,) = compare_nights(before, after, {}, not_comparable={("d", "m"): "B4 label_map changed"})
    assert result["comparable"] is False and not result["regression"] and result["p_value"] is None
    assert result["reason"] == "not comparable: B4 label_map changed"
