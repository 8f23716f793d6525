"""Text-span boundaries (seed 001 §3.2.6): sentences, char → sentence index, Boundary Similarity, span IoU."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from .boundary_similarity import compare_boundaries

if TYPE_CHECKING:
    import numpy as np

SPAN_COUNTS = ("matches", "near_misses", "insertions", "deletions", "transposition_weight", "overlap_sum",
               "gold_spans")
_SENTENCE_END = re.compile(r"(?:[。！？；…]+|[.!?]+(?=\s|$))[\"'”’」』）)]*")


def text_to_sentence_indices(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of each sentence (end exclusive); Chinese 。！？；… and English .!? end one."""
    sentences, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if text[start:match.end()].strip():
            sentences.append((start, match.end()))
        start = match.end()
    if text[start:].strip():
        sentences.append((start, len(text)))
    return sentences


def char_position_to_sentence_index(char_pos: int, sentence_indices: list[tuple[int, int]]) -> int | None:
    """0-based index of the sentence holding the character at `char_pos` (whitespace between sentences belongs to
    the next one); None outside the text."""
    if char_pos < 0:
        return None
    index = bisect_right(sentence_indices, char_pos, key=lambda sentence: sentence[1])
    return index if index < len(sentence_indices) else None


def span_problem(span: Any, text_length: int | None) -> str | None:
    """Why a text_span cannot be used (missing keys, wrong types, start > end, outside the text when its length
    is known), or None."""
    if not isinstance(span, dict):
        return "text_span is not an object"
    start, end = span.get("start"), span.get("end")
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        return "start and end must be integers"
    if start > end:
        return f"start {start} > end {end}"
    if start < 0 or (text_length is not None and end > text_length):
        return f"span {start}–{end} lies outside the text (length {text_length})"
    return None


def sentence_masses(spans: list[tuple[int, int]], sentences: list[tuple[int, int]]) -> list[int]:
    """The sentence sequence segmented at every span's first sentence and after its last one, as segment masses."""
    cuts = set()
    for start, end in spans:
        first = char_position_to_sentence_index(start, sentences)
        last = char_position_to_sentence_index(max(start, end - 1), sentences)
        cuts.update(cut for cut in (first, None if last is None else last + 1) if cut is not None)
    bounds = [0, *sorted(c for c in cuts if 0 < c < len(sentences)), len(sentences)]
    return [b - a for a, b in zip(bounds, bounds[1:])]


def span_iou(first: tuple[int, int], second: tuple[int, int]) -> float:
    """Intersection over union of two character spans."""
    overlap = max(0, min(first[1], second[1]) - max(first[0], second[0]))
    union = max(first[1], second[1]) - min(first[0], second[0])
    return overlap / union if union > 0 else float(first == second)


def span_iou_matrix(first: list[tuple[int, int]], second: list[tuple[int, int]]) -> np.ndarray:
    """span_iou of every span in `first` (rows) with every span in `second` (columns)."""
    import numpy as np
    a, b = np.asarray(first, dtype=float).reshape(-1, 1, 2), np.asarray(second, dtype=float).reshape(1, -1, 2)
    overlap = np.clip(np.minimum(a[..., 1], b[..., 1]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
    union = np.maximum(a[..., 1], b[..., 1]) - np.minimum(a[..., 0], b[..., 0])
    same = (a[..., 0] == b[..., 0]) & (a[..., 1] == b[..., 1])
    return np.where(union > 0, overlap / np.where(union > 0, union, 1), same.astype(float))


def matched_span_iou(predicted: list[tuple[int, int]], gold: list[tuple[int, int]]) -> tuple[float | None, list]:
    """Mean IoU over an optimal one-to-one matching of predicted to gold spans (unmatched gold spans count 0)."""
    from scipy.optimize import linear_sum_assignment
    if not gold:
        return None, []
    if not predicted:
        return 0.0, []
    scores = span_iou_matrix(predicted, gold)
    rows, columns = linear_sum_assignment(scores, maximize=True)
    pairs = [(int(r), int(c), float(scores[r, c])) for r, c in zip(rows, columns)]
    return sum(score for _, _, score in pairs) / len(gold), pairs


def evaluate_text_spans(prediction_events: list[dict], gold_events: list[dict], text: str, n_t: int = 2) -> dict:
    """Boundary Similarity between predicted and gold event spans over the text's sentences, with boundary counts,
    matched-span IoU and per-event flags. Events whose gold span is missing are left out on both sides."""
    sentences = text_to_sentence_indices(text)
    flags = []
    gold_ids = set()
    gold_spans = []
    for event in gold_events:
        span = event.get("text_span")
        if span is None:
            continue
        problem = span_problem(span, len(text))
        if problem:
            flags.append({"event": event.get("id"), "side": "ground_truth", "reason": problem})
            continue
        gold_ids.add(event.get("id"))
        gold_spans.append((span["start"], span["end"]))
    excluded = {e.get("id") for e in gold_events if e.get("text_span") is None}
    predicted_spans = []
    for event in prediction_events:
        if event.get("id") in excluded and event.get("id") not in gold_ids:
            continue  # gold span missing: this prediction is not an insertion
        span = event.get("text_span")
        problem = span_problem(span, len(text)) if span is not None else "text_span missing"
        if problem:
            flags.append({"event": event.get("id"), "side": "prediction", "reason": problem})
            continue
        predicted_spans.append((span["start"], span["end"]))
    result: dict[str, Any] = {"flags": flags, "sentences": len(sentences), "events_scored": len(gold_spans)}
    if not gold_spans or not sentences:
        return {**result, "gt_incomplete": True, "gt_incomplete_reason": "No valid text_span in ground truth",
                "boundary_score": None, "exact_matches": None, "near_misses": None, "insertions": None,
                "deletions": None, "overlap_ratio": None, "counts": dict.fromkeys(SPAN_COUNTS, 0)}
    comparison = compare_boundaries(sentence_masses(predicted_spans, sentences),
                                    sentence_masses(gold_spans, sentences), n_t)
    overlap, _ = matched_span_iou(predicted_spans, gold_spans)
    counts = {"matches": comparison.matches, "near_misses": comparison.near_misses,
              "insertions": comparison.insertions, "deletions": comparison.deletions,
              "transposition_weight": comparison.transposition_weight,
              "overlap_sum": overlap * len(gold_spans), "gold_spans": len(gold_spans)}
    return {**result, "gt_incomplete": False, "gt_incomplete_reason": None, "boundary_score": comparison.similarity,
            "exact_matches": comparison.matches, "near_misses": comparison.near_misses,
            "insertions": comparison.insertions, "deletions": comparison.deletions, "overlap_ratio": overlap,
            "counts": counts}


def text_span_metrics(counts: dict[str, float]) -> dict[str, float | None]:
    """Boundary Similarity and mean matched-span IoU from (summed) counts; None when no gold span was scored."""
    if not counts["gold_spans"]:
        return {"boundary_score": None, "overlap_ratio": None}
    denominator = counts["matches"] + counts["near_misses"] + counts["insertions"] + counts["deletions"]
    edits = counts["insertions"] + counts["deletions"] + counts["transposition_weight"]
    return {"boundary_score": (denominator - edits) / denominator if denominator else 1.0,
            "overlap_ratio": counts["overlap_sum"] / counts["gold_spans"]}
