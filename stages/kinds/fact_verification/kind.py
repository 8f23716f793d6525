"""Fact-verification kind: verdicts read as T / F / uncertain (or a label map's classes), confusion matrix and
per-class metrics."""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from ...core.arrow_strings import first_items
from ...core.distinct import in_row_order, per_distinct_text, per_distinct_value, value_counts
from ...core.param_rules import at_least
from ...core.records import Rows, as_table
from ...core.stats import Stats
from ...core.text_table import RULE, format_table, percent
from ...io.fields import get_ground_truth_answer, gold_answer_texts
from ...text.verdict import (
    UNPARSED,
    VERDICT_LABELS,
    label_map_problem,
    normalize_verdict,
    read_verdict,
    verdict_reader,
)
from ..base import SHARD_ROWS, Kind, Recognition, accuracy_scores, rank_models, register_kind
from .classification import classification_report_from_pairs
from .evidence import gold_evidence_groups, predicted_evidence_sentences
from .evidence_columns import quoted_prediction_fields, quoted_question_fields
from .fever import fever_columns, fever_metrics, fever_stats

if TYPE_CHECKING:
    import pyarrow as pa

    from ...io.quoted_numbers import QuotedFields

MISSING = "missing"
_FACT_NAMES = re.compile(r"fever|hover|fact|claim|verif", re.IGNORECASE)  # a dataset about claims, by its name
UNREADABLE_GOLD = "gold verdict not readable"


def _has_evidence(joined: pa.Table) -> bool:
    """Gold rows carry FEVER evidence: the FEVER score and evidence metrics apply."""
    return "evidence" in joined.column_names and joined.column("evidence").null_count < joined.num_rows


