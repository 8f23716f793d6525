"""Multiple-choice kind (seed 000): gold and reply resolved to option letters, accuracy and extraction rate."""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from ...core.distinct import per_distinct_row
from ...core.param_rules import at_least, within
from ...core.records import Columns
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ..base import SHARD_ROWS, Kind, rank_models, register_kind
from .extraction import clean_reply, extract_choice, gold_choice
from .options import find_options, options_from_text

logger = logging.getLogger(__name__)
def check_answer_match(golden: str, prediction: str, question: str | None = None,
                       similarity_threshold: float = 0.7) -> bool:
    """True when the reply names the golden option (seed 000); a reply without a letter needs the question."""
    options = options_from_text(question) if question else None
    gold = gold_choice(golden, options)
    reply = extract_choice(prediction, options, similarity_threshold)
    if reply.letter is None and options is None:
        logger.warning("prediction %r names no option letter and no question with options was given", prediction)
        return False
    return gold is not None and gold == reply.letter


@register_kind("multiple_choice")
class MultipleChoice(Kind):
    """Replies as letters or option text; unparsed and ambiguous replies are counted, never guessed."""
    paired_metrics = {"accuracy": "binary"}

    defaults = {"similarity_threshold": 0.7, "margin": 0.1, "shard_rows": SHARD_ROWS}
    stage_params = {"B4": ("similarity_threshold", "margin")}
    param_rules = {"similarity_threshold": within(0, 1), "margin": within(0, 1), "shard_rows": at_least(1, integer=True)}
    prompt_templates = {
        "en": "Answer the multiple-choice question. Reply with the letter of the correct option only.\n\n"
              "{question}\n{options}\nAnswer:",
        "zh": "请回答下面的选择题，只回复正确选项的字母。\n\n{question}\n{options}\n答案：",
    }
    question_columns = ("options",)
    headline_reject_reasons = ("no options found",)
    shardable = True

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        return {"options": find_options(record, question)}

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if not golds:
            return "no gold answer"
        if not fields.get("options"):
            return "no options found (options / choices field, A/B/C/D columns, or options in the question text)"
        if gold_choice(golds[0], fields["options"]) is None:
            return f"gold answer {golds[0]!r} names no option"
        return None

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        gold = per_distinct_row(gold_choice, [golds[0] for golds in joined["golds"]], joined["options"])
        replies = per_distinct_row(lambda p: None if p is None else clean_reply(p), joined["prediction"])
        columns = {"id": joined["id"], "options": joined["options"], "gold_letter": gold, "reply": replies}
        return columns, {}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        threshold, margin = params["similarity_threshold"], params["margin"]
        results = per_distinct_row(lambda reply, options: extract_choice(reply, options, threshold, margin),
                                   normalized["reply"], normalized["options"], grouped_by=1)
        letters = [r.letter for r in results]
        correct = [letter is not None and letter == gold for letter, gold in zip(letters, normalized["gold_letter"])]
        columns = {
            "id": normalized["id"], "gold_letter": normalized["gold_letter"], "letter": letters,
            "rule": [r.rule for r in results], "score": [r.score for r in results], "correct": correct,
        }
        unparsed = [row_id for row_id, letter in zip(normalized["id"], letters) if letter is None]
        return columns, {"rules": dict(Counter(columns["rule"])), "unparsed": unparsed}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        columns = {"id": matched["id"], "accuracy": [float(c) for c in matched["correct"]]}
        return columns, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        return {"rows": len(matched["id"]), "correct": sum(bool(c) for c in matched["correct"]),
                "extracted": sum(letter is not None for letter in matched["letter"]),
                "rules": dict(Counter(matched["rule"]))}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows, correct, extracted = stats["rows"], stats["correct"], stats["extracted"]
        return {"rows": rows, "accuracy": share(correct, rows), "extraction_rate": share(extracted, rows),
                "accuracy_when_extracted": share(correct, extracted), "rules": dict(stats["rules"])}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["extraction_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        letter = matched.get("letter")
        status = "unparsed" if letter is None else ("correct" if matched.get("correct") else "wrong")
        return status, f"letter {letter or '–'} by {matched.get('rule')} (gold {matched.get('gold_letter')})"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [
            [model, str(m["rows"]), percent(m["accuracy"]), percent(m["extraction_rate"]),
             ", ".join(f"{rule} {n}" for rule, n in sorted(m["rules"].items(), key=lambda kv: -kv[1]))]
            for model, m in report["models"].items()
        ]
        return format_table(["model", "样本数", "Accuracy", "Extraction rate", "rules fired"], rows)
