"""Regression detection: drop size and significance (exact McNemar, paired bootstrap) against known values."""
import math

import numpy as np
import pytest

from stages import (
    RegressionSettings,
    UsageError,
    compare_metric,
    compare_nights,
    mcnemar_drop_pvalue,
    paired_bootstrap_drop_pvalue,
)


def test_mcnemar_exact_p_values():
    # ten items lost, none gained: p = 0.5^10
    p, lost, gained = mcnemar_drop_pvalue([1.0] * 10, [0.0] * 10)
    assert (lost, gained) == (10, 0) and p == pytest.approx(0.5 ** 10)
    # five lost, one gained: P(X >= 5 | n = 6, 1/2) = (6 + 1) / 64
    before = [1, 1, 1, 1, 1, 0, 1, 0]
    after = [0, 0, 0, 0, 0, 1, 1, 0]
    assert mcnemar_drop_pvalue(before, after) == (pytest.approx(7 / 64), 5, 1)
    # items right (or wrong) on both nights carry no information
    assert mcnemar_drop_pvalue([1, 0, 1], [1, 0, 1]) == (1.0, 0, 0)


def test_paired_bootstrap_constant_drop_is_as_significant_as_resampling_can_show():
    p = paired_bootstrap_drop_pvalue([0.8] * 50, [0.7] * 50, resamples=999)
    assert p == pytest.approx(1 / 1000)


def test_paired_bootstrap_matches_the_normal_approximation():
    # differences with mean -0.05 and standard deviation 0.5 over 400 items: z = -2, one-sided p = 1 - Φ(2)
    rng = np.random.default_rng(7)
    d = rng.normal(size=400)
    d = (d - d.mean()) / d.std() * 0.5 - 0.05
    before = np.full(400, 0.5)
    p = paired_bootstrap_drop_pvalue(before, before + d, resamples=20000, seed=3)
    assert p == pytest.approx(0.5 * math.erfc(2 / math.sqrt(2)), abs=0.006)


def test_paired_bootstrap_no_change_is_not_significant():
    assert paired_bootstrap_drop_pvalue([0.3, 0.6, 0.9], [0.3, 0.6, 0.9], resamples=500) == 1.0
    symmetric = paired_bootstrap_drop_pvalue([0.5] * 200, [0.4, 0.6] * 100, resamples=4000)
    assert 0.4 < symmetric < 0.6


def _items(values):
    return {str(i): v for i, v in enumerate(values)}


def test_a_wobble_of_two_items_is_not_a_regression():
    # 20 items, two flip from right to wrong: 10 points lower, but McNemar p = 0.25
    before = _items([1.0] * 15 + [0.0] * 5)
    after = _items([0.0] * 2 + [1.0] * 13 + [0.0] * 5)
    result = compare_metric(before, after, "binary", RegressionSettings())
    assert result["delta"] == pytest.approx(-0.1) and result["p_value"] == pytest.approx(0.25)
    assert not result["regression"] and "not significant" in result["reason"]


def test_a_real_drop_is_a_regression():
    before = _items([1.0] * 160 + [0.0] * 40)
    after = _items([0.0] * 30 + [1.0] * 130 + [1.0] * 2 + [0.0] * 38)
    result = compare_metric(before, after, "binary", RegressionSettings())
    assert (result["items_lost"], result["items_gained"]) == (30, 2)
    assert result["delta"] == pytest.approx(-28 / 200) and result["p_value"] < 1e-6 and result["regression"]


def test_a_significant_drop_smaller_than_min_drop_is_not_a_regression():
    before = _items([1.0] * 1000)
    after = _items([0.0] * 15 + [1.0] * 985)
    result = compare_metric(before, after, "binary", RegressionSettings(min_drop=0.02))
    assert result["p_value"] < 0.001 and not result["regression"] and "within 0.02" in result["reason"]


