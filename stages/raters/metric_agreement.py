"""The annotation sheet's labels against the automatic metrics (`evalpipe annotations import`): per label, each
metric's Spearman correlation and ROC AUC over the rated rows, and the combined_score threshold that best reproduces
the label."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.records import Reject
from ..core.text_table import format_table
from .sheet import HUMAN_LABELS

AGREEMENT_METRICS = ("exact_match", "fuzzy_match", "edit_distance", "sentence_bert", "keyword_similarity",
                     "combined_score")
Scores = dict[tuple[str, str], dict[str, Any]]  # (scene, dialogue_index) → a B5 row's metrics


def roc_auc(labels: list[bool], scores: list[float]) -> float | None:
    """Probability that a random positive scores above a random negative (ties count half); None with one class."""
    from scipy.stats import rankdata
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return None
    ranks = rankdata(scores)
    return float((sum(r for r, y in zip(ranks, labels) if y) - positives * (positives + 1) / 2) / (positives * negatives))


def best_threshold(labels: list[bool], scores: list[float]) -> dict[str, Any] | None:
    """The score threshold t (label = score ≥ t) that agrees with the most human labels; the lowest such t."""
    if not labels:
        return None
    best = None
    for threshold in sorted(set(scores)):
        agree = sum((score >= threshold) == label for score, label in zip(scores, labels))
        if best is None or agree > best["agreeing"]:
            best = {"threshold": threshold, "agreeing": agree, "accuracy": agree / len(labels)}
    return best


def label_agreement(pairs: list[tuple[bool, dict[str, float | None]]]) -> dict[str, Any]:
    """For one human label: n, and per automatic metric the Spearman correlation and ROC AUC; plus the
    combined_score threshold that best reproduces the label."""
    from scipy.stats import spearmanr
    result: dict[str, Any] = {"labelled": len(pairs), "positive": sum(label for label, _ in pairs), "metrics": {}}
    for metric in AGREEMENT_METRICS:
        points = [(label, scores[metric]) for label, scores in pairs if scores.get(metric) is not None]
        labels, values = [p[0] for p in points], [p[1] for p in points]
        rho = None
        if len(set(labels)) > 1 and len(set(values)) > 1:
            rho = float(spearmanr(labels, values).statistic)
        result["metrics"][metric] = {"n": len(points), "spearman": rho, "roc_auc": roc_auc(labels, values)}
    combined = [(label, scores["combined_score"]) for label, scores in pairs if scores.get("combined_score") is not None]
    result["combined_score_threshold"] = best_threshold([c[0] for c in combined], [c[1] for c in combined])
    return result


def labels_against_metrics(rows: list[dict[str, Any]], rejects: list[Reject], source: Path, dataset: str,
                           scores_of: Callable[[str], Scores]) -> dict[str, Any]:
    """Every filled-in label (read_annotation_csv's rows and rejects) against the automatic metrics of its rated
    row; `scores_of(model)` gives a model's B5 rows by test case. A row naming no test case of its model is set aside;
    rated_rows counts the rows compared."""
    scores: dict[str, Scores] = {}
    rejects, rated = list(rejects), 0
    pairs: dict[str, list] = {label: [] for label in HUMAN_LABELS}
    for row in rows:
        if row["model"] not in scores:
            scores[row["model"]] = scores_of(row["model"])
        found = scores[row["model"]].get((row["scene"], row["dialogue_index"]))
        if found is None:
            rejects.append(Reject(str(source), row["line"], "no such test case in the model's B5 artifact"))
            continue
        rated += 1
        for label in HUMAN_LABELS:
            if row[label] is not None:
                pairs[label].append((row[label], found))
    return {"source": str(source), "dataset": dataset, "rated_rows": rated,
            "labels": {label: label_agreement(pairs[label]) for label in HUMAN_LABELS},
            "rejects": [reject.to_dict() for reject in rejects]}


def render_metric_agreement(result: dict[str, Any]) -> str:
    """labels_against_metrics as console text: per label a table of the metrics, the best threshold, what was set
    aside."""
    blocks = []
    for label, found in result["labels"].items():
        rows = [[metric, str(m["n"]), _fmt(m["spearman"]), _fmt(m["roc_auc"])]
                for metric, m in ((name, found["metrics"][name]) for name in AGREEMENT_METRICS)]
        best = found["combined_score_threshold"]
        threshold = (f"combined_score ≥ {best['threshold']:.4f} agrees with {best['agreeing']} of "
                     f"{found['labelled']} labels ({100 * best['accuracy']:.1f}%)" if best else "no labels")
        blocks.append(f"{label}: {found['labelled']} labelled, {found['positive']} yes\n"
                      + format_table(["metric", "n", "spearman", "roc_auc"], rows) + f"\n{threshold}")
    if result["rejects"]:
        blocks.append(f"{len(result['rejects'])} row(s) set aside: "
                      + "; ".join(f"line {r['line']}: {r['reason']}" for r in result["rejects"][:5]))
    return "\n\n".join(blocks)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
