"""Action layer (seed 001 §3.2.5): category / type / context / status / function of each aligned event."""
from __future__ import annotations

from typing import Any

from ...core.ratios import ratio
from .document import ACTION_FIELDS, is_empty, normalize_label
from .event_alignment import EventAlignment


def action_layer_metrics(counts: dict[str, int]) -> dict[str, float | None]:
    """Per-field accuracy, complete / partial match rates and the accuracy over all labelled fields."""
    metrics = {f"action_{name}_accuracy": ratio(counts[f"{name}_correct"], counts[f"{name}_total"])
               for name in ACTION_FIELDS}
    metrics["action_layer_complete_match"] = ratio(counts["complete"], counts["events"])
    metrics["action_layer_partial_match"] = ratio(counts["partial"], counts["events"])
    metrics["action_field_accuracy"] = ratio(sum(counts[f"{n}_correct"] for n in ACTION_FIELDS),
                                             sum(counts[f"{n}_total"] for n in ACTION_FIELDS))
    return metrics


def evaluate_action_layer(predicted_events: list[dict], gold_events: list[dict],
                          alignment: EventAlignment) -> dict[str, Any]:
    """Only the fields the gold labels count (denominators exclude empty gold fields); an event whose gold
    action_layer is empty is skipped; a gold event without a predicted one gets every labelled field wrong."""
    counts = {f"{name}_{part}": 0 for name in ACTION_FIELDS for part in ("correct", "total")}
    counts.update(events=0, complete=0, partial=0)
    by_gold = {g: p for p, g, _ in alignment.pairs}
    skipped, errors = [], []
    per_event: list[bool | None] = [None] * len(gold_events)
    for index, event in enumerate(gold_events):
        gold = {n: event["action_layer"][n] for n in ACTION_FIELDS
                if isinstance(event.get("action_layer"), dict) and not is_empty(event["action_layer"].get(n))}
        event_id = event.get("id", index)
        if not gold:
            skipped.append(event_id)
            continue
        predicted = (predicted_events[by_gold[index]].get("action_layer") or {}) if index in by_gold else {}
        correct = 0
        for name, expected in gold.items():
            counts[f"{name}_total"] += 1
            value = predicted.get(name)
            if not is_empty(value) and normalize_label(value) == normalize_label(expected):
                counts[f"{name}_correct"] += 1
                correct += 1
            else:
                errors.append({"event": event_id, "field": name, "expected": expected, "predicted": value})
        counts["events"] += 1
        counts["complete"] += correct == len(gold)
        counts["partial"] += 0 < correct < len(gold)
        per_event[index] = correct == len(gold)
    return {
        **action_layer_metrics(counts),
        "action_errors": errors,
        "n_events_skipped": len(skipped),
        "gt_incomplete": bool(skipped),
        "gt_incomplete_reason": f"Events {skipped} have an empty action_layer in ground truth" if skipped else None,
        "counts": counts,
        "per_event": per_event,
    }
