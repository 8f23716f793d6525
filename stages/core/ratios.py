"""Ratios, precision / recall / F1, means and weighted means whose undefined denominators give None."""
from __future__ import annotations


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when nothing was counted."""
    return numerator / denominator if denominator else None


def precision_recall_f1(true_positives: int, false_positives: int, false_negatives: int) -> dict[str, float | None]:
    """Precision, recall and F1 = 2TP / (2TP + FP + FN); each None when its denominator is 0."""
    return {
        "precision": ratio(true_positives, true_positives + false_positives),
        "recall": ratio(true_positives, true_positives + false_negatives),
        "f1": ratio(2 * true_positives, 2 * true_positives + false_positives + false_negatives),
    }


def prefixed_precision_recall_f1(prefix: str, counts: dict[str, int]) -> dict[str, float | None]:
    """precision_recall_f1 of counts["tp"], ["fp"], ["fn"] under the names <prefix>_precision / _recall / _f1."""
    scores = precision_recall_f1(counts["tp"], counts["fp"], counts["fn"])
    return {f"{prefix}_{name}": value for name, value in scores.items()}


def mean(values: list[float | None]) -> float | None:
    """Mean of the defined values, None when there are none."""
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


def weighted_mean(scores: dict[str, float | None], weights: dict[str, float]) -> float | None:
    """Weighted mean over the scores that are defined and weighted (weights re-normalized over them); None when
    there are none."""
    used = {name: weight for name, weight in weights.items() if weight and scores.get(name) is not None}
    total = sum(used.values())
    return sum(weight * scores[name] for name, weight in used.items()) / total if total else None
