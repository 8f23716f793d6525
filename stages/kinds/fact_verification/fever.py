"""The FEVER score beside label accuracy: per row whether a complete gold evidence group was retrieved and whether
the claim is strictly right, summed into counts that shards add up."""
from __future__ import annotations

from typing import Any

from ...core.records import Columns
from ...core.stats import Stats, share
from ...text.verdict import UNCERTAIN
from .evidence import evidence_scores


def fever_columns(gold_labels: list[str], evidence: list, predicted: list, correct: list[bool]) -> Columns:
    """B4's FEVER columns: the gold evidence group found whole in the first five predicted sentences (index or None),
    strict correctness, and the row's evidence precision and recall (None for NOT ENOUGH INFO claims)."""
    columns: Columns = {"evidence_group": [], "strict": [], "evidence_precision": [], "evidence_recall": []}
    for gold, groups, sentences, right in zip(gold_labels, evidence, predicted, correct):
        if gold == UNCERTAIN:
            scores = {"evidence_group": None, "evidence_precision": None, "evidence_recall": None}
            strict = right
        else:
            scores = evidence_scores(groups or [], sentences)
            strict = right and scores["evidence_group"] is not None
        for name, value in scores.items():
            columns[name].append(value)
        columns["strict"].append(strict)
    return columns


def fever_stats(matched: Columns) -> Stats:
    """Counts and sums behind the FEVER metrics."""
    judged = [i for i, p in enumerate(matched["evidence_precision"]) if p is not None]
    return {"strict": sum(bool(s) for s in matched["strict"]), "evidence_rows": len(judged),
            "precision": sum(matched["evidence_precision"][i] for i in judged),
            "recall": sum(matched["evidence_recall"][i] for i in judged)}


def fever_metrics(stats: Stats, rows: int) -> dict[str, Any]:
    """fever_score (strict accuracy) and evidence precision / recall / F1 as the official scorer reports them:
    precision 1 and recall 0 when no claim needs evidence."""
    precision = share(stats["precision"], stats["evidence_rows"])
    recall = share(stats["recall"], stats["evidence_rows"])
    precision = 1.0 if precision is None else precision
    recall = 0.0 if recall is None else recall
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"fever_score": share(stats["strict"], rows), "evidence_precision": precision, "evidence_recall": recall,
            "evidence_f1": f1}
