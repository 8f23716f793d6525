"""Numeric answers per row (seed 004): an answer's number and normalized text, and the comparison of two answers —
tolerance match, proportional similarity, 70/30 numeric/text, correct / partial / wrong."""
from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz

from ...text.numbers import NumberReading, numbers_in_prepared, prepare, reading_among

UNSCORABLE = "unscorable"
MISSING = "missing"
LATEX_MATH = re.compile(r"\\[A-Za-z]+|\^|[{}]")  # \frac, \sqrt, \boxed, powers, braces: not read digit by digit
LATEX_RULE = 'latex math, not read as a number (kind = "math" compares it)'


def latex_problem(text: str) -> str | None:
    """Why a gold answer cannot be read by the numeric kind: it is LaTeX math (None when it is not)."""
    if LATEX_MATH.search(text) is None:
        return None
    return f'gold {text[:80]!r} is LaTeX math, not a number: set kind = "math" in dataset.toml to compare it'


def numeric_answer(text: str, choice: str = "auto") -> tuple[NumberReading, str]:
    """(the answer's number with its unit and the rule that chose it, normalized text): lowercase, numbers in
    canonical form, no punctuation."""
    if LATEX_MATH.search(text) is not None:
        return NumberReading(None, None, LATEX_RULE), " ".join(text.lower().split())
    prepared = prepare(text)
    mentions = numbers_in_prepared(prepared)
    pieces, position = [], 0
    for mention in mentions:
        pieces.append(prepared[position:mention.start])
        pieces.append(f" {mention.value:.12g} ")
        position = mention.end
    pieces.append(prepared[position:])
    normalized = re.sub(r"[^\w\s.+-]|[.+-](?!\d)", " ", "".join(pieces).lower())
    return reading_among(prepared, mentions, choice), " ".join(normalized.split())


def score_numeric(gold_value: float | None, gold_text: str, predicted_value: float | None, predicted_text: str,
                  abs_tol: float = 0.01, rel_tol: float = 0.0, numeric_weight: float = 0.7,
                  correct_threshold: float = 0.8, partial_threshold: float = 0.5) -> dict[str, Any]:
    """Seed 004's comparison of two normalized answers and their numbers. When both hold a number, only a match
    within tolerance is correct: a near miss (1234561 for 1234569) is at most partial, however close."""
    both = gold_value is not None and predicted_value is not None
    numeric_match = both and abs(gold_value - predicted_value) <= max(abs_tol, rel_tol * abs(gold_value))
    if not both:
        numeric_similarity = None
    elif numeric_match:
        numeric_similarity = 1.0
    else:
        scale = max(abs(gold_value), abs(predicted_value))
        numeric_similarity = max(0.0, 1.0 - abs(gold_value - predicted_value) / scale) if scale else 1.0
    text_similarity = fuzz.ratio(gold_text, predicted_text) / 100
    exact_match = gold_text == predicted_text
    if both:
        overall = numeric_weight * numeric_similarity + (1 - numeric_weight) * text_similarity
    else:
        overall = text_similarity
    if exact_match or numeric_match or (not both and overall > correct_threshold):
        label = "correct"
    elif overall > partial_threshold:
        label = "partial"
    else:
        label = "wrong"
    return {
        "exact_match": exact_match, "numeric_match": bool(numeric_match), "numeric_similarity": numeric_similarity,
        "text_similarity": text_similarity, "overall": overall, "label": label,
        "gold_value": gold_value, "predicted_value": predicted_value,
    }


def compare_numeric(golden: str, prediction: str, abs_tol: float = 0.01, rel_tol: float | None = None,
                    numeric_weight: float = 0.7, correct_threshold: float = 0.8, partial_threshold: float = 0.5,
                    number_choice: str = "auto") -> dict[str, Any]:
    """exact_match, numeric_match (within abs_tol or rel_tol), numeric_similarity, text_similarity, overall
    (numeric_weight × numeric + rest × text when both hold a number, else text) and label: correct, partial
    (overall > partial_threshold) or wrong. With numbers on both sides correct means within tolerance."""
    gold, gold_text = numeric_answer(golden, number_choice)
    predicted, predicted_text = numeric_answer(prediction, number_choice)
    scores = score_numeric(gold.value, gold_text, predicted.value, predicted_text, abs_tol, rel_tol or 0.0,
                           numeric_weight, correct_threshold, partial_threshold)
    return {**scores, "gold_unit": gold.unit, "predicted_unit": predicted.unit, "gold_rule": gold.rule,
            "predicted_rule": predicted.rule}
