"""pass^k as tau2's metrics compute it, against values worked out by hand (and by tau2 1.0.1's pass_hat_k: the
same C(successes, k) / C(trials, k), checked in its venv — see make_tau2_reference.py)."""
import json

import pytest

from stages.core.intervals import bootstrap_mean_interval, wilson_interval
from stages.kinds import get_kind
from stages.kinds.tau2.pass_k import interval_over_tasks, pass_hat_k, pass_hat_k_intervals, pass_hat_ks, trial_figures
from stages.nightly.history import item_score_columns


def test_pass_hat_k_is_the_share_of_k_subsets_all_successful():
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(4, 3, 1) == 0.75
    assert pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)  # C(3,2)=3 of C(4,2)=6
    assert pass_hat_k(4, 3, 3) == pytest.approx(1 / 4)
    assert pass_hat_k(4, 2, 3) == 0.0
    with pytest.raises(ValueError, match="Number of trials 2 is less than k 3."):
        pass_hat_k(2, 2, 3)


def test_pass_hat_ks_average_over_tasks_up_to_the_fewest_trials():
    rewards = {"a": [1.0, 1.0, 0.0, 1.0], "b": [0.0, 0.0, 1.0, 0.0], "c": [1.0, 1.0, 1.0]}
    # k stops at 3 (task c has three trials); a: 3/4, 3/6, 1/4; b: 1/4, 0, 0; c: 1, 1, 1
    assert pass_hat_ks(rewards) == pytest.approx({1: (0.75 + 0.25 + 1) / 3, 2: (0.5 + 0 + 1) / 3,
                                                  3: (0.25 + 0 + 1) / 3})
    assert pass_hat_ks({"a": [0.9999995]}) == {1: 1.0}  # a success is a reward within 1e-6 of 1


def test_infrastructure_errors_are_left_out_and_tasks_not_judged_named():
    trials = [{"task": "a", "reward": 1.0, "status": "scored", "termination_reason": "agent_stop"},
              {"task": "a", "reward": 0.0, "status": "scored", "termination_reason": "infrastructure_error"},
              {"task": "b", "reward": None, "status": "not judged", "termination_reason": "user_stop"},
              {"task": "b", "reward": 0.0, "status": "scored", "termination_reason": "agent_stop"},
              {"task": "c", "reward": 0.0, "status": "scored", "termination_reason": "max_steps"}]
    figures = trial_figures(trials)
    assert figures["pass_hat_k"] == {"1": 0.5}
    assert (figures["infrastructure_errors"], figures["not_judged"], figures["tasks_left_out"]) == (1, 1, ["b"])
    assert (figures["tasks"], figures["trials"], figures["avg_reward"]) == (2, 2, 0.5)


def test_pass_hat_k_intervals_over_tasks_wilson_when_each_task_is_0_or_1():
    # pass^4 per task: a 0 (3 of 4), b 0 (1 of 4), c 1 (4 of 4): 1 of 3 tasks; Wilson (z = 1.96) worked by hand:
    # centre (1/3 + 3.8415/6) / (1 + 3.8415/3) = 0.42693, half 1.96·√(2/27 + 3.8415/36) / 2.28049 = 0.36543
    rewards = {"a": [1.0, 1.0, 0.0, 1.0], "b": [0.0, 0.0, 1.0, 0.0], "c": [1.0, 1.0, 1.0, 1.0]}
    interval = pass_hat_k_intervals(rewards)["4"]
    assert (interval["low"], interval["high"]) == pytest.approx((0.0615, 0.7924), abs=2e-4)
    assert (interval["n"], interval["method"]) == (3, "Wilson score")
    assert (interval["low"], interval["high"]) == pytest.approx(wilson_interval(1, 3))  # the report's, over items


def test_pass_hat_k_intervals_over_tasks_bootstrap_of_each_tasks_value():
    rewards = {"a": [1.0, 1.0, 0.0, 1.0], "b": [0.0, 0.0, 1.0, 0.0], "c": [1.0, 1.0, 1.0, 1.0]}
    interval = pass_hat_k_intervals(rewards)["2"]  # per task 3/6, 0/6, 6/6: resampled over the three tasks
    assert (interval["low"], interval["high"]) == bootstrap_mean_interval([0.5, 0.0, 1.0])
    assert interval["method"] == "percentile bootstrap (2000 resamples)" and interval["n"] == 3
    many = [i / 7 % 1 for i in range(40)]  # forty tasks' values: the same draws as the report's over forty items
    assert interval_over_tasks(many)["low"] == bootstrap_mean_interval(many)[0]
    assert interval_over_tasks(many)["high"] == bootstrap_mean_interval(many)[1]
    same = pass_hat_k_intervals({"a": [1.0, 0.0], "b": [0.0, 1.0]})["1"]  # every task 1/2: no spread
    assert (same["low"], same["high"]) == (0.5, 0.5)


def _matched(rows):
    evaluations = [json.dumps([{"reward": r, "status": "scored", "termination_reason": "agent_stop",
                                "file_reward": None, "trial": n} for n, r in enumerate(rewards)])
                   for _, _, rewards in rows]
    return {"id": [task for task, _, _ in rows], "evaluations": evaluations,
            "domain": [domain for _, domain, _ in rows], "split": ["base"] * len(rows), "leaderboard": [""] * len(rows)}


def test_b5_gives_each_task_its_pass_hat_1_to_4_and_the_model_pass_hat_k_per_domain_and_split():
    kind = get_kind("tau2")
    matched = _matched([("r1", "retail", [1.0, 1.0, 0.0, 1.0]), ("r2", "retail", [1.0, 1.0, 1.0, 1.0]),
                        ("m1", "mock", [0.0, 1.0, 0.0])])
    scored, metrics = kind.score(matched, {})
    assert scored["pass_hat_1"] == [0.75, 1.0, pytest.approx(1 / 3)]
    assert scored["pass_hat_2"] == [0.5, 1.0, 0.0]
    assert scored["pass_hat_3"] == [0.25, 1.0, 0.0]
    assert scored["pass_hat_4"] == [0.0, 1.0, None]  # m1 has three trials
    by = metrics["by_domain_split"]
    assert sorted(by) == ["mock/base", "retail/base"]
    assert by["retail/base"]["pass_hat_k"] == {"1": 0.875, "2": 0.75, "3": 0.625, "4": 0.5}
    assert by["mock/base"]["pass_hat_k"] == pytest.approx({"1": 1 / 3, "2": 0.0, "3": 0.0})
    assert by["retail/base"]["intervals"]["4"]["method"] == "Wilson score"  # r1 0, r2 1
    assert metrics["pass_hat_k"] == pytest.approx({"1": (0.75 + 1 + 1 / 3) / 3, "2": 0.5, "3": 1.25 / 3})
    nightly = item_score_columns("d", "tau2", "m", scored)  # what the nightly pairs two nights on, task by task
    pairs = {(metric, task): value for metric, task, value in zip(nightly["metric"], nightly["id"], nightly["value"])}
    assert (pairs[("pass_hat_2", "r1")], pairs[("pass_hat_4", "r2")], pairs[("pass_hat_4", "m1")]) == (0.5, 1.0, None)
    assert set(nightly["test"]) == {"mean"} and len(pairs) == 12
