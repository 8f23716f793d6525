"""From judge replies to scores: per item and criterion the verdicts (parsed or not, with reasons and raw replies),
then per criterion the mean over parsed verdicts with its 95% interval, the parse rate and self-agreement."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..chat.outage import judge_cause
from ..raters.scales import ORDINAL_SCALES
from ..report.intervals import metric_interval
from .asking import JudgeCall
from .config import JudgeConfig
from .tasks import read_judge_reply, task_of_scale
from .verdicts import VerdictTally


def item_verdicts(calls: list[JudgeCall], records: dict[str, dict[str, Any]], config: JudgeConfig) -> dict[str, list]:
    """Rows of B5_judge: one per item and criterion — its combined value (None when no verdict parsed), labels per
    judge and sample, the first reason given, raw replies that did not parse, counts of replies, failures and
    calls the budget left unasked, and (a judged task's criterion) what its first parsed verdict read besides."""
    grouped: dict[tuple[str, str], list[JudgeCall]] = {}
    for call in calls:
        grouped.setdefault((call.item, call.criterion), []).append(call)
    columns: dict[str, list] = {name: [] for name in ("id", "criterion", "value", "labels", "reason", "unparsed",
                                                      "replies", "failures", "not_judged", "details")}
    for (item, name), group in grouped.items():
        scale = config.criteria[name].scale
        per_judge: dict[str, list[float]] = {}
        tally = VerdictTally()
        details = None
        for call in group:
            verdict = tally.read(records.get(call.key, {}), scale, read_judge_reply)
            if verdict is not None and verdict.label is not None:
                per_judge.setdefault(call.judge, []).append(verdict.value)
                details = details or verdict.details
        for column, value in (("id", item), ("criterion", name), ("value", combine(per_judge, scale)),
                              ("labels", tally.labels), ("reason", tally.first_reason), ("unparsed", tally.unparsed),
                              ("replies", tally.replies), ("failures", tally.failures),
                              ("not_judged", tally.not_judged), ("details", details)):
            columns[column].append(value)
    return columns


def unanswered_items(calls: list[JudgeCall], records: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Item → cause (outage.judge_cause of its first error) of each item some criterion of which has no reply at all
    because every call failed (a call the budget left unasked is not a failure): not scored."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for call in calls:
        grouped.setdefault((call.item, call.criterion), []).append(records.get(call.key, {}))
    found: dict[str, str] = {}
    for (item, _), group in grouped.items():
        if group and all("error" in record and not record.get("budget") for record in group):
            found.setdefault(item, judge_cause(group[0]["error"]))
    return found


def combine(per_judge: dict[str, list[float]], scale: str) -> float | None:
    """One item's value: each judge's mean over its parsed samples; a panel's by mean (ordinal scales) or majority
    (others: above one half → 1, below → 0, a tie → 0.5)."""
    means = [sum(values) / len(values) for values in per_judge.values() if values]
    if not means:
        return None
    if len(means) == 1 or scale in ORDINAL_SCALES:
        return sum(means) / len(means)
    votes = sum(1.0 if m > 0.5 else 0.0 if m < 0.5 else 0.5 for m in means) / len(means)
    return 1.0 if votes > 0.5 else 0.0 if votes < 0.5 else 0.5


def judge_summary(rows: dict[str, list], config: JudgeConfig, unanswered: int = 0) -> dict[str, dict[str, Any]]:
    """Per criterion: mean over items with a parsed verdict, 95% interval, n, parse rate (parsed replies / replies),
    failed calls, label counts, — with samples > 1 — the judge's self-agreement and — a judged task's criterion — its
    script's figures (with the `unanswered` items, those without an answer to judge)."""
    summary: dict[str, dict[str, Any]] = {}
    for name, criterion in config.criteria.items():
        picked = [i for i, c in enumerate(rows["criterion"]) if c == name]
        values = [rows["value"][i] for i in picked if rows["value"][i] is not None]
        replies = sum(rows["replies"][i] for i in picked)
        unparsed = sum(len(rows["unparsed"][i]) for i in picked)
        labels = Counter(label for i in picked for label in rows["labels"][i] if label is not None)
        summary[name] = {
            "scale": criterion.scale, "mean": sum(values) / len(values) if values else None,
            "interval": metric_interval(values, "mean") if values else None,  # Wilson when every value is 0 / 1
            "n": len(values), "items": len(picked),
            "replies": replies, "unparsed": unparsed, "failed_calls": sum(rows["failures"][i] for i in picked),
            "unparsed_example": next((text for i in picked for text in rows["unparsed"][i]), None),
            "not_judged": sum(rows["not_judged"][i] for i in picked),
            "parse_rate": (replies - unparsed) / replies if replies else None, "labels": dict(sorted(labels.items())),
        }
        task = task_of_scale(criterion.scale)
        if task is not None:
            figures = task.figures([rows["details"][i] for i in picked], unanswered)
            summary[name].update(figures=figures, figures_line=task.figures_line(figures), reference=task.reference,
                                 headline=task.headline, headline_unit=task.headline_unit,
                                 headline_interval=task.headline_interval(figures))
        if config.samples > 1:
            summary[name]["self_agreement"] = self_agreement([rows["labels"][i] for i in picked], config)
    return summary


def self_agreement(labels_per_item: list[list[str | None]], config: JudgeConfig) -> float | None:
    """Share of (item, judge) pairs with two or more parsed samples whose labels all agree."""
    agreeing = total = 0
    for labels in labels_per_item:
        for j in range(len(config.models)):
            parsed = [label for label in labels[j * config.samples:(j + 1) * config.samples] if label is not None]
            if len(parsed) >= 2:
                total += 1
                agreeing += len(set(parsed)) == 1
    return agreeing / total if total else None
