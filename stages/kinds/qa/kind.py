"""Open QA kind: exact match and token F1 against the best of several gold answers, on whole Arrow tables."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.distinct import value_counts
from ...core.param_rules import at_least, one_of, within
from ...core.records import Rows, as_table
from ...core.stats import Stats, running_total, share
from ...core.text_table import format_table, percent
from ...text.normalize import QA_MODES
from ..base import SHARD_ROWS, Kind, Recognition, rank_models, register_kind
from .columns import match_table, normalize_table

if TYPE_CHECKING:
    import pyarrow as pa


@register_kind("qa")
class OpenQA(Kind):
    """Open QA: EM and F1 per SQuAD v1.1 (or HotpotQA / CJK modes)."""
    paired_metrics = {"exact_match": "binary", "f1": "mean"}
    vote_column = ("B3", "prediction_norm")
    headline_metrics = ("exact_match", "f1")

    defaults = {"mode": "auto", "partial_f1_threshold": 0.5, "blank_gold": "set_aside", "shard_rows": SHARD_ROWS}
    stage_params = {"B1": ("blank_gold",), "B3": ("mode",), "B4": ("partial_f1_threshold",)}
    prompt_templates = {
        "en": "Answer the question with a short phrase. Reply with the answer only.\n\nQuestion: {question}\nAnswer:",
        "zh": "请用简短的词语回答下面的问题，只给出答案。\n\n问题：{question}\n答案：",
    }
    param_rules = {"mode": one_of("auto", *QA_MODES), "partial_f1_threshold": within(0, 1),
                   "blank_gold": one_of("set_aside", "empty_answer"), "shard_rows": at_least(1, integer=True)}
    shardable = True
    status_column = "label"
    columnar_stages = True

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """Any records: a dataset no other kind recognizes is open questions."""
        return Recognition.FALLBACK

    def golds_when_blank(self, params: dict[str, Any]) -> list[str]:
        """blank_gold = "empty_answer": a gold that is there but blank ("", [""], []) is the empty answer, scored as
        lm-eval and SQuAD 2.0 score it (only an empty reply matches); "set_aside" (default): the row is set aside."""
        return [""] if params.get("blank_gold", self.defaults["blank_gold"]) == "empty_answer" else []

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        table = normalize_table(as_table(joined), params["mode"])
        return table, {"mode": params["mode"], "rows_by_mode": value_counts(table.column("mode"))}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        table = match_table(as_table(normalized), params["partial_f1_threshold"])
        return table, {"labels": value_counts(table.column("label"))}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        table = as_table(matched)
        return table.select(["id", "exact_match", "f1"]), self.metrics_from_stats(self.score_stats(table))

    def score_stats(self, matched: Rows) -> Stats:
        table = as_table(matched)
        return {"rows": table.num_rows, "exact_match": running_total(table.column("exact_match")),
                "f1": running_total(table.column("f1")), "labels": value_counts(table.column("label"))}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows = stats["rows"]
        return {"rows": rows, "exact_match": share(stats["exact_match"], rows), "f1": share(stats["f1"], rows),
                "labels": dict(stats["labels"])}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        best = matched.get("best_gold_text")
        against = f"gold {best!r}" if best is not None else f"gold #{matched.get('best_gold')}"
        return matched.get("label", "missing"), f"F1 {matched.get('f1', 0.0):.2f} against {against}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "f1")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [
            [model, str(m["rows"]), percent(m["exact_match"]), percent(m["f1"]), str(m["labels"].get("missing", 0))]
            for model, m in report["models"].items()
        ]
        return format_table(["model", "样本数", "Exact Match (EM)", "F1 Score", "missing"], rows)

