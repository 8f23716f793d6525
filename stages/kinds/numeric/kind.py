"""Numeric answers kind (seed 004): numbers read once per distinct text, compared once per distinct pair, on Arrow
columns; accuracy, overall score and confidence-weighted accuracy."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...core.arrow_strings import first_items
from ...core.distinct import shared_values, value_counts
from ...core.param_rules import at_least, one_of, within
from ...core.records import Rows, as_columns, as_table
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...text.numbers import NUMBER_CHOICES
from ..base import SHARD_ROWS, Kind, rank_models, register_kind
from ..sampling import answer_groups
from .columns import readings, scores
from .scoring import LATEX_MATH, UNSCORABLE, latex_problem

if TYPE_CHECKING:
    import pyarrow as pa


def _shown(value: float | None, unit: str | None) -> str:
    """A parsed number as a reader checks it: 125000 人, 0.15 %, – for none."""
    return "–" if value is None else f"{value:.12g}{f' {unit}' if unit else ''}"


@register_kind("numeric")
class NumericAnswers(Kind):
    """Numbers with tolerance and units; a row without ground truth is unscorable, never scored."""
    paired_metrics = {"accuracy": "binary", "mean_overall": "mean"}
    vote_column = ("B4", "vote")

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
    columnar_stages = True
    param_rules = {
        "number_choice": one_of(*NUMBER_CHOICES), "abs_tol": at_least(0), "rel_tol": at_least(0),
        "numeric_weight": within(0, 1), "correct_threshold": within(0, 1), "partial_threshold": within(0, 1),
        "shard_rows": at_least(1, integer=True),
    }

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        return latex_problem(golds[0]) if golds else None  # no ground truth → unscorable in B4, counted and listed

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        """The fast path takes rows that all have gold answers; those check_gold accepts as they are, unless some
        first gold is LaTeX math (then the rows go row by row, to be set aside)."""
        import pyarrow.compute as pc

        latex = pc.match_substring_regex(first_items(golds), LATEX_MATH.pattern)
        return None if pc.any(latex).as_py() else {}

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = as_table(joined, _column_types())
        golds = table.column("golds").combine_chunks()
        columns = {"id": table.column("id"), "has_gold": pc.greater(pc.list_value_length(golds), 0)}
        for side, texts in (("gold", first_items(golds)), ("predicted", table.column("prediction"))):
            columns.update({f"{side}_{name}": values for name, values in readings(texts, params["number_choice"]).items()})
        columns["confidence"] = (table.column("confidence") if "confidence" in table.column_names
                                 else pa.nulls(table.num_rows, pa.float64()))
        normalized = pa.table(columns)
        read = pc.is_valid(normalized.column("predicted_text"))
        without = pc.sum(pc.and_(read, pc.is_null(normalized.column("predicted_value"))).cast("int64")).as_py() or 0
        return normalized, {"predictions_without_number": without,
                            "number_rules": value_counts(normalized.column("predicted_rule").filter(read))}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = as_table(normalized, _column_types())
        found = scores(table, {k: params[k] for k in self.stage_params["B4"]})
        parsed = ("gold_value", "gold_unit", "predicted_value", "predicted_unit", "predicted_rule")
        matched = pa.table({"id": table.column("id"), **{name: table.column(name) for name in parsed}, **found,
                            "confidence": table.column("confidence")})
        matched = matched.append_column("vote", _votes(table, params) if "sample" in table.column_names
                                        else table.column("predicted_value"))
        unscorable = table.column("id").filter(pc.equal(found["label"], UNSCORABLE)).to_pylist()
        return matched, {"labels": value_counts(found["label"]), "unscorable": unscorable}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        table = as_table(matched, _column_types())
        return table.select(["id", "overall", "label"]), self.metrics_from_stats(self.score_stats(table))

    def score_stats(self, matched: Rows) -> Stats:
        """Counts and sums over the scorable rows, in row order."""
        rows = as_columns(as_table(matched, _column_types()).select(
            ["label", "exact_match", "numeric_match", "overall", "confidence"]))
        scorable = [i for i, label in enumerate(rows["label"]) if label != UNSCORABLE]
        correct = {i: rows["label"][i] == "correct" for i in scorable}
        weighted = [(rows["confidence"][i], correct[i]) for i in scorable if rows["confidence"][i] is not None]
        return {
            "rows": len(rows["label"]), "scorable": len(scorable), "correct": sum(correct.values()),
            "partial": sum(rows["label"][i] == "partial" for i in scorable),
            "exact_match": sum(bool(rows["exact_match"][i]) for i in scorable),
            "numeric_match": sum(bool(rows["numeric_match"][i]) for i in scorable),
            "overall": sum(rows["overall"][i] or 0.0 for i in scorable),
            "confidence": sum(w for w, _ in weighted), "confidence_correct": sum(w * c for w, c in weighted),
            "labels": dict(Counter(rows["label"])),
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

    item_score_columns = ("label", "overall")

    def item_scores(self, scored: Rows) -> dict[str, list[float | None]]:
        """Accuracy and overall score per scorable item; unscorable items are null, as they are outside the means."""
        scored = as_columns(scored)
        scorable = [label != UNSCORABLE for label in scored["label"]]
        return {"accuracy": shared_values([float(label == "correct") if ok else None
                                           for ok, label in zip(scorable, scored["label"])]),
                "mean_overall": shared_values([(overall or 0.0) if ok else None
                                               for ok, overall in zip(scorable, scored["overall"])])}

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


def _votes(table: pa.Table, params: dict[str, Any]) -> pa.Array:
    """Each number read from a reply as the first of its item's numbers within tolerance of it (abs_tol, rel_tol of
    that first one): the answers maj@k counts."""
    import pyarrow as pa

    def close(pairs: list[tuple[float, float]]) -> list[bool]:
        return [abs(a - b) <= max(params["abs_tol"], params["rel_tol"] * abs(a)) for a, b in pairs]

    return pa.array(answer_groups(table.column("id").to_pylist(), table.column("predicted_value").to_pylist(), close),
                    pa.float64())


def _column_types() -> dict[str, pa.DataType]:
    """The Arrow type of every column the stages read."""
    import pyarrow as pa

    return {"golds": pa.list_(pa.string()), "prediction": pa.string(), "confidence": pa.float64(),
            "has_gold": pa.bool_(), "gold_value": pa.float64(), "gold_text": pa.string(),
            "predicted_value": pa.float64(), "predicted_text": pa.string(), "label": pa.string(),
            "exact_match": pa.bool_(), "numeric_match": pa.bool_(), "overall": pa.float64(), "vote": pa.float64()}