@register_kind("fact_verification")
class FactVerification(Kind):
    """Claims judged T / F / uncertain, or the classes of a label map; an answer that names no class is 'unparsed',
    never a guess."""
    shardable = True
    paired_metrics = {"accuracy": "binary"}
    vote_column = ("B4", "predicted_label")
    defaults = {"shard_rows": SHARD_ROWS, "label_map": {}}
    stage_params = {"B1": ("label_map",), "B3": ("label_map",)}
    headline_reject_reasons = (UNREADABLE_GOLD,)
    param_rules = {"shard_rows": at_least(1, integer=True), "label_map": label_map_problem}
    prompt_templates = {
        "en": "Is the following claim supported, refuted, or is there not enough information? Reply with exactly "
              "one of: SUPPORTS, REFUTES, NOT ENOUGH INFO.\n\nClaim: {question}\nVerdict:",
        "zh": "判断下面的说法是否成立。只回答：成立、不成立 或 证据不足。\n\n说法：{question}\n结论：",
    }
    columnar_stages = True
    status_column = "status"
    question_columns = ("evidence",)
    prediction_columns = ("predicted_evidence",)
    question_readers = {"evidence": gold_evidence_groups}
    prediction_readers = {"predicted_evidence": predicted_evidence_sentences}

    def question_types(self) -> dict[str, pa.DataType]:
        return {name: _column_types()[name] for name in self.question_columns}

    def prediction_types(self) -> dict[str, pa.DataType]:
        return {name: _column_types()[name] for name in self.prediction_columns}

    def quoted_question_fields(self) -> QuotedFields:
        return quoted_question_fields()

    def quoted_prediction_fields(self) -> QuotedFields:
        return quoted_prediction_fields()

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """Claims to verify (seed 002): every gold a verdict, in a dataset named for facts or claims or whose records
        carry a `claim`."""
        golds = [gold_answer_texts(get_ground_truth_answer(record)) for record in records]
        verdicts = bool(golds) and all(g and normalize_verdict(g[0]) != UNPARSED for g in golds)
        about_claims = _FACT_NAMES.search(dataset_name) is not None or any("claim" in r for r in records)
        return Recognition.GOLDS if verdicts and about_claims else Recognition.NO

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if not golds:
            return "no gold answer"
        reading = read_verdict(golds[0], params.get("label_map"))
        if reading.label == UNPARSED:
            classes = " / ".join(verdict_reader(params.get("label_map")).classes)
            return (f"{UNREADABLE_GOLD}: {golds[0]!r} is not {classes} ({reading.rule}; label_map in dataset.toml "
                    "[params] can map it)")
        return None

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        """check_gold on each distinct first gold (evidence is read from each value, question_readers); None when one
        is not a verdict (those rows go row by row, to be set aside with their line)."""
        import pyarrow.compute as pc

        reader = verdict_reader(params.get("label_map"))
        distinct = pc.unique(first_items(golds)).to_pylist()
        return None if any(reader.label(gold) == UNPARSED for gold in distinct) else {}

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa

        table = as_table(joined, _column_types())
        reader = verdict_reader(params["label_map"])
        gold = per_distinct_text(reader.label, first_items(table.column("golds").combine_chunks()), pa.string())
        readings, codes = per_distinct_value(lambda p: None if p is None else reader.read(p),
                                             table.column("prediction"))
        predicted = [MISSING if r is None else r.label for r in readings]
        rules = [MISSING if r is None else r.rule for r in readings]
        columns = {"id": table.column("id"), "gold_label": gold, "predicted_label": in_row_order(predicted, codes,
                                                                                                 pa.string()),
                   "rule": in_row_order(rules, codes, pa.string())}
        if _has_evidence(table):
            columns.update(evidence=table.column("evidence"), predicted_evidence=table.column("predicted_evidence")
                           if "predicted_evidence" in table.column_names else pa.nulls(table.num_rows))
        normalized = pa.table(columns)
        return normalized, {"classes": list(reader.classes),
                            "predicted_labels": value_counts(normalized.column("predicted_label")),
                            "rules": value_counts(normalized.column("rule"))}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = as_table(normalized, _column_types())
        predicted, gold = table.column("predicted_label"), table.column("gold_label")
        correct = pc.fill_null(pc.equal(predicted, gold), False)
        read = pc.invert(pc.is_in(predicted, value_set=pa.array([UNPARSED, MISSING])))
        status = pc.if_else(read, pc.if_else(correct, "correct", "wrong"), predicted)
        columns = {"id": table.column("id"), "gold_label": gold, "predicted_label": predicted,
                   "rule": table.column("rule"), "correct": correct, "status": status}
        if "evidence" in table.column_names:
            columns.update(fever_columns(gold.combine_chunks(), table.column("evidence"),
                                         table.column("predicted_evidence"), correct.combine_chunks()))
        unparsed = pc.sum(pc.equal(predicted, UNPARSED).cast("int64")).as_py() or 0
        return pa.table(columns), {"correct": pc.sum(correct.cast("int64")).as_py() or 0, "unparsed": unparsed}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        return accuracy_scores(self, as_table(matched, _column_types()))

    def score_stats(self, matched: Rows) -> Stats:
        """The confusion counts, predicted label → gold label → rows."""
        table = as_table(matched, _column_types())
        counted = table.group_by(["predicted_label", "gold_label"], use_threads=False).aggregate([([], "count_all")])
        pairs: dict[str, dict[str, int]] = {}
        for predicted, gold, count in zip(*(counted.column(name).to_pylist()
                                            for name in ("predicted_label", "gold_label", "count_all"))):
            pairs.setdefault(predicted, {})[gold] = count
        stats: Stats = {"pairs": pairs, "rules": value_counts(table.column("rule"))}
        if "strict" in table.column_names:
            stats["fever"] = fever_stats(table)
        return stats

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        pairs = Counter({(p, g): n for p, row in stats["pairs"].items() for g, n in row.items()})
        present = {label for pair in pairs for label in pair} - {*VERDICT_LABELS, UNPARSED, MISSING}
        metrics = classification_report_from_pairs(pairs, (*VERDICT_LABELS, *sorted(present), UNPARSED, MISSING))
        metrics["rules"] = dict(stats["rules"])
        if "fever" in stats:
            metrics.update(fever_metrics(stats["fever"], metrics["rows"]))
        return metrics

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        unparsed = sum(metrics["confusion_matrix"].get(UNPARSED, {}).values())
        return 1 - unparsed / metrics["rows"] if metrics["rows"] else None

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        predicted, status = matched.get("predicted_label"), matched["status"]
        strict = "" if matched.get("strict") is None else f", FEVER strict {'yes' if matched['strict'] else 'no'}"
        rule = f" by {matched['rule']}" if matched.get("rule") else ""
        return status, f"verdict {predicted}{rule} (gold {matched.get('gold_label')}){strict}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        blocks = []
        for model, m in report["models"].items():
            labels = m["labels"]
            matrix = m["confusion_matrix"]
            rows = [[p, *(str(matrix[p][t]) for t in labels), str(sum(matrix[p].values()))] for p in labels]
            rows.append(["总计", *(str(sum(matrix[p][t] for p in labels)) for t in labels), str(m["rows"])])
            per_class = [
                [label, percent(c["precision"]), percent(c["recall"]), percent(c["f1"]), str(c["support"])]
                for label, c in m["per_class"].items()
            ]
            for name in ("macro_avg", "weighted_avg"):
                avg = m[name]
                per_class.append([name, percent(avg["precision"]), percent(avg["recall"]), percent(avg["f1"]), ""])
            blocks.append(
                f"模型: {model}\n混淆矩阵 (Confusion Matrix):\n"
                + format_table(["预测 \\ 真实", *labels, "总计"], rows)
                + "\n\n各类别指标:\n"
                + format_table(["类别", "Precision", "Recall", "F1-Score", "Support"], per_class)
                + f"\n\n总体准确率 (Accuracy): {percent(m['accuracy'])}\n"
                + (f"FEVER score: {percent(m['fever_score'])}  evidence precision {percent(m['evidence_precision'])}"
                   f"  recall {percent(m['evidence_recall'])}  F1 {percent(m['evidence_f1'])}\n"
                   if "fever_score" in m else "")
                + RULE
            )
        return "\n".join(blocks)


def _column_types() -> dict[str, pa.DataType]:
    """The Arrow type of every column the stages read."""
    import pyarrow as pa

    return {"golds": pa.list_(pa.string()), "prediction": pa.string(), "gold_label": pa.string(),
            "predicted_label": pa.string(), "rule": pa.string(), "correct": pa.bool_(),
            "evidence": pa.list_(pa.list_(pa.string())), "predicted_evidence": pa.list_(pa.string()),
            "strict": pa.bool_(), "evidence_precision": pa.float64(), "evidence_recall": pa.float64()}
