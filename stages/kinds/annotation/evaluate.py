"""Composite annotation evaluation (seed 001 §3.2.7): every component on one document pair, and micro / macro
aggregation over many."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.ratios import mean, ratio, weighted_mean
from .action_layer import action_layer_metrics, evaluate_action_layer
from .characters import character_metrics, evaluate_characters, name_resolvers
from .document import events_of, story_text
from .event_alignment import EventAlignment, align_events
from .relationships import evaluate_relationships, pair_event_relations, relationship_metrics
from .sentiment import evaluate_sentiment, sentiment_metrics
from .taxonomy import invalid_labels
from .text_span import evaluate_text_spans, span_iou, span_problem, text_span_metrics

COMPONENT_METRIC = {"characters": "character_f1", "relationships": "relationship_f1", "sentiment": "sentiment_f1",
                    "action_layer": "action_field_accuracy", "text_span": "boundary_score"}
COMPONENT_METRICS = {"characters": character_metrics, "relationships": relationship_metrics,
                     "sentiment": sentiment_metrics, "action_layer": action_layer_metrics,
                     "text_span": text_span_metrics}
DEFAULT_WEIGHTS = dict.fromkeys(COMPONENT_METRIC, 1.0)


def overall_score(component_scores: dict[str, float | None], weights: dict[str, float] | None = None) -> float | None:
    """Weighted mean of the defined component scores (weights re-normalized over them); None when none is."""
    return weighted_mean(component_scores, weights or DEFAULT_WEIGHTS)


def _span_per_event(predicted: list[dict], gold: list[dict], alignment, text_length: int | None,
                    threshold: float) -> list[bool | None]:
    flags: list[bool | None] = [None] * len(gold)
    for p, g, _ in alignment.pairs:
        gold_span = gold[g].get("text_span")
        if gold_span is None or span_problem(gold_span, text_length):
            continue
        span = predicted[p].get("text_span")
        flags[g] = span is not None and span_problem(span, text_length) is None and span_iou(
            (span["start"], span["end"]), (gold_span["start"], gold_span["end"])) >= threshold
    return flags


def _event_summary(gold: list[dict], alignment, per_component: list[list[bool | None]]) -> dict[str, Any]:
    aligned = {g for _, g, _ in alignment.pairs}
    correct = sum(index in aligned and all(flags[index] is not False for flags in per_component)
                  for index in range(len(gold)))
    return {
        "total_events": len(gold),
        "correct_events": correct,
        "event_accuracy": ratio(correct, len(gold)),
        "aligned_events": len(alignment.pairs),
        "aligned_by_id": sum(how == "id" for _, _, how in alignment.pairs),
        "aligned_by_span": sum(how == "span" for _, _, how in alignment.pairs),
        "missing_events": len(alignment.missing),
        "extra_events": len(alignment.extra),
    }


def evaluate_annotation(prediction: dict[str, Any], ground_truth: dict[str, Any], text: str | None = None, *,
                        taxonomy: dict[str, Any] | None = None, n_t: int = 2, min_event_iou: float = 0.3,
                        span_iou_threshold: float = 0.5, weights: dict[str, float] | None = None,
                        alignment: EventAlignment | None = None) -> dict[str, Any]:
    """Characters, relationships, sentiment, action layer and text span of one predicted document against its
    ground truth; `text` defaults to the ground truth's (else the prediction's) source_info.text_content; events
    are aligned here unless an `alignment` (B4's) is given."""
    text = text or story_text(prediction, ground_truth)
    text_length = None if text is None else len(text)
    predicted_events, gold_events = events_of(prediction), events_of(ground_truth)
    if alignment is None:
        alignment = align_events(predicted_events, gold_events, text_length, min_event_iou)
    relations = pair_event_relations(predicted_events, gold_events, alignment, name_resolvers(prediction, ground_truth))
    extra_events = [predicted_events[i] for i in alignment.extra]
    details = {
        "characters": evaluate_characters(prediction, ground_truth),
        "relationships": evaluate_relationships(relations, extra_events),
        "sentiment": evaluate_sentiment(relations, (taxonomy or {}).get("sentiment_polarity")),
        "action_layer": evaluate_action_layer(predicted_events, gold_events, alignment),
    }
    if text is None:
        details["text_span"] = {**text_span_metrics(Counter()), "gt_incomplete": True,
                                "gt_incomplete_reason": "No story text to map spans onto", "counts": None}
    else:
        details["text_span"] = evaluate_text_spans(predicted_events, gold_events, text, n_t)
    per_component = [details[name].pop("per_event") for name in ("relationships", "sentiment", "action_layer")]
    per_component.append(_span_per_event(predicted_events, gold_events, alignment, text_length, span_iou_threshold))
    component_scores = {name: details[name][metric] for name, metric in COMPONENT_METRIC.items()}
    summary = _event_summary(gold_events, alignment, per_component)
    summary["alignment"] = alignment.to_dict()
    summary["gt_incomplete"] = sorted(name for name, result in details.items() if result.get("gt_incomplete"))
    if taxonomy:
        summary["invalid_labels"] = invalid_labels(prediction, taxonomy)
    return {
        "overall_score": overall_score(component_scores, weights),
        "component_scores": component_scores,
        "detailed_results": details,
        "summary": summary,
    }


def _summed(dicts: list[dict[str, float]]) -> Counter:
    """Counts added up name by name (absent names read as 0)."""
    total: Counter = Counter()
    for counts in dicts:
        for name, value in counts.items():
            total[name] += value
    return total


def aggregate_annotations(results: list[dict[str, Any]], weights: dict[str, float] | None = None) -> dict[str, Any]:
    """Micro (counts summed over documents, then the metrics) and macro (mean of per-document metrics, undefined
    ones left out) for every component metric, plus event totals and invalid-label rates."""
    micro: dict[str, Any] = {}
    macro: dict[str, Any] = {}
    for name, metrics_of in COMPONENT_METRICS.items():
        counts = [r["detailed_results"][name]["counts"] for r in results if r["detailed_results"][name]["counts"]]
        component_micro = metrics_of(_summed(counts))
        micro.update(component_micro)
        for metric in component_micro:
            macro[metric] = mean([r["detailed_results"][name][metric] for r in results])
    micro_components = {name: micro.get(metric) for name, metric in COMPONENT_METRIC.items()}
    macro_components = {name: macro.get(metric) for name, metric in COMPONENT_METRIC.items()}
    micro["overall_score"] = overall_score(micro_components, weights)
    macro["overall_score"] = mean([r["overall_score"] for r in results])
    events = dict(_summed([{k: r["summary"][k] for k in ("total_events", "correct_events", "aligned_events",
                                                   "missing_events", "extra_events")} for r in results]))
    events["event_accuracy"] = ratio(events.get("correct_events", 0), events.get("total_events", 0))
    invalid: dict[str, dict[str, Any]] = {}
    for result in results:
        for field, entry in result["summary"].get("invalid_labels", {}).items():
            total = invalid.setdefault(field, {"predicted": 0, "invalid": 0, "labels": []})
            total["predicted"] += entry["predicted"]
            total["invalid"] += entry["invalid"]
            total["labels"].extend(label for label in entry["labels"] if label not in total["labels"])
    for entry in invalid.values():
        entry["rate"] = ratio(entry["invalid"], entry["predicted"])
    return {"documents": len(results), "micro": micro, "macro": macro, "components_micro": micro_components,
            "components_macro": macro_components, "events": events, "invalid_labels": invalid}
