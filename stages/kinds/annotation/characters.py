"""Characters (seed 001 §3.2.2): match by name or alias, precision / recall / F1, archetype accuracy."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.ratios import prefixed_precision_recall_f1, ratio
from .document import character_keys, characters_of, handle_missing_ground_truth, is_empty, normalize_label


def match_characters(predicted: list[dict], gold: list[dict]) -> list[tuple[int, int]]:
    """One-to-one (prediction, gold) index pairs sharing a name or alias; same-name pairs are preferred."""
    from scipy.optimize import linear_sum_assignment
    if not predicted or not gold:
        return []
    predicted_keys = [character_keys(c) for c in predicted]
    gold_keys = [character_keys(c) for c in gold]
    predicted_names = [normalize_label(c.get("name") or "") for c in predicted]
    gold_names = [normalize_label(c.get("name") or "") for c in gold]
    scores = [[(2 if pn and pn == gn else 1) if pk & gk else 0 for gk, gn in zip(gold_keys, gold_names)]
              for pk, pn in zip(predicted_keys, predicted_names)]
    rows, columns = linear_sum_assignment(scores, maximize=True)
    return sorted((int(r), int(c)) for r, c in zip(rows, columns) if scores[r][c] > 0)


def character_metrics(counts: dict[str, int]) -> dict[str, float | None]:
    """The seed's character metrics from (summed) counts."""
    return {
        **prefixed_precision_recall_f1("character", counts),
        "character_archetype_accuracy": ratio(counts["archetype_correct"], counts["archetype_total"]),
    }


def _display_name(character: dict) -> str:
    return str(character.get("name") or next(iter(character_keys(character)), ""))


def evaluate_characters(prediction: dict[str, Any], ground_truth: dict[str, Any]) -> dict[str, Any]:
    """Character precision, recall, F1 and archetype accuracy; when the gold list is empty the predicted characters
    are reported as extra but not counted (gt_incomplete)."""
    predicted, gold = characters_of(prediction), characters_of(ground_truth)
    status = handle_missing_ground_truth(predicted, gold, "characters")
    pairs = match_characters(predicted, gold)
    matched_predicted = {p for p, _ in pairs}
    matched_gold = {g for _, g in pairs}
    archetype_correct = archetype_total = 0
    archetype_errors = []
    for p, g in pairs:
        gold_archetype = gold[g].get("archetype")
        if is_empty(gold_archetype):
            continue
        archetype_total += 1
        predicted_archetype = predicted[p].get("archetype")
        if not is_empty(predicted_archetype) and normalize_label(predicted_archetype) == normalize_label(gold_archetype):
            archetype_correct += 1
        else:
            archetype_errors.append({"character": _display_name(gold[g]), "expected": gold_archetype,
                                     "predicted": predicted_archetype})
    gt_incomplete = is_empty(gold)
    extra = [_display_name(c) for i, c in enumerate(predicted) if i not in matched_predicted]
    counts = {
        "tp": len(pairs),
        "fp": 0 if gt_incomplete else len(extra),
        "fn": len(gold) - len(pairs),
        "archetype_correct": archetype_correct,
        "archetype_total": archetype_total,
    }
    return {
        **character_metrics(counts),
        "missing_characters": [_display_name(c) for i, c in enumerate(gold) if i not in matched_gold],
        "extra_characters": extra,
        "matched_characters": [[_display_name(predicted[p]), _display_name(gold[g])] for p, g in pairs],
        "archetype_errors": archetype_errors,
        "status": status["status"],
        "gt_incomplete": gt_incomplete,
        "gt_incomplete_reason": "Ground truth has no characters; predicted characters are not counted as errors"
        if gt_incomplete else None,
        "counts": counts,
    }


def name_resolvers(prediction: dict[str, Any], ground_truth: dict[str, Any]) -> tuple[Callable, Callable]:
    """Functions mapping a name as written in the prediction / the ground truth to one canonical form: the gold
    character's name when the name or alias is known, else the normalized name itself."""
    predicted, gold = characters_of(prediction), characters_of(ground_truth)
    gold_names: dict[str, str] = {}
    for character in gold:
        canonical = normalize_label(_display_name(character))
        for key in character_keys(character):
            gold_names.setdefault(key, canonical)
    predicted_names = dict(gold_names)
    for p, g in match_characters(predicted, gold):
        canonical = normalize_label(_display_name(gold[g]))
        for key in character_keys(predicted[p]):
            predicted_names.setdefault(key, canonical)

    def resolve_with(table: dict[str, str]) -> Callable[[Any], str]:
        def resolve(name: Any) -> str:
            key = normalize_label(name) if not is_empty(name) else ""
            return table.get(key, key)

        return resolve

    return resolve_with(predicted_names), resolve_with(gold_names)
