"""Function-calling kind: BFCL's items scored as bfcl-eval scores them — replies decoded, the AST checker or the
relevance rule per item, accuracy per category and BFCL's summary."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ...core.records import Columns, LoadResult
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...text.reasoning import UNFINISHED
from ..base import Kind, Recognition, rank_models, register_kind
from .call_text import NO_CALL, calls_text
from .files import decoded_reply, load_items, load_replies
from .live import ask_items
from .modes import mode_names
from .summary import bfcl_summary, by_category
from .verdicts import item_verdict

SUMMARY_COLUMNS = (("non_live_ast", "Non-Live AST"), ("live", "Live"), ("multi_turn", "Multi Turn"),
                   ("relevance", "Relevance"), ("irrelevance", "Irrelevance"), ("overall", "Overall"))


@register_kind("function_calling")
class FunctionCalling(Kind):
    """Function calls checked against BFCL's possible answers (Berkeley Function Calling Leaderboard)."""

    paired_metrics = {"accuracy": "binary"}
    status_column = "status"
    question_columns = ("category", "language", "functions", "answer", "episode", "messages")
    defaults = {"bfcl_data": ""}  # BFCL's data folder, for the multi-turn function docs (multi_turn_func_doc/)
    stage_params = {"B1": ("bfcl_data",)}
    generate_modes = mode_names()
    prediction_columns = ("reply_format",)

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """BFCL's items: every record carries `question` and `function` (or a multi-turn item's
        `involved_classes`)."""
        return Recognition.FIELDS if records and all("question" in record and (
            "function" in record or "involved_classes" in record) for record in records) else Recognition.NO

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        return load_items(path, fields, params)

    def load_predictions(self, path: Path, fields: dict[str, str | None], rows: range | None = None) -> LoadResult:
        return load_replies(path, fields)

    def ask(self, questions: Columns, config: Any, model: str, journal: Path,
            user: Any = None) -> tuple[LoadResult, dict[str, Any]]:
        """Each item asked as BFCL asks it: with its functions as `tools` or in BFCL's system prompt (mode =
        "prompt"); a multi-turn item as an agent loop on BFCL's mock APIs."""
        return ask_items(questions, config, model, journal)

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B3: each reply as B2 kept it (none when missing or ending inside its reasoning), with its item's docs."""
        rows = len(joined["id"])
        states = joined.get("reasoning") or [None] * rows
        formats = joined.get("reply_format") or [None] * rows
        replies = [None if state == UNFINISHED else reply for reply, state in zip(joined["prediction"], states)]
        normalized = {"id": joined["id"], "category": joined["category"], "language": joined["language"],
                      "functions": joined["functions"], "answer": joined["answer"], "episode": joined["episode"],
                      "messages": joined.get("messages") or [None] * rows, "reply": replies,
                      "reply_format": formats}
        return normalized, {"without_reply": sum(reply is None for reply in replies),
                            "reply_formats": dict(Counter(f for f, r in zip(formats, replies) if r is not None))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B4: per item bfcl-eval's verdict — valid, its error_type and a short reason — and the calls decoded; of a
        multi-turn episode each turn's calls with their results and the turn's verdict (`turns`, for the report)."""
        matched: Columns = {name: [] for name in ("id", "category", "valid", "error_type", "reason", "decoded",
                                                  "turns", "status")}
        for row_id, category, functions, answer, episode, reply, reply_format in zip(
                normalized["id"], normalized["category"], normalized["functions"], normalized["answer"],
                normalized["episode"], normalized["reply"], normalized["reply_format"]):
            if reply is None:
                verdict, decoded, status = None, None, "missing"
            else:
                verdict, decoded = item_verdict(category, json.loads(functions),
                                                None if answer is None else json.loads(answer),
                                                decoded_reply(reply, reply_format), reply_format,
                                                None if episode is None else json.loads(episode))
                status = "correct" if verdict.valid else "unparsed" if verdict.error_type and \
                    verdict.error_type.startswith("ast_decoder") else "wrong"
            matched["id"].append(row_id)
            matched["category"].append(category)
            matched["valid"].append(bool(verdict and verdict.valid))
            matched["error_type"].append(verdict.error_type if verdict else "no_reply")
            matched["reason"].append(verdict.reason if verdict else "no reply")
            matched["decoded"].append(None if decoded is None else repr(decoded))
            matched["turns"].append(None if verdict is None or verdict.turns is None else
                                    json.dumps(verdict.turns, ensure_ascii=False))
            matched["status"].append(status)
        return matched, {"statuses": dict(Counter(matched["status"])),
                         "error_types": dict(Counter(e for e in matched["error_type"] if e))}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        scored = {"id": matched["id"], "category": matched["category"],
                  "accuracy": [1.0 if valid else 0.0 for valid in matched["valid"]]}
        return scored, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        tallies: dict[str, dict[str, int]] = {}
        for category, valid in zip(matched["category"], matched["valid"]):
            tally = tallies.setdefault(category, {"count": 0, "correct": 0})
            tally["count"] += 1
            tally["correct"] += bool(valid)
        return {"rows": len(matched["id"]), "correct": sum(map(bool, matched["valid"])),
                "answered": sum(status != "missing" for status in matched["status"]), "by_category": tallies,
                "error_types": dict(Counter(e for e in matched["error_type"] if e))}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        categories = by_category(stats["by_category"])
        return {"rows": stats["rows"], "accuracy": share(stats["correct"], stats["rows"]),
                "answer_rate": share(stats["answered"], stats["rows"]), "by_category": categories,
                "summary": bfcl_summary(categories), "error_types": dict(stats["error_types"])}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["answer_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        status = matched.get("status", "missing")
        if status == "correct":
            calls = calls_text(matched.get("decoded"))
            return status, "valid" if calls is None else f"valid: {'; '.join(calls) or NO_CALL}"
        return status, f"{matched.get('error_type')}: {matched.get('reason')}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def console_text(self, report: dict[str, Any]) -> str:
        """BFCL's summary columns and the accuracy per category, as in the full report."""
        return self.render(report["dataset"], report)

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["models"]
        rows = [[model, str(m["rows"]), percent(m["accuracy"]),
                 *(_summary_cell(m["summary"][name]) for name, _ in SUMMARY_COLUMNS)] for model, m in models.items()]
        text = format_table(["model", "items", "all items", *(title for _, title in SUMMARY_COLUMNS)], rows)
        categories = list(dict.fromkeys(name for m in models.values() for name in m["by_category"]))
        table = [[name, *(_category_cell(m["by_category"].get(name)) for m in models.values())] for name in categories]
        reasons = sorted({f"{title}: {m['summary'][name]['reason']}" for m in models.values()
                          for name, title in SUMMARY_COLUMNS if m["summary"][name]["value"] is None})
        return "\n\n".join([text, format_table(["category (accuracy [95% interval], items)", *models], table),
                            *(["n/a —" + "".join(f"\n  {reason}" for reason in reasons)] if reasons else [])])


def _summary_cell(figure: dict[str, Any]) -> str:
    return "n/a" if figure["value"] is None else percent(figure["value"])


def _category_cell(figures: dict[str, Any] | None) -> str:
    if figures is None:
        return "-"
    low, high = figures["interval"] or (None, None)
    return f"{percent(figures['accuracy'])} [{percent(low)}, {percent(high)}] ({figures['count']})"
