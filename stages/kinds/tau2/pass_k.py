"""pass^k as tau2's metrics compute it: per task C(successes, k) / C(trials, k), averaged over tasks, for k from 1 to
the fewest trials any task has; a success is a reward within 1e-6 of 1. Trials ended by an infrastructure error are
left out first (and counted); tasks with a trial not judged are left out (and named)."""
from __future__ import annotations

import math
from typing import Any

INFRASTRUCTURE_ERROR = "infrastructure_error"


def is_success(reward: float) -> bool:
    return 1 - 1e-6 <= reward <= 1 + 1e-6


def pass_hat_k(trials: int, successes: int, k: int) -> float:
    """C(successes, k) / C(trials, k) (ValueError when there are fewer trials than k, as tau2 says)."""
    if trials < k:
        raise ValueError(f"Number of trials {trials} is less than k {k}.")
    return math.comb(successes, k) / math.comb(trials, k)


def pass_hat_ks(rewards: dict[str, list[float]]) -> dict[int, float]:
    """{k: pass^k averaged over tasks} for k = 1 … the fewest trials of a task ({} without tasks)."""
    if not rewards:
        return {}
    fewest = min(len(trials) for trials in rewards.values())
    successes = {task: sum(map(is_success, trials)) for task, trials in rewards.items()}
    return {k: sum(pass_hat_k(len(rewards[task]), successes[task], k) for task in rewards) / len(rewards)
            for k in range(1, fewest + 1)}


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
            "avg_reward": sum(decided) / len(decided) if decided else None,
            "tasks": len(rewards), "trials": len(decided),
            "infrastructure_errors": len(trials) - len(kept),
            "not_judged": sum(trial["status"] == "not judged" for trial in kept),
            "unscorable": sum(trial["status"] == "unscorable" for trial in kept),
            "tasks_left_out": undecided}
