"""Confusion matrix and per-class precision / recall / F1 for label predictions."""
from __future__ import annotations

from collections import Counter
from typing import Any


def classification_report(gold: list[str], predicted: list[str], label_order: tuple[str, ...] = ()) -> dict[str, Any]:
    """Matrix (rows = predicted, columns = true), per-class metrics, macro / weighted averages and accuracy.

    Averages run over the labels present in gold or predictions, as scikit-learn does (zero_division=0).
    """
    return classification_report_from_pairs(Counter(zip(predicted, gold)), label_order)


def classification_report_from_pairs(pairs: Counter, label_order: tuple[str, ...] = ()) -> dict[str, Any]:
    """classification_report from (predicted, gold) → count, so that shards' counts can be added first."""
    present = {label for pair in pairs for label in pair}
    labels = [label for label in label_order if label in present] + sorted(present - set(label_order))
    matrix = {p: {t: pairs.get((p, t), 0) for t in labels} for p in labels}
    support: Counter = Counter()
    predicted_count: Counter = Counter()
    for (predicted_label, gold_label), count in pairs.items():
        support[gold_label] += count
        predicted_count[predicted_label] += count
    per_class = {}
    for label in labels:
        hits = pairs.get((label, label), 0)
        precision = hits / predicted_count[label] if predicted_count[label] else 0.0
        recall = hits / support[label] if support[label] else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[label] = {"precision": precision, "recall": recall, "f1": f1, "support": support[label]}
    total = sum(pairs.values())
    correct = sum(pairs.get((label, label), 0) for label in labels)
    return {
        "labels": labels,
        "confusion_matrix": matrix,
        "per_class": per_class,
        "macro_avg": _average(per_class, labels, None),
        "weighted_avg": _average(per_class, labels, support),
        "accuracy": correct / total if total else None,
        "rows": total,
        "correct": correct,
    }


def _average(per_class: dict, labels: list[str], weights: Counter | None) -> dict[str, float | None]:
    if not labels:
        return {"precision": None, "recall": None, "f1": None}
    if weights is None:
        return {m: sum(per_class[l][m] for l in labels) / len(labels) for m in ("precision", "recall", "f1")}
    total = sum(weights[l] for l in labels)
    return {
        m: (sum(per_class[l][m] * weights[l] for l in labels) / total if total else 0.0)
        for m in ("precision", "recall", "f1")
    }
