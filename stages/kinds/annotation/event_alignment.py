"""Pair predicted narrative events with ground-truth events: by id, then by text-span overlap (optimal one-to-one)."""
from __future__ import annotations

from dataclasses import dataclass

from .document import is_empty, normalize_label
from .text_span import span_iou_matrix, span_problem


@dataclass(frozen=True)
class EventAlignment:
    """Index pairs (prediction, ground truth) with how each was found, and the events left on either side."""

    pairs: list[tuple[int, int, str]]
    missing: list[int]
    extra: list[int]

    def to_dict(self) -> dict:
        return {"pairs": [list(p) for p in self.pairs], "missing": self.missing, "extra": self.extra}


def _valid_span(event: dict, text_length: int | None) -> tuple[int, int] | None:
    span = event.get("text_span")
    if span is None or span_problem(span, text_length) is not None:
        return None
    return span["start"], span["end"]


def align_events(predicted: list[dict], gold: list[dict], text_length: int | None = None,
                 min_iou: float = 0.3) -> EventAlignment:
    """Same id first (the first event of a repeated id); the rest by maximum total span IoU, keeping pairs whose
    IoU is at least `min_iou` (and above 0)."""
    from scipy.optimize import linear_sum_assignment
    gold_by_id: dict[str, int] = {}
    for index, event in enumerate(gold):
        if not is_empty(event.get("id")):
            gold_by_id.setdefault(normalize_label(event["id"]), index)
    pairs, used_gold = [], set()
    for index, event in enumerate(predicted):
        key = None if is_empty(event.get("id")) else normalize_label(event["id"])
        if key in gold_by_id and gold_by_id[key] not in used_gold:
            pairs.append((index, gold_by_id[key], "id"))
            used_gold.add(gold_by_id[key])
    used_predicted = {p for p, _, _ in pairs}
    left_predicted = [(i, s) for i, e in enumerate(predicted)
                      if i not in used_predicted and (s := _valid_span(e, text_length)) is not None]
    left_gold = [(i, s) for i, e in enumerate(gold) if i not in used_gold and (s := _valid_span(e, text_length))]
    if left_predicted and left_gold:
        scores = span_iou_matrix([s for _, s in left_predicted], [s for _, s in left_gold])
        for row, column in zip(*linear_sum_assignment(scores, maximize=True)):
            if scores[row, column] > 0 and scores[row, column] >= min_iou:
                pairs.append((left_predicted[row][0], left_gold[column][0], "span"))
    paired_predicted = {p for p, _, _ in pairs}
    paired_gold = {g for _, g, _ in pairs}
    return EventAlignment(
        pairs=sorted(pairs, key=lambda pair: pair[1]),
        missing=[i for i in range(len(gold)) if i not in paired_gold],
        extra=[i for i in range(len(predicted)) if i not in paired_predicted],
    )
