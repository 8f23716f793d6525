"""What a dataset's judging took: per judge stage (each model's criteria, the pairwise comparisons) and in total,
calls asked, verdicts reused from the store, failed calls, calls the budget left, tokens in / out and money."""
from __future__ import annotations

from typing import Any

from ..chat.costs import money

USAGE = ("asked", "reused", "failed", "not_judged", "tokens_in", "tokens_out")


def judge_cost(usages: dict[str, dict[str, int]], price: dict[str, float] | None) -> dict[str, Any]:
    """Each stage's usage (model, or "(pairwise)") and their total, each with its money at `price`."""
    total = {name: sum(usage.get(name, 0) for usage in usages.values()) for name in USAGE}
    return {"stages": {stage: {**usage, "cost": money(usage["tokens_in"], usage["tokens_out"], price)}
                       for stage, usage in usages.items()},
            "total": {**total, "cost": money(total["tokens_in"], total["tokens_out"], price)}, "price": price}


def total_cost(reports: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The judge's cost summed over datasets (money only where every priced dataset has one), or None when none
    was judged."""
    costs = [report["judge_cost"]["total"] for report in reports if report.get("judge_cost")]
    if not costs:
        return None
    total = {name: sum(cost[name] for cost in costs) for name in USAGE}
    priced = [cost["cost"] for cost in costs if cost["cost"] is not None]
    return {**total, "cost": sum(priced) if priced else None}
