"""Relationships (seed 001 §3.2.3): agent–target pairs with level-1 / level-2 labels, per aligned event."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.ratios import prefixed_precision_recall_f1, ratio
from .document import RELATIONSHIP_LABELS, is_empty, normalize_label
from .event_alignment import EventAlignment


@dataclass(frozen=True)
class EventRelations:
    """One ground-truth event's relationships beside those of its aligned prediction (empty when unaligned), and
    the one-to-one (prediction, gold) pairs with the same agent and target."""

    event: Any
    predicted: list[dict]
    gold: list[dict]
    pairs: list[tuple[int, int]]


def _label(relation: dict, name: str) -> str:
    return "" if is_empty(relation.get(name)) else normalize_label(relation[name])


def match_relationships(predicted: list[dict], gold: list[dict], resolve_predicted: Callable,
                        resolve_gold: Callable) -> list[tuple[int, int]]:
    """Pairs with the same (agent, target) after name resolution; among those, the most agreeing labels win."""
    from scipy.optimize import linear_sum_assignment
    if not predicted or not gold:
        return []
    predicted_keys = [(resolve_predicted(r.get("agent")), resolve_predicted(r.get("target"))) for r in predicted]
    gold_keys = [(resolve_gold(r.get("agent")), resolve_gold(r.get("target"))) for r in gold]
    scores = [[0 if pk != gk else 1 + sum(_label(p, n) == _label(g, n) for n in RELATIONSHIP_LABELS)
               for g, gk in zip(gold, gold_keys)] for p, pk in zip(predicted, predicted_keys)]
    rows, columns = linear_sum_assignment(scores, maximize=True)
    return sorted((int(r), int(c)) for r, c in zip(rows, columns) if scores[r][c] > 0)


def pair_event_relations(predicted_events: list[dict], gold_events: list[dict], alignment: EventAlignment,
                         resolvers: tuple[Callable, Callable]) -> list[EventRelations]:
    """EventRelations for every ground-truth event (aligned or missing), in gold order."""
    by_gold = {g: p for p, g, _ in alignment.pairs}
    paired = []
    for index, event in enumerate(gold_events):
        gold = event.get("relationships") or []
        predicted = predicted_events[by_gold[index]].get("relationships") or [] if index in by_gold else []
        pairs = match_relationships(predicted, gold, *resolvers) if gold else []
        paired.append(EventRelations(event.get("id", index), predicted, gold, pairs))
    return paired


def relationship_metrics(counts: dict[str, int]) -> dict[str, float | None]:
    """The seed's relationship metrics from (summed) counts."""
    return {
        **prefixed_precision_recall_f1("relationship", counts),
        "level1_accuracy": ratio(counts["level1_correct"], counts["level1_total"]),
        "level2_accuracy": ratio(counts["level2_correct"], counts["level2_total"]),
        "relationship_pair_coverage": ratio(counts["pairs_covered"], counts["pairs_total"]),
    }


def _is_correct(predicted: dict, gold: dict) -> bool:
    return all(_label(predicted, n) == _label(gold, n) for n in RELATIONSHIP_LABELS if not is_empty(gold.get(n)))


def evaluate_relationships(events: list[EventRelations], extra_events: list[dict]) -> dict[str, Any]:
    """A relationship is correct when agent, target and every labelled level agree; events whose gold relationships
    are empty, and predicted events absent from the gold, are skipped (their predictions are extra, not errors)."""
    counts = dict.fromkeys(("tp", "fp", "fn", "level1_correct", "level1_total", "level2_correct", "level2_total",
                            "pairs_covered", "pairs_total"), 0)
    skipped, extra, errors = [], [], []
    per_event: list[bool | None] = [None] * len(events)
    for position, item in enumerate(events):
        if not item.gold:
            skipped.append(item.event)
            extra.extend(item.predicted)
            continue
        correct = 0
        for p, g in item.pairs:
            for level, name in zip(("level1", "level2"), RELATIONSHIP_LABELS):
                if not is_empty(item.gold[g].get(name)):
                    counts[f"{level}_total"] += 1
                    counts[f"{level}_correct"] += _label(item.predicted[p], name) == _label(item.gold[g], name)
            if _is_correct(item.predicted[p], item.gold[g]):
                correct += 1
            else:
                errors.append({"event": item.event, "expected": item.gold[g], "predicted": item.predicted[p]})
        counts["tp"] += correct
        counts["fp"] += len(item.predicted) - correct
        counts["fn"] += len(item.gold) - correct
        counts["pairs_total"] += len({_key(r) for r in item.gold})
        counts["pairs_covered"] += len({_key(item.gold[g]) for _, g in item.pairs})
        per_event[position] = correct == len(item.gold) == len(item.predicted)
    for event in extra_events:
        extra.extend(event.get("relationships") or [])
    reasons = [f"Event {e!r} has empty relationships in ground truth" for e in skipped]
    return {
        **relationship_metrics(counts),
        "relationship_errors": errors,
        "extra_relationships": extra,
        "n_events_skipped": len(skipped),
        "n_events_not_in_ground_truth": len(extra_events),
        "gt_incomplete": bool(skipped),
        "gt_incomplete_reason": "; ".join(reasons) or None,
        "counts": counts,
        "per_event": per_event,
    }


def _key(relation: dict) -> tuple[str, str]:
    return normalize_label(relation.get("agent") or ""), normalize_label(relation.get("target") or "")
