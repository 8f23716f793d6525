"""A pairwise judge's biases, per judge model: position (how often its choice survives swapping the answers, and
among order pairs that do not, how often it followed position A) and length (among its decisive outcomes on answers
of different length, how often it preferred the longer) — and the same length preference of people, side by side."""
from __future__ import annotations

from typing import Any

from .pairwise import PairwiseCall, winner
from .verdicts import parse_verdict


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def length_preference(decisions: list[tuple[str, int, int]]) -> dict[str, Any]:
    """Among (outcome, first's characters, second's characters) with a winner and answers of different length: n
    and the share where the longer answer won."""
    different = [(outcome, a, b) for outcome, a, b in decisions if outcome in ("first", "second") and a != b]
    longer = sum((outcome == "first") == (a > b) for outcome, a, b in different)
    return {"n": len(different), "longer_preferred": _share(longer, len(different))}


def judge_biases(calls: list[PairwiseCall], records: dict[str, dict[str, Any]],
                 characters: dict[tuple[str, str], int], scale: str = "preference") -> dict[str, dict[str, Any]]:
    """Per judge model over its order pairs (both orders of one pair, item and sample, both parsed): position
    consistency, and among the pairs whose choice flipped, the share that chose A both times (followed position A)
    and B both times; its length preference over the pairs it decided. `characters`: (model, item) → length."""
    slots: dict[tuple[str, str, str, str, int], list[str | None]] = {}
    for call in calls:
        record = records.get(call.key, {})
        label = parse_verdict(record["prediction"], scale).label if "prediction" in record else None
        slots.setdefault((call.judge, call.first, call.second, call.item, call.sample), [None, None])[call.order] = label
    found: dict[str, dict[str, Any]] = {}
    for (judge, first, second, item, _), labels in slots.items():
        tally = found.setdefault(judge, {"order_pairs": 0, "consistent": 0, "flipped": 0, "followed_a": 0,
                                         "followed_b": 0, "decisions": []})
        if None in labels:
            continue
        picked = [winner(label, order) for order, label in enumerate(labels)]
        tally["order_pairs"] += 1
        if picked[0] == picked[1]:
            tally["consistent"] += 1
            tally["decisions"].append((picked[0], characters[(first, item)], characters[(second, item)]))
        else:
            tally["flipped"] += 1
            tally["followed_a"] += labels == ["A", "A"]
            tally["followed_b"] += labels == ["B", "B"]
    return {judge: {"order_pairs": t["order_pairs"], "position_consistency": _share(t["consistent"], t["order_pairs"]),
                    "flipped": t["flipped"], "followed_a": _share(t["followed_a"], t["flipped"]),
                    "followed_b": _share(t["followed_b"], t["flipped"]), "length": length_preference(t["decisions"])}
            for judge, t in found.items()}
