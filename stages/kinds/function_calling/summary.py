"""Per-category accuracy with its interval, and BFCL's summary as bfcl-eval's data_overall.csv computes it; a
summary figure whose categories are not all scored is n/a with the reason (bfcl-eval would count them as 0)."""
from __future__ import annotations

from typing import Any

from ...core.intervals import wilson_interval

SIMPLE = ("simple_python", "simple_java", "simple_javascript")
NON_LIVE_AST = ("multiple", "parallel", "parallel_multiple")
LIVE_AST = ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")
MULTI_TURN = ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context")
IRRELEVANCE = ("irrelevance", "live_irrelevance")
AGENTIC = ("web_search_base", "web_search_no_snippet", "memory_kv", "memory_vector", "memory_rec_sum")
OVERALL_WEIGHTS = (("non_live_ast", 10), ("live", 10), ("irrelevance", 10), ("multi_turn", 30), ("agentic", 40))
CATEGORY_ORDER = (*SIMPLE, *NON_LIVE_AST, "irrelevance", *LIVE_AST, "live_irrelevance", "live_relevance",
                  *MULTI_TURN)


def wilson(correct: int, total: int) -> list[float] | None:
    """The 95% Wilson score interval of correct / total."""
    found = wilson_interval(correct, total)
    return None if found is None else list(found)


def by_category(tallies: dict[str, dict[str, int]]) -> dict[str, dict[str, Any]]:
    """Each category's count, correct, accuracy and interval, in BFCL's order (others after, by name)."""
    order = {name: index for index, name in enumerate(CATEGORY_ORDER)}
    return {name: {"count": t["count"], "correct": t["correct"], "accuracy": t["correct"] / t["count"],
                   "interval": wilson(t["correct"], t["count"])}
            for name, t in sorted(tallies.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))}


def _figure(value: float | None, missing: list[str], why: str = "") -> dict[str, Any]:
    if missing:
        return {"value": None, "reason": why or f"not scored: {', '.join(missing)}"}
    return {"value": value, "reason": ""}


def _mean(categories: dict[str, dict[str, Any]], names: tuple[str, ...]) -> dict[str, Any]:
    missing = [name for name in names if name not in categories]
    return _figure(None if missing else sum(categories[n]["accuracy"] for n in names) / len(names), missing)


def bfcl_summary(categories: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """data_overall.csv's figures: Non-Live AST (simple = mean of Python / Java / JavaScript, then the mean of the
    four), Live (the live AST categories weighted by items), Multi Turn (mean of four), Relevance, Irrelevance (mean
    of two) and Overall (10 / 10 / 10 / 30 / 40 over non-live, live, irrelevance, multi-turn and agentic)."""
    simple = _mean(categories, SIMPLE)
    rest = [name for name in NON_LIVE_AST if name not in categories]
    missing = [name for name in SIMPLE if name not in categories] + rest
    non_live = _figure(None if missing else (simple["value"] + sum(categories[n]["accuracy"] for n in NON_LIVE_AST))
                       / 4, missing)
    live_missing = [name for name in LIVE_AST if name not in categories]
    live = _figure(None if live_missing else sum(categories[n]["correct"] for n in LIVE_AST)
                   / sum(categories[n]["count"] for n in LIVE_AST), live_missing)
    summary = {"non_live_ast": non_live, "simple_ast": simple, "live": live, "multi_turn": _mean(categories, MULTI_TURN),
               "relevance": _mean(categories, ("live_relevance",)), "irrelevance": _mean(categories, IRRELEVANCE),
               "agentic": _figure(None, list(AGENTIC), "web search and memory need live services; not run offline")}
    short = [name for name, _ in OVERALL_WEIGHTS if summary[name]["value"] is None]
    overall = sum(summary[name]["value"] * weight for name, weight in OVERALL_WEIGHTS) / 100 if not short else None
    summary["overall"] = _figure(overall, short, "" if not short else
                                 "needs every part it weighs; missing: " + ", ".join(short) +
                                 (" (agentic: web search and memory need live services)" if "agentic" in short
                                  else ""))
    return summary
