"""B6's sections from the judge: each model's criteria, the pairwise outcomes (with the Bradley–Terry ratings,
people's preferences and the judges' biases), replies that could not be read, and what the judging took."""
from __future__ import annotations

from typing import Any

from ..core.intervals import wilson_interval
from ..core.records import Columns, Reject
from ..raters.preferences import order_agreement_items, pair_outcomes, people_decisions
from .biases import length_preference
from .bradley_terry import bradley_terry_ratings, with_people
from .costs import judge_cost
from .parse_health import parse_problems


def criteria_section(judge: dict[str, Any], judged: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each model's summary of every criterion (its B5J's), when any model was judged."""
    return {"judge": {"judges": list(judge["models"]), "models": judged}} if judged else {}


def pairwise_section(judge: dict[str, Any], document: dict[str, Any], outcomes: Columns,
                     preferences: dict[str, Any] | None, people: dict[tuple[str, str, str], str] | None,
                     set_aside: list[Reject]) -> dict[str, Any]:
    """The B5P's pairs, the Bradley–Terry ratings of its outcomes (beside people's when raters gave preferences),
    the judge against people's preferences, and the judges' (and people's) biases."""
    baseline = judge.get("baseline")
    section: dict[str, Any] = {"pairwise": {"judges": list(judge["models"]), "baseline": baseline,
                                            "pairs": document["summary"]}}
    if any(found is not None for found in outcomes["outcome"]):
        section["bradley_terry"] = bradley_terry_ratings(outcomes["first"], outcomes["second"], outcomes["outcome"],
                                                         outcomes["id"], baseline)
    if preferences is not None or set_aside:
        section["preferences"] = {**(preferences or {}), "set_aside": [r.to_dict() for r in set_aside]}
        if people:
            section["preferences"]["items"] = order_agreement_items(pair_outcomes(outcomes)[1], people)
    if people and section.get("bradley_terry"):
        section["bradley_terry"] = with_people(section["bradley_terry"], people, baseline)
    section["biases"] = {"judges": document.get("biases", {}), "people": None if not people else
                         length_preference(people_decisions(outcomes, people))}
    return section


def parse_problems_section(judge: dict[str, Any] | None, judged: dict[str, dict[str, Any]],
                           report: dict[str, Any]) -> dict[str, Any]:
    """The report's problems, with a criterion or pairwise scale whose replies could mostly not be read."""
    if not judge:
        return {}
    return {"problems": report.get("problems", []) + parse_problems(
        judged, report.get("pairwise", {}).get("pairs", []), (judge.get("pairwise") or {}).get("scale"),
        judge["min_parse_rate"])}


def stage_usage(header: dict[str, Any]) -> dict[str, Any] | None:
    """What a judge stage took (its judge_usage, with the recheck's flip rate and its Wilson interval) and which run
    asked it, or None when it asked nothing."""
    usage = header.get("judge_usage")
    if usage is None:
        return None
    if usage.get("rechecked"):
        low, high = wilson_interval(usage["flips"], usage["rechecked"])
        usage = {**usage, "flip_rate": usage["flips"] / usage["rechecked"], "flip_rate_low": low,
                 "flip_rate_high": high}
    return {**usage, "run_token": header.get("run_token")}


def cost_section(judge: dict[str, Any] | None, usages: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """That the dataset's [judge] has no url (nothing is asked), and what every judge stage took, when any asked."""
    section: dict[str, Any] = {}
    if judge and not judge["url"]:
        section["judge_without_url"] = True
    if any(usages.values()):
        section["judge_cost"] = judge_cost({name: usage for name, usage in usages.items() if usage},
                                           judge.get("price"))
    return section
