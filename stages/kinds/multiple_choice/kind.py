"""Multiple-choice kind (seed 000): gold and reply resolved to option letters, accuracy and extraction rate."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ...core.distinct import value_counts
from ...core.param_rules import at_least, within
from ...core.records import Rows, as_table
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...io.fields import QUESTION_FIELDS, resolve_field
from ..base import SHARD_ROWS, Kind, Recognition, accuracy_scores, rank_models, register_kind
from .columns import cleaned_replies, extracted_choices, gold_letters, options_column, options_type
from .extraction import extract_choice, gold_choice
from .options import find_options, options_from_text

if TYPE_CHECKING:
    import pyarrow as pa

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


def _has_options(record: dict) -> bool:
    """Whether a question record carries options (kind detection)."""
    try:
        return bool(find_options(record, resolve_field(record, None, QUESTION_FIELDS + ("Question",))))
    except (TypeError, ValueError):
        return False


@register_kind("multiple_choice")
class MultipleChoice(Kind):
    """Replies as letters or option text; unparsed and ambiguous replies are counted, never guessed."""
    paired_metrics = {"accuracy": "binary"}
    vote_column = ("B4", "letter")

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
    columnar_stages = True
    joined_question_columns = ("id", "golds", "options")  # not the question texts: B3 and B4 read none
    status_column = "status"

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        return {"options": find_options(record, question)}

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """Choice questions: most records carry options (option fields, or options in the question's text)."""
        return Recognition.OPTIONS if sum(map(_has_options, records)) * 2 > len(records) > 0 else Recognition.NO

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if not golds:
            return "no gold answer"
        if not fields.get("options"):
            return "no options found (options / choices field, A/B/C/D columns, or options in the question text)"
        if gold_choice(golds[0], fields["options"]) is None:
            return f"gold answer {golds[0]!r} names no option"
        return None

    def question_types(self) -> dict[str, pa.DataType]:
        return {"options": options_type()}

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        options = options_column(table)
        if options is None or gold_letters(golds, options).null_count:
            return None
        return {"options": options}

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa

        table = as_table(joined, _column_types())
        options = table.column("options").combine_chunks()
        return pa.table({"id": table.column("id"), "options": options,
                         "gold_letter": gold_letters(table.column("golds").combine_chunks(), options),
                         "reply": cleaned_replies(table.column("prediction"))}), {}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = as_table(normalized, _column_types())
        found = extracted_choices(table.column("reply").combine_chunks(), table.column("options").combine_chunks(),
                                  params["similarity_threshold"], params["margin"])
        gold = table.column("gold_letter").combine_chunks()
        correct = pc.fill_null(pc.equal(found["letter"], gold), False)
        status = pc.if_else(pc.is_null(found["letter"]), "unparsed", pc.if_else(correct, "correct", "wrong"))
        matched = pa.table({"id": table.column("id"), "gold_letter": gold, **found, "correct": correct,
                            "status": status})
        unparsed = table.column("id").filter(pc.is_null(found["letter"])).to_pylist()
        return matched, {"rules": value_counts(found["rule"]), "unparsed": unparsed}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        return accuracy_scores(self, as_table(matched, _column_types()))

    def score_stats(self, matched: Rows) -> Stats:
        import pyarrow.compute as pc

        table = as_table(matched, _column_types())
        return {"rows": table.num_rows, "correct": pc.sum(pc.fill_null(table.column("correct"), False)).as_py() or 0,
                "extracted": table.num_rows - table.column("letter").null_count,
                "rules": value_counts(table.column("rule"))}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows, correct, extracted = stats["rows"], stats["correct"], stats["extracted"]
        return {"rows": rows, "accuracy": share(correct, rows), "extraction_rate": share(extracted, rows),
                "accuracy_when_extracted": share(correct, extracted), "rules": dict(stats["rules"])}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["extraction_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        return matched["status"], (f"letter {matched.get('letter') or '–'} by {matched.get('rule')} "
                                   f"(gold {matched.get('gold_letter')})")

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [[model, str(m["rows"]), percent(m["accuracy"]), percent(m["extraction_rate"])]
                for model, m in report["models"].items()]
        fired = [f"rules fired for {model}: " + ", ".join(f"{rule} {n}" for rule, n in sorted(
            m["rules"].items(), key=lambda kv: -kv[1])) for model, m in report["models"].items()]
        return "\n".join([format_table(["model", "样本数", "Accuracy", "Extraction rate"], rows), *fired])



def _column_types() -> dict[str, pa.DataType]:
    """The Arrow type of every column the stages read."""
    import pyarrow as pa

    return {"golds": pa.list_(pa.string()), "options": options_type(), "prediction": pa.string(),
            "reply": pa.string(), "gold_letter": pa.string(), "letter": pa.string(), "rule": pa.string(),
            "correct": pa.bool_()}
