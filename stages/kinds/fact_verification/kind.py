"""Fact-verification kind: verdicts read as T / F / uncertain (or a label map's classes), confusion matrix and
per-class metrics."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.distinct import per_distinct_row
from ...core.param_rules import at_least
from ...core.records import Columns
from ...core.stats import Stats
from ...core.text_table import RULE, format_table, percent
from ...text.verdict import UNPARSED, VERDICT_LABELS, label_map_problem, read_verdict, verdict_reader
from ..base import SHARD_ROWS, Kind, rank_models, register_kind
from .classification import classification_report_from_pairs
from .evidence import gold_evidence_groups, predicted_evidence_sentences
from .fever import fever_columns, fever_metrics, fever_stats

MISSING = "missing"
UNREADABLE_GOLD = "gold verdict not readable"


def _has_evidence(joined: Columns) -> bool:
    """Gold rows carry FEVER evidence: the FEVER score and evidence metrics apply."""
    return any(groups is not None for groups in joined.get("evidence") or [])


@register_kind("fact_verification")
class FactVerification(Kind):
    """Claims judged T / F / uncertain, or the classes of a label map; an answer that names no class is 'unparsed',
    never a guess."""
    shardable = True
    paired_metrics = {"accuracy": "binary"}
    defaults = {"shard_rows": SHARD_ROWS, "label_map": {}}
    stage_params = {"B1": ("label_map",), "B3": ("label_map",)}
    headline_reject_reasons = (UNREADABLE_GOLD,)
    param_rules = {"shard_rows": at_least(1, integer=True), "label_map": label_map_problem}
    prompt_templates = {
        "en": "Is the following claim supported, refuted, or is there not enough information? Reply with exactly "
              "one of: SUPPORTS, REFUTES, NOT ENOUGH INFO.\n\nClaim: {question}\nVerdict:",
        "zh": "判断下面的说法是否成立。只回答：成立、不成立 或 证据不足。\n\n说法：{question}\n结论：",
    }
    question_columns = ("evidence",)
    prediction_columns = ("predicted_evidence",)

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        return {"evidence": gold_evidence_groups(record.get("evidence"))}

    def prediction_fields(self, record: dict) -> dict[str, Any]:
        return {"predicted_evidence": predicted_evidence_sentences(record.get("predicted_evidence"))}

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if not golds:
            return "no gold answer"
        reading = read_verdict(golds[0], params.get("label_map"))
        if reading.label == UNPARSED:
            classes = " / ".join(verdict_reader(params.get("label_map")).classes)
            return (f"{UNREADABLE_GOLD}: {golds[0]!r} is not {classes} ({reading.rule}; label_map in dataset.toml "
                    "[params] can map it)")
        return None

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        reader = verdict_reader(params["label_map"])
        gold = per_distinct_row(reader.label, [golds[0] for golds in joined["golds"]])
        readings = per_distinct_row(lambda p: None if p is None else reader.read(str(p)), joined["prediction"])
        predicted = [MISSING if r is None else r.label for r in readings]
        rules = [MISSING if r is None else r.rule for r in readings]
        columns = {"id": joined["id"], "gold_label": gold, "predicted_label": predicted, "rule": rules}
        if _has_evidence(joined):
            columns.update(evidence=joined["evidence"], predicted_evidence=joined.get("predicted_evidence") or
                           [None] * len(gold))
        return columns, {"classes": list(reader.classes), "predicted_labels": dict(Counter(predicted)),
                         "rules": dict(Counter(rules))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        correct = [p == g for p, g in zip(normalized["predicted_label"], normalized["gold_label"])]
        columns = {name: values for name, values in normalized.items() if name not in ("evidence",
                                                                                         "predicted_evidence")}
        columns["correct"] = correct
        if "evidence" in normalized:
            columns.update(fever_columns(normalized["gold_label"], normalized["evidence"],
                                         normalized["predicted_evidence"], correct))
        return columns, {"correct": sum(correct), "unparsed": normalized["predicted_label"].count(UNPARSED)}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        columns = {"id": matched["id"], "accuracy": [1.0 if c else 0.0 for c in matched["correct"]]}
        return columns, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        """The confusion counts, predicted label → gold label → rows."""
        pairs: dict[str, dict[str, int]] = {}
        for (predicted, gold), count in Counter(zip(matched["predicted_label"], matched["gold_label"])).items():
            pairs.setdefault(predicted, {})[gold] = count
        stats: Stats = {"pairs": pairs, "rules": dict(Counter(matched["rule"]))}
        if "strict" in matched:
            stats["fever"] = fever_stats(matched)
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
        predicted = matched.get("predicted_label")
        status = predicted if predicted in (UNPARSED, MISSING) else ("correct" if matched.get("correct") else "wrong")
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
