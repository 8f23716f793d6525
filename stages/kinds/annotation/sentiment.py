"""Sentiment (seed 001 §3.2.4): the labels of each gold relationship against its matched prediction."""
from __future__ import annotations

from typing import Any

from ...core.ratios import prefixed_precision_recall_f1, ratio
from .document import label_set
from .relationships import EventRelations
from .taxonomy import POLARITIES


def sentiment_polarity(labels: frozenset[str], polarity_of: dict[str, str]) -> str | None:
    """positive / negative / neutral when the known labels agree, 'mixed' when they do not, None when unknown."""
    polarities = {polarity_of.get(label) or POLARITIES.get(label) for label in labels} - {None}
    if not polarities:
        return None
    return polarities.pop() if len(polarities) == 1 else "mixed"


def sentiment_metrics(counts: dict[str, int]) -> dict[str, float | None]:
    """The seed's sentiment metrics from (summed) counts; labels are sets, so a relationship may have several."""
    return {
        **prefixed_precision_recall_f1("sentiment", counts),
        "sentiment_polarity_accuracy": ratio(counts["polarity_correct"], counts["polarity_total"]),
    }


def evaluate_sentiment(events: list[EventRelations], polarity_of: dict[str, str] | None = None) -> dict[str, Any]:
    """Label-set overlap per gold relationship with a sentiment (an unmatched one counts its labels as missed);
    gold relationships without sentiment are gt_incomplete and left out of every denominator."""
    polarity_of = polarity_of or {}
    counts = dict.fromkeys(("tp", "fp", "fn", "polarity_correct", "polarity_total"), 0)
    unlabelled, errors = [], []
    per_event: list[bool | None] = [None] * len(events)
    for position, item in enumerate(events):
        matched = {g: p for p, g in item.pairs}
        event_correct = None
        for g, gold in enumerate(item.gold):
            expected = label_set(gold.get("sentiment"))
            predicted = label_set(item.predicted[matched[g]].get("sentiment")) if g in matched else frozenset()
            if not expected:
                unlabelled.append({"event": item.event, "relationship": g, "predicted": sorted(predicted)})
                continue
            counts["tp"] += len(expected & predicted)
            counts["fp"] += len(predicted - expected)
            counts["fn"] += len(expected - predicted)
            gold_polarity = sentiment_polarity(expected, polarity_of)
            if gold_polarity is not None:
                counts["polarity_total"] += 1
                counts["polarity_correct"] += sentiment_polarity(predicted, polarity_of) == gold_polarity
            event_correct = (event_correct is not False) and expected == predicted
            if expected != predicted:
                errors.append({"event": item.event, "relationship": g, "expected": sorted(expected),
                               "predicted": sorted(predicted)})
        per_event[position] = event_correct
    return {
        **sentiment_metrics(counts),
        "sentiment_errors": errors,
        "unlabelled_relationships": unlabelled,
        "gt_incomplete": bool(unlabelled),
        "gt_incomplete_reason": f"{len(unlabelled)} gold relationship(s) have no sentiment; not counted"
        if unlabelled else None,
        "counts": counts,
        "per_event": per_event,
    }
