"""Pairwise judging: for every pair of models and every item both answered, which answer is better — asked in both
orders, so a verdict that flips with the order counts as a tie — then win / tie / loss rates with intervals and how
often the judge's choice survives swapping the positions."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from ..core.intervals import bootstrap_mean_interval, wilson_interval
from .asking import call_key, rubric_language
from .config import JudgeConfig
from .verdicts import VerdictTally

OUTCOMES = ("first", "tie", "second")


@dataclass(frozen=True)
class PairwiseCall:
    """One question to a judge: which of two models' answers to an item is better, in one order (0: first is A)."""

    first: str
    second: str
    item: str
    order: int
    judge: str
    sample: int
    prompt: str
    key: str


def pairwise_calls(items: list[dict[str, Any]], answers: dict[str, dict[str, str]], config: JudgeConfig,
                   ) -> list[PairwiseCall]:
    """Both orders of every pair of models (sorted by name; with a baseline, each other model first against it) on
    every item both answered; `items` are render_fields values with an id, `answers` model → id → answer text."""
    rubric = config.pairwise
    calls = []
    pairs = ([(model, config.baseline) for model in sorted(answers) if model != config.baseline] if config.baseline
             else combinations(sorted(answers), 2))
    for first, second in pairs:
        for item in items:
            a, b = answers[first].get(item["id"]), answers[second].get(item["id"])
            if a is None or b is None:
                continue
            fields = {k: v for k, v in item.items() if k not in ("id", "prediction")}
            language = rubric_language(fields["question"], fields["expected"], a, b)
            for order, (answer_a, answer_b) in enumerate(((a, b), (b, a))):
                prompt = rubric.rubric(language).format(answer_a=answer_a, answer_b=answer_b, **fields)
                for judge, sample in product(config.models, range(config.samples)):
                    calls.append(PairwiseCall(first, second, item["id"], order, judge, sample, prompt,
                                              call_key(prompt, judge, sample, config)))
    return calls


def winner(label: str | None, order: int) -> str | None:
    """Which model a verdict in one order prefers: "first", "second" or "tie" (None when unparsed); Arena-Hard's
    five-way labels by their direction (A>>B and A>B prefer A)."""
    if label is None:
        return None
    if label in ("TIE", "A=B"):
        return "tie"
    return "first" if label.startswith("A") == (order == 0) else "second"


def pairwise_rows(calls: list[PairwiseCall], records: dict[str, dict[str, Any]],
                  scale: str = "preference") -> dict[str, list]:
    """Rows of B5_pairwise: per pair and item the outcome (the most common over judges and samples of each order
    pair's result — its winner when both orders agree, else a tie; None when no order pair parsed), the outcome of
    each order taken alone (first_order: the first model shown as A; second_order: shown as B), the labels asked,
    how many order pairs kept their choice, unparsed replies and failed calls."""
    grouped: dict[tuple[str, str, str], dict[tuple[str, int], list[PairwiseCall | None]]] = {}
    for call in calls:
        slots = grouped.setdefault((call.first, call.second, call.item), {})
        slots.setdefault((call.judge, call.sample), [None, None])[call.order] = call
    columns: dict[str, list] = {name: [] for name in ("first", "second", "id", "outcome", "first_order",
                                                      "second_order", "labels", "consistent", "order_pairs", "reason",
                                                      "unparsed", "replies", "failures", "not_judged")}
    for (first, second, item), slots in grouped.items():
        results, consistent, tally = [], 0, VerdictTally()
        by_order: tuple[list[str], list[str]] = ([], [])
        for both in slots.values():
            picked = []
            for call in both:
                verdict = tally.read(records.get(call.key, {}), scale)
                picked.append(None if verdict is None else winner(verdict.label, call.order))
            for order, found in enumerate(picked):
                if found is not None:
                    by_order[order].append(found)
            if None not in picked:
                consistent += picked[0] == picked[1]
                results.append(picked[0] if picked[0] == picked[1] else "tie")
        for column, value in (("first", first), ("second", second), ("id", item), ("outcome", _most_common(results)),
                              ("first_order", _most_common(by_order[0])), ("second_order", _most_common(by_order[1])),
                              ("labels", tally.labels), ("consistent", consistent), ("order_pairs", len(results)),
                              ("reason", tally.first_reason), ("unparsed", tally.unparsed),
                              ("replies", tally.replies), ("failures", tally.failures),
                              ("not_judged", tally.not_judged)):
            columns[column].append(value)
    return columns


def _most_common(results: list[str]) -> str | None:
    """The outcome most order pairs gave; a tie between outcomes is a tie."""
    if not results:
        return None
    counts = Counter(results).most_common()
    return counts[0][0] if len(counts) == 1 or counts[0][1] > counts[1][1] else "tie"


def pairwise_summary(rows: dict[str, list]) -> list[dict[str, Any]]:
    """Per pair: wins, ties and losses of the first model over items with an outcome, each rate with its Wilson
    95% interval, the win rate counting a tie half (with its bootstrap interval), the position-consistency rate (order pairs whose choice survived the swap), parse rate and
    failed calls."""
    pairs: dict[tuple[str, str], list[int]] = {}
    for i, pair in enumerate(zip(rows["first"], rows["second"])):
        pairs.setdefault(pair, []).append(i)
    summary = []
    for (first, second), picked in pairs.items():
        outcomes = Counter(rows["outcome"][i] for i in picked if rows["outcome"][i] is not None)
        decided = sum(outcomes.values())
        order_pairs = sum(rows["order_pairs"][i] for i in picked)
        replies = sum(rows["replies"][i] for i in picked)
        unparsed = sum(len(rows["unparsed"][i]) for i in picked)
        found = {"first": first, "second": second, "items": len(picked), "n": decided}
        for outcome, rate, count in zip(OUTCOMES, ("win", "tie", "loss"), ("wins", "ties", "losses")):
            found[count] = outcomes[outcome]
            found[f"{rate}_rate"] = outcomes[outcome] / decided if decided else None
            bounds = wilson_interval(outcomes[outcome], decided)
            found[f"{rate}_interval"] = None if bounds is None else {
                "low": bounds[0], "high": bounds[1], "n": decided, "method": "Wilson score"}
        scores = [{"first": 1.0, "tie": 0.5, "second": 0.0}[rows["outcome"][i]] for i in picked
                  if rows["outcome"][i] is not None]
        found["win_ties_half_rate"] = sum(scores) / decided if decided else None  # AlpacaEval's win rate
        found["win_ties_half_interval"] = None if not decided else {
            **dict(zip(("low", "high"), bootstrap_mean_interval(scores))), "n": decided,
            "method": "percentile bootstrap over items"}
        consistent = sum(rows["consistent"][i] for i in picked)
        found.update({"order_pairs": order_pairs,
                      "position_consistency": consistent / order_pairs if order_pairs else None,
                      "replies": replies, "unparsed": unparsed,
                      "unparsed_example": next((text for i in picked for text in rows["unparsed"][i]), None),
                      "parse_rate": (replies - unparsed) / replies if replies else None,
                      "failed_calls": sum(rows["failures"][i] for i in picked),
                      "not_judged": sum(rows["not_judged"][i] for i in picked)})
        summary.append(found)
    return summary

