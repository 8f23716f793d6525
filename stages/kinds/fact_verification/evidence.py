"""FEVER evidence read from gold and prediction records as comparable sentences, "page<TAB>line" (fever.py scores
them)."""
from __future__ import annotations

from typing import Any


def _sentence(page: Any, line: Any) -> str:
    """One evidence sentence as gold and predictions are compared: page and line number (empty when none is given)."""
    return f"{page}\t{'' if line is None else int(line)}"


def _sentences(items: list, width: int, problem: str) -> list[str]:
    """Each item, a list of `width` values ending in page and line, as a sentence; ValueError(`problem`) for any other
    item. One pass per item: this runs for every row's evidence."""
    page, line = width - 2, width - 1
    sentences = []
    for item in items:
        if not (isinstance(item, list) and len(item) == width):
            raise ValueError(problem)
        sentences.append(_sentence(item[page], item[line]))
    return sentences


def gold_evidence_groups(value: Any) -> list[list[str]] | None:
    """FEVER gold `evidence`: groups of [annotation_id, evidence_id, page, line], each item as "page<TAB>line" (line
    empty when the gold gives none); None when the row has none."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("evidence must be a list of evidence groups")
    groups = []
    for group in value:
        if not isinstance(group, list):
            raise ValueError("evidence must be a list of evidence groups")
        groups.append(_sentences(group, 4, "each evidence item must be [annotation_id, evidence_id, page, line]"))
    return groups


def predicted_evidence_sentences(value: Any) -> list[str] | None:
    """A prediction's `predicted_evidence`: [page, line] pairs as "page<TAB>line", in the system's order; None when
    absent."""
    if value is None:
        return None
    problem = "predicted_evidence must be a list of [page, line] pairs"
    if not isinstance(value, list):
        raise ValueError(problem)
    return _sentences(value, 2, problem)
