"""Open QA per row: token F1, and EM / F1 of a prediction against the best of several gold answers."""
from __future__ import annotations

from collections import Counter

from ...text.cmrc import cmrc_em_f1
from ...text.normalize import NORMALIZERS, QA_MODES

_HOTPOT_SPECIAL = frozenset({"yes", "no", "noanswer"})


def token_f1(prediction: str, gold: str, mode: str = "squad") -> float:
    """Token-overlap F1 of two normalized answers (multiset overlap); HotpotQA's yes/no/noanswer rule in 'hotpot'."""
    if mode == "hotpot" and prediction != gold and (prediction in _HOTPOT_SPECIAL or gold in _HOTPOT_SPECIAL):
        return 0.0
    prediction_tokens = prediction.split()
    gold_tokens = gold.split()
    same = _multiset_overlap(prediction_tokens, gold_tokens)
    if same == 0:
        return 0.0
    precision = 1.0 * same / len(prediction_tokens)
    recall = 1.0 * same / len(gold_tokens)
    return (2 * precision * recall) / (precision + recall)


def _multiset_overlap(first: list[str], second: list[str]) -> int:
    """Size of the multiset intersection (what sum((Counter(a) & Counter(b)).values()) computes)."""
    if not first or not second or set(first).isdisjoint(second):
        return 0
    remaining = Counter(second)
    same = 0
    for token in first:
        count = remaining.get(token, 0)
        if count:
            remaining[token] = count - 1
            same += 1
    return same


def match_normalized(prediction: str, golds: list[str], mode: str) -> tuple[float, float, int]:
    """(em, f1, index of the gold with the best F1) for a normalized prediction against normalized golds."""
    if mode == "cmrc":
        return cmrc_em_f1(prediction, golds)
    em = 1.0 if prediction in golds else 0.0
    best_f1, best_index = 0.0, 0
    seen: set[str] = set()
    for index, gold in enumerate(golds):
        if gold in seen:
            continue
        seen.add(gold)
        f1 = 1.0 if prediction == gold and prediction else token_f1(prediction, gold, mode)
        if f1 > best_f1:
            best_f1, best_index = f1, index
    if em and best_f1 < 1.0:
        best_index = golds.index(prediction)
    return em, best_f1, best_index


def qa_em_f1(prediction: str | None, golds: list[str], mode: str = "squad") -> tuple[float, float]:
    """(EM, F1) of one prediction, each the max over gold answers; a missing prediction scores (0, 0)."""
    if mode not in QA_MODES:
        raise ValueError(f"unknown QA mode {mode!r} (use one of {', '.join(QA_MODES)})")
    if prediction is None or not golds:
        return 0.0, 0.0
    normalize = NORMALIZERS[mode]
    em, f1, _ = match_normalized(normalize(prediction), [normalize(gold) for gold in golds], mode)
    return em, f1
