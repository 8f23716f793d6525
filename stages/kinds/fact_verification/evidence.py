"""FEVER evidence read from gold and prediction records as comparable sentences, "page<TAB>line" (fever.py scores
them)."""
from __future__ import annotations

from typing import Any


def _sentence(page: Any, line: Any) -> str:
    """One evidence sentence as gold and predictions are compared: page and line number (empty when none is given)."""
    return f"{page}\t{'' if line is None else int(line)}"


def gold_evidence_groups(value: Any) -> list[list[str]] | None:
    """FEVER gold `evidence`: groups of [annotation_id, evidence_id, page, line], each item as "page<TAB>line" (line
    empty when the gold gives none); None when the row has none. One pass per item: this runs for every gold row."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("evidence must be a list of evidence groups")
    groups = []
    for group in value:
        if not isinstance(group, list):
            raise ValueError("evidence must be a list of evidence groups")
        sentences = []
        for item in group:
            if not (isinstance(item, list) and len(item) == 4):
                raise ValueError("each evidence item must be [annotation_id, evidence_id, page, line]")
            sentences.append(_sentence(item[2], item[3]))
        groups.append(sentences)
    return groups


def predicted_evidence_sentences(value: Any) -> list[str] | None:
    """A prediction's `predicted_evidence`: [page, line] pairs as "page<TAB>line", in the system's order; None when
    absent."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("predicted_evidence must be a list of [page, line] pairs")
    sentences = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2):
            raise ValueError("predicted_evidence must be a list of [page, line] pairs")
        sentences.append(_sentence(item[0], item[1]))
    return sentences
