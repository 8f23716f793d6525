"""pass^k as tau2's metrics compute it: per task C(successes, k) / C(trials, k), averaged over tasks, for k from 1 to
the fewest trials any task has; a success is a reward within 1e-6 of 1. Trials ended by an infrastructure error are
left out first (and counted); tasks with a trial not judged are left out (and named). Each pass^k has a 95% interval
over tasks, as the report's intervals over items (Wilson when every task's value is 0 or 1, else percentile bootstrap)."""
from __future__ import annotations

import math
from typing import Any

from ...core.intervals import RESAMPLES, bootstrap_mean_interval, wilson_interval

INFRASTRUCTURE_ERROR = "infrastructure_error"


def is_success(reward: float) -> bool:
    return 1 - 1e-6 <= reward <= 1 + 1e-6


def pass_hat_k(trials: int, successes: int, k: int) -> float:
    """C(successes, k) / C(trials, k) (ValueError when there are fewer trials than k, as tau2 says)."""
    if trials < k:
        raise ValueError(f"Number of trials {trials} is less than k {k}.")
    return math.comb(successes, k) / math.comb(trials, k)


def task_pass_hat_ks(rewards: list[float], most: int) -> dict[int, float]:
    """One task's pass^k for k = 1 … min(its trials, most)."""
    successes = sum(map(is_success, rewards))
    return {k: pass_hat_k(len(rewards), successes, k) for k in range(1, min(len(rewards), most) + 1)}


def per_task_pass_hat_ks(rewards: dict[str, list[float]]) -> dict[int, list[float]]:
    """{k: each task's pass^k} for k = 1 … the fewest trials of a task ({} without tasks)."""
    if not rewards:
        return {}
    fewest = min(len(trials) for trials in rewards.values())
    by_task = [task_pass_hat_ks(trials, fewest) for trials in rewards.values()]
    return {k: [values[k] for values in by_task] for k in range(1, fewest + 1)}


def pass_hat_ks(rewards: dict[str, list[float]]) -> dict[int, float]:
    """{k: pass^k averaged over tasks} for k = 1 … the fewest trials of a task ({} without tasks)."""
    return {k: sum(values) / len(values) for k, values in per_task_pass_hat_ks(rewards).items()}


def pass_hat_k_intervals(rewards: dict[str, list[float]]) -> dict[str, dict[str, Any] | None]:
    """{k: the 95% interval of pass^k over tasks} (each task's pass^k one item, compared as a mean)."""
    return {str(k): interval_over_tasks(values) for k, values in per_task_pass_hat_ks(rewards).items()}


def interval_over_tasks(values: list[float]) -> dict[str, Any]:
    """The 95% interval of the mean of per-task values, as the report's over items: Wilson's score interval when
    every value is 0 or 1, else the percentile bootstrap (stages/core/intervals.py)."""
    n = len(values)
    if set(values) <= {0.0, 1.0}:
        low, high = wilson_interval(sum(values), n)
        return {"low": low, "high": high, "n": n, "method": "Wilson score"}
    low, high = bootstrap_mean_interval(values)
    return {"low": low, "high": high, "n": n, "method": f"percentile bootstrap ({RESAMPLES} resamples)"}


def trial_figures(trials: list[dict[str, Any]]) -> dict[str, Any]:
    """pass^k, average reward and counts from trials ({task, reward (None: not judged or unscorable),
    termination_reason, status})."""
    kept = [trial for trial in trials if trial["termination_reason"] != INFRASTRUCTURE_ERROR]
    undecided = sorted({trial["task"] for trial in kept if trial["reward"] is None})
    rewards: dict[str, list[float]] = {}
    for trial in kept:
        if trial["task"] not in undecided:
            rewards.setdefault(trial["task"], []).append(trial["reward"])
    decided = [reward for trials_of in rewards.values() for reward in trials_of]
    return {"pass_hat_k": {str(k): value for k, value in pass_hat_ks(rewards).items()},
            "intervals": pass_hat_k_intervals(rewards),
            "avg_reward": sum(decided) / len(decided) if decided else None,
            "tasks": len(rewards), "trials": len(decided),
            "infrastructure_errors": len(trials) - len(kept),
            "not_judged": sum(trial["status"] == "not judged" for trial in kept),
            "unscorable": sum(trial["status"] == "unscorable" for trial in kept),
            "tasks_left_out": undecided}
