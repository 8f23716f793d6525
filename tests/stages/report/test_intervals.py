"""Intervals and paired differences against independently known values."""
import math

import numpy as np
import pytest
from scipy import stats

from stages.core.intervals import NORMAL_BEYOND, bootstrap_mean_interval, bootstrap_mean_intervals, wilson_interval
from stages.report.intervals import metric_interval, metric_intervals, paired_difference, uncertainty


@pytest.mark.parametrize(("successes", "n", "low", "high"), [
    (8, 10, 0.4901624715, 0.9433178486),   # Wilson (1927); also Newcombe (1998) method 3
    (0, 10, 0.0, 0.2775327998),
    (10, 10, 0.7224672002, 1.0),
    (50, 100, 0.4038315635, 0.5961684365),
])
def test_wilson_interval_matches_published_values(successes, n, low, high):
    found = wilson_interval(successes, n)
    assert found == pytest.approx((low, high), abs=1e-6)
    assert wilson_interval(0, 0) is None


def test_bootstrap_interval_agrees_with_scipy_and_turns_normal_for_large_sets():
    values = np.random.default_rng(1).beta(2, 5, size=400)
    ours = bootstrap_mean_interval(values.tolist())
    reference = stats.bootstrap((values,), np.mean, n_resamples=20000, method="percentile",
                                random_state=np.random.default_rng(2)).confidence_interval
    assert ours == pytest.approx((reference.low, reference.high), abs=0.004)
    big = np.random.default_rng(3).random(NORMAL_BEYOND + 1)
    error = big.std() / math.sqrt(big.size)
    assert bootstrap_mean_interval(big.tolist()) == pytest.approx((big.mean() - 1.959964 * error,
                                                                   big.mean() + 1.959964 * error), abs=1e-6)


def test_metric_interval_names_its_method_and_n():
    binary = metric_interval([1.0, 0.0, 1.0, None, 1.0], "binary")
    assert binary["method"] == "Wilson score" and binary["n"] == 4
    assert (binary["low"], binary["high"]) == pytest.approx(wilson_interval(3, 4))
    graded = metric_interval([0.2, 0.5, 0.9, 0.4], "mean")
    assert graded["method"].startswith("percentile bootstrap") and 0.2 <= graded["low"] < graded["high"] <= 0.9
    assert metric_interval([None, None], "mean") is None


def test_paired_difference_uses_exact_mcnemar_for_accuracies():
    first = [1, 1, 1, 1, 1, 1, 0, 1, 0, 1]
    second = [0, 0, 0, 0, 0, 1, 1, 1, 0, 1]  # 5 items only the first got right, 1 only the second
    found = paired_difference(first, second, "binary")
    assert found["difference"] == pytest.approx(0.4) and found["n"] == 10
    assert found["p_value"] == pytest.approx(2 * (math.comb(6, 0) + math.comb(6, 1)) / 2 ** 6)
    assert found["method"] == "exact McNemar" and found["low"] < 0.4 < found["high"]


def test_paired_difference_of_graded_scores_and_pairs_of_models():
    rng = np.random.default_rng(4)
    base = rng.random(300)
    better, same = (base + 0.2).clip(0, 1).tolist(), (base + rng.normal(0, 0.01, 300)).clip(0, 1).tolist()
    assert paired_difference(better, base.tolist(), "mean")["p_value"] < 0.001
    assert paired_difference(same, base.tolist(), "mean")["p_value"] > 0.01
    found = uncertainty({"f1": "mean"}, "f1", {"a": {"f1": better}, "b": {"f1": base.tolist()},
                                                "c": {"f1": same}})
    assert [(d["first"], d["second"]) for d in found["differences"]] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert set(found["intervals"]) == {"a", "b", "c"}


def test_six_items_all_worse_is_two_in_sixty_four_two_sided_by_the_nightlys_tests():
    """B6's model against model uses the nightly's paired tests: never p = 0 from a handful of items."""
    worse, better = [0.0] * 6, [1.0] * 6
    found = paired_difference(worse, better, "binary")  # exact McNemar
    assert found["p_value"] == pytest.approx(2 / 64) and found["method"] == "exact McNemar"
    graded_worse, graded_better = [0.2, 0.1, 0.3, 0.25, 0.15, 0.05], [0.9, 0.8, 0.85, 0.95, 0.7, 0.75]
    found = paired_difference(graded_worse, graded_better, "mean")  # exact sign-flip: ±all six
    assert found["p_value"] == pytest.approx(2 / 64) and found["method"].startswith("exact sign-flip")
    many = np.random.default_rng(3).random(400)
    found = paired_difference((many - 0.3).tolist(), many.tolist(), "mean")  # every item changed: the bootstrap
    assert found["method"].startswith("paired bootstrap") and found["p_value"] == pytest.approx(2 / 2001)  # 2 tails


def _one_at_a_time(values, resamples=2000, seed=0, chunk=1 << 22):
    """The percentile bootstrap written out plainly: `resamples` draws of the items with replacement from
    default_rng(seed), made `chunk` draws at a time, and the 2.5th and 97.5th percentiles of their means."""
    data = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    step = max(1, chunk // data.size)
    means = []
    for start in range(0, resamples, step):
        for draw in rng.integers(0, data.size, size=(min(step, resamples - start), data.size)):
            means.append(data[draw].mean())
    return tuple(float(x) for x in np.quantile(means, [0.025, 0.975]))


def test_intervals_resampled_together_are_those_of_each_column_alone():
    """One index matrix for a model's columns of one length gives each column the interval it gets alone."""
    rng = np.random.default_rng(7)
    columns = [rng.random(500).tolist(), (rng.random(500) < 0.3).astype(float).tolist(),
               (rng.integers(0, 9, 500) / 8).tolist(), rng.random(37).tolist(), rng.random(500).tolist()]
    together = bootstrap_mean_intervals(columns)
    assert together == [_one_at_a_time(values) for values in columns]
    assert together == [bootstrap_mean_interval(values) for values in columns]
    assert bootstrap_mean_intervals([columns[0], columns[0]]) == [together[0], together[0]]


def test_metric_intervals_is_metric_interval_of_each():
    rng = np.random.default_rng(8)
    values = {"em": [1.0, 0.0, None, 1.0] * 50, "f1": rng.random(200).tolist(), "none": [None, None]}
    tests = {"em": "binary", "f1": "mean", "none": "mean"}
    assert metric_intervals(values, tests) == {metric: metric_interval(found, tests[metric])
                                               for metric, found in values.items()}
    assert metric_intervals(values, tests)["f1"]["low"] == _one_at_a_time(values["f1"])[0]
