"""FEVER's evidence scoring, as the official scorer (sheffieldnlp/fever-scorer) computes it with max_evidence = 5:
a claim whose gold label is not NOT ENOUGH INFO is strictly right only when some gold evidence group lies wholly
inside the first five predicted sentences; precision and recall are averaged over those claims."""
from __future__ import annotations

from typing import Any

MAX_EVIDENCE = 5


def _sentence(page: Any, line: Any) -> str:
    """One evidence sentence as comparable text: page and line number (empty when the gold gives none)."""
    return f"{page}\t{'' if line is None else int(line)}"


def gold_evidence_groups(value: Any) -> list[list[str]] | None:
    """FEVER gold `evidence`: groups of [annotation_id, evidence_id, page, line]; None when the row has none."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(group, list) for group in value):
        raise ValueError("evidence must be a list of evidence groups")
    groups = []
    for group in value:
        if not all(isinstance(item, list) and len(item) == 4 for item in group):
            raise ValueError("each evidence item must be [annotation_id, evidence_id, page, line]")
        groups.append([_sentence(item[2], item[3]) for item in group])
    return groups


def predicted_evidence_sentences(value: Any) -> list[str] | None:
    """A prediction's `predicted_evidence`: [page, line] pairs, in the system's order; None when absent."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, list) and len(item) == 2 for item in value):
        raise ValueError("predicted_evidence must be a list of [page, line] pairs")
    return [_sentence(page, line) for page, line in value]


def evidence_scores(groups: list[list[str]], predicted: list[str] | None,
                    max_evidence: int = MAX_EVIDENCE) -> dict[str, Any]:
    """For a claim whose gold label is not NOT ENOUGH INFO: the first gold group found whole among the first
    `max_evidence` predicted sentences (or None), evidence precision (1 when nothing is predicted) and recall (1 when
    the gold has no evidence)."""
    first = (predicted or [])[:max_evidence]
    chosen = set(first)
    group = next((i for i, sentences in enumerate(groups) if all(s in chosen for s in sentences)), None)
    gold_sentences = {s for sentences in groups for s in sentences if not s.endswith("\t")}
    precision = sum(1 for s in first if s in gold_sentences) / len(first) if first else 1.0
    recall = 1.0 if not groups or group is not None else 0.0
    return {"evidence_group": group, "evidence_precision": precision, "evidence_recall": recall}
