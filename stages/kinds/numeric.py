"""Numeric answers (seed 004): tolerance match, proportional similarity, 70/30 numeric/text, correct/partial/wrong."""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from ..core.param_rules import at_least, one_of, within
from ..core.records import Columns
from ..core.stats import Stats, share
from ..core.text_table import format_table, percent
from ..text.numbers import NUMBER_CHOICES, NumberReading, numbers_in_prepared, prepare, reading_among
from .base import SHARD_ROWS, Kind, rank_models, register_kind

if TYPE_CHECKING:
    import pyarrow as pa

UNSCORABLE = "unscorable"
MISSING = "missing"


def numeric_answer(text: str, choice: str = "auto") -> tuple[NumberReading, str]:
    """(the answer's number with its unit and the rule that chose it, normalized text): lowercase, numbers in
    canonical form, no punctuation."""
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


def _shown(value: float | None, unit: str | None) -> str:
    """A parsed number as a reader checks it: 125000 人, 0.15 %, – for none."""
    return "–" if value is None else f"{value:.12g}{f' {unit}' if unit else ''}"


@register_kind("numeric")
class NumericAnswers(Kind):
    """Numbers with tolerance and units; a row without ground truth is unscorable, never scored."""
    paired_metrics = {"accuracy": "binary", "mean_overall": "mean"}

    defaults = {
        "number_choice": "auto", "abs_tol": 0.01, "rel_tol": 0.0, "numeric_weight": 0.7,
        "correct_threshold": 0.8, "partial_threshold": 0.5, "baseline_model": "", "shard_rows": SHARD_ROWS,
    }
    stage_params = {
        "B3": ("number_choice",),
        "B4": ("abs_tol", "rel_tol", "numeric_weight", "correct_threshold", "partial_threshold"),
        "B6": ("baseline_model",),
    }
    prompt_templates = {
        "en": "Answer with a single number (and its unit, if it has one).\n\nQuestion: {question}\nAnswer:",
        "zh": "请只用一个数字回答（有单位时带上单位）。\n\n问题：{question}\n答案：",
    }
    shardable = True
    status_column = "label"
    param_rules = {
        "number_choice": one_of(*NUMBER_CHOICES), "abs_tol": at_least(0), "rel_tol": at_least(0),
        "numeric_weight": within(0, 1), "correct_threshold": within(0, 1), "partial_threshold": within(0, 1),
        "shard_rows": at_least(1, integer=True),
    }

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        return None  # no ground truth → unscorable in B4, counted and listed

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        return {}  # the fast path takes rows that all have gold answers, which check_gold accepts as they are

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        nothing = (NumberReading(None, None, MISSING), None)
        gold = [numeric_answer(golds[0], params["number_choice"]) if golds else nothing for golds in joined["golds"]]
        predicted = [nothing if p is None else numeric_answer(p, params["number_choice"]) for p in joined["prediction"]]
        columns = {"id": joined["id"], "has_gold": [bool(g) for g in joined["golds"]]}
        for side, readings in (("gold", gold), ("predicted", predicted)):
            columns.update({f"{side}_value": [r.value for r, _ in readings], f"{side}_unit": [r.unit for r, _ in readings],
                            f"{side}_rule": [r.rule for r, _ in readings], f"{side}_text": [t for _, t in readings]})
        columns["confidence"] = joined.get("confidence", [None] * len(joined["id"]))
        without = sum(r.value is None and t is not None for r, t in predicted)
        return columns, {"predictions_without_number": without,
                         "number_rules": dict(Counter(r.rule for r, t in predicted if t is not None))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        tolerances = {k: params[k] for k in self.stage_params["B4"]}
        rows = []
        for i in range(len(normalized["id"])):
            if not normalized["has_gold"][i]:
                rows.append({"label": UNSCORABLE})
            elif normalized["predicted_text"][i] is None:
                rows.append({"label": MISSING, "overall": 0.0})
            else:
                rows.append(score_numeric(normalized["gold_value"][i], normalized["gold_text"][i],
                                          normalized["predicted_value"][i], normalized["predicted_text"][i],
                                          **tolerances))
        names = ("exact_match", "numeric_match", "numeric_similarity", "text_similarity", "overall", "label")
        parsed = ("gold_value", "gold_unit", "predicted_value", "predicted_unit", "predicted_rule")
        columns = {"id": normalized["id"], **{n: normalized.get(n, [None] * len(rows)) for n in parsed},
                   **{n: [row.get(n) for row in rows] for n in names}, "confidence": normalized["confidence"]}
        unscorable = [i for i, row in zip(normalized["id"], rows) if row["label"] == UNSCORABLE]
        return columns, {"labels": dict(Counter(columns["label"])), "unscorable": unscorable}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        columns = {"id": matched["id"], "overall": matched["overall"], "label": matched["label"]}
        return columns, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        scorable = [i for i, label in enumerate(matched["label"]) if label != UNSCORABLE]
        correct = {i: matched["label"][i] == "correct" for i in scorable}
        weighted = [(matched["confidence"][i], correct[i]) for i in scorable
                    if isinstance(matched["confidence"][i], (int, float))]
        return {
            "rows": len(matched["id"]), "scorable": len(scorable), "correct": sum(correct.values()),
            "partial": sum(matched["label"][i] == "partial" for i in scorable),
            "exact_match": sum(bool(matched["exact_match"][i]) for i in scorable),
            "numeric_match": sum(bool(matched["numeric_match"][i]) for i in scorable),
            "overall": sum(matched["overall"][i] or 0.0 for i in scorable),
            "confidence": sum(w for w, _ in weighted), "confidence_correct": sum(w * c for w, c in weighted),
            "labels": dict(Counter(matched["label"])),
        }

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        scorable = stats["scorable"]
        return {
            "rows": stats["rows"], "scorable": scorable, "unscorable": stats["rows"] - scorable,
            "accuracy": share(stats["correct"], scorable), "partial_rate": share(stats["partial"], scorable),
            "exact_match": share(stats["exact_match"], scorable),
            "numeric_match": share(stats["numeric_match"], scorable),
            "mean_overall": share(stats["overall"], scorable),
            "confidence_weighted_accuracy": share(stats["confidence_correct"], stats["confidence"]),
            "labels": dict(stats["labels"]),
        }

    def item_scores(self, scored: Columns) -> dict[str, list[float | None]]:
        """Accuracy and overall score per scorable item; unscorable items are null, as they are outside the means."""
        scorable = [label != UNSCORABLE for label in scored["label"]]
        return {"accuracy": [float(label == "correct") if ok else None for ok, label in zip(scorable, scored["label"])],
                "mean_overall": [(overall or 0.0) if ok else None for ok, overall in zip(scorable, scored["overall"])]}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        overall = matched.get("overall")
        read = (f"read {_shown(matched.get('predicted_value'), matched.get('predicted_unit'))} by "
                f"{matched.get('predicted_rule')} (gold {_shown(matched.get('gold_value'), matched.get('gold_unit'))})")
        return matched.get("label", "missing"), read if overall is None else f"{read}, overall {overall:.2f}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        comparison = rank_models(metrics_by_model, "accuracy")
        baseline = params.get("baseline_model")
        if baseline and baseline in metrics_by_model:
            base = metrics_by_model[baseline]
            comparison["baseline"] = baseline
            comparison["vs_baseline"] = {
                model: {k: (m[k] - base[k]) if m[k] is not None and base[k] is not None else None
                        for k in ("accuracy", "mean_overall")}
                for model, m in metrics_by_model.items() if model != baseline
            }
        elif baseline:
            comparison["baseline_missing"] = baseline
        return comparison

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        vs = report["comparison"].get("vs_baseline", {})
        rows = [
            [model, str(m["scorable"]), str(m["unscorable"]), percent(m["accuracy"]), percent(m["partial_rate"]),
             percent(m["numeric_match"]), percent(m["confidence_weighted_accuracy"]),
             percent(vs[model]["accuracy"]) if model in vs else "-"]
            for model, m in report["models"].items()
        ]
        header = ["model", "scorable", "unscorable", "Accuracy", "Partial", "Numeric match", "Conf-weighted",
                  f"Δ vs {report['comparison'].get('baseline', 'baseline')}"]
        return format_table(header, rows)