def test_only_items_scored_on_both_nights_are_paired():
    before = {"a": 1.0, "b": 1.0, "c": None, "d": 0.0}
    after = {"a": 1.0, "b": 0.0, "c": 1.0, "e": 1.0}
    result = compare_metric(before, after, "binary", RegressionSettings())
    assert result["paired_items"] == 2 and result["before"] == 1.0 and result["after"] == 0.5
    assert (result["items_only_before"], result["items_only_after"]) == (1, 1)


def test_compare_nights_reports_new_rows_and_uses_each_datasets_settings():
    def columns(*datasets):
        rows = [(dataset, "m", "accuracy", "binary", str(i), v) for dataset, values in datasets
                for i, v in enumerate(values)]
        return dict(zip(("dataset", "model", "metric", "test", "id", "value"), map(list, zip(*rows))))

    before = columns(("strict", [1.0] * 20), ("loose", [1.0] * 20))
    after = columns(("strict", [0.0] * 3 + [1.0] * 17), ("loose", [0.0] * 3 + [1.0] * 17), ("new", [1.0]))
    settings = {"strict": RegressionSettings(alpha=0.2), "loose": RegressionSettings(min_drop=0.2)}
    result = {r["dataset"]: r for r in compare_nights(before, after, settings)}
    assert result["strict"]["regression"] and not result["loose"]["regression"]  # p = 1/8 in both
    assert result["new"]["reason"] == "not scored on the earlier night" and not result["new"]["regression"]


def test_settings_are_checked():
    with pytest.raises(UsageError, match="alpha"):
        RegressionSettings(alpha=1.5)
    with pytest.raises(UsageError, match="min_drop"):
        RegressionSettings(min_drop=-0.1)


def test_large_sets_resample_less_and_very_large_ones_use_the_normal_limit():
    from stages.core.paired_tests import bootstrap_resamples, normal_pvalue

    assert bootstrap_resamples(10000, 500) == 10000
    assert bootstrap_resamples(10000, 100_000) == 2000
    assert bootstrap_resamples(10000, 1_000_000) == 0
    # the normal limit on the z = -2 example gives 1 - Φ(2) up to float precision
    rng = np.random.default_rng(7)
    d = rng.normal(size=400)
    d = (d - d.mean()) / d.std() * 0.5 - 0.05
    assert normal_pvalue(np.zeros(400), d, "less") == pytest.approx(0.5 * math.erfc(2 / math.sqrt(2)), rel=1e-9)
    assert normal_pvalue(np.zeros(400), d, "two-sided") == pytest.approx(math.erfc(2 / math.sqrt(2)), rel=1e-9)
    before = {str(i): 0.9 for i in range(300_000)}
    after = {str(i): 0.9 - (0.1 if i % 10 == 0 else 0.0) for i in range(300_000)}
    result = compare_metric(before, after, "mean", RegressionSettings(min_drop=0.005))
    assert result["method"] == "normal limit of the paired bootstrap" and result["regression"]


def test_a_mean_metric_with_only_zeros_and_ones_is_tested_like_an_accuracy():
    # 40 items, three go from 1 to 0: the bootstrap would give (37/40)^40 ≈ 0.044, McNemar gives 1/8
    before = _items([1.0] * 40)
    after = _items([0.0] * 3 + [1.0] * 37)
    result = compare_metric(before, after, "mean", RegressionSettings())
    assert result["method"] == "exact McNemar (every value 0 or 1)" and result["p_value"] == pytest.approx(1 / 8)
    assert not result["regression"]
    assert paired_bootstrap_drop_pvalue(list(before.values()), list(after.values()), 20000) == pytest.approx(
        (37 / 40) ** 40, abs=0.005)
    graded = compare_metric(before, _items([0.5] * 3 + [1.0] * 37), "mean", RegressionSettings(min_drop=0.0))
    # three items changed: every sign pattern enumerated; only "all three fell" is as low as observed → p = 1/8
    assert graded["method"] == "exact sign-flip permutation, 3 item(s) changed"
    assert graded["p_value"] == pytest.approx(1 / 8)
