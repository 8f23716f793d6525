"""Multiple-choice kind (seed 000): gold and reply resolved to option letters, accuracy and extraction rate."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.distinct import value_counts
from ...core.errors import UsageError
from ...core.param_rules import at_least, within
from ...core.records import Columns, LoadResult, Rows, as_columns, as_table
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...io.fields import QUESTION_FIELDS, resolve_field
from ...io.loading import load_questions
from ..base import SHARD_ROWS, Kind, Recognition, accuracy_scores, rank_models, register_kind
from .columns import cleaned_replies, extracted_choices, gold_letters, options_column, options_type
from .extraction import extract_choice, gold_choice
from .gpqa import N_REPEATS, repeat_prompts
from .mmlu_pro_prompt import fewshot_examples, with_prompts
from .options import LETTERS, find_options, options_from_text
from .reference_tasks import OPTION_COUNTS, TASKS, category_tables, guess_metrics, guess_stats

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


def _task_rule(value: str) -> str | None:
    return None if not value or value in TASKS.names() else (
        f"is none of the multiple-choice tasks ({', '.join(TASKS.names())})")


def _category(value: Any) -> str | None:
    """A question's category (MMLU-Pro's `category`), as text; none when absent."""
    return None if value is None or value == "" else str(value)


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

    defaults = {"similarity_threshold": 0.7, "margin": 0.1, "shard_rows": SHARD_ROWS, "task": "", "fewshot_file": "",
                "n_repeats": N_REPEATS}
    stage_params = {"B1": ("task", "fewshot_file", "n_repeats"), "B3": ("task",),
                    "B4": ("similarity_threshold", "margin", "task")}
    param_rules = {"similarity_threshold": within(0, 1), "margin": within(0, 1),
                   "shard_rows": at_least(1, integer=True), "task": _task_rule, "n_repeats": at_least(1, integer=True)}
    prompt_templates = {
        "en": "Answer the multiple-choice question. Reply with the letter of the correct option only.\n\n"
              "{question}\n{options}\nAnswer:",
        "zh": "请回答下面的选择题，只回复正确选项的字母。\n\n{question}\n{options}\n答案：",
    }
    question_columns = ("options", "category")
    headline_reject_reasons = ("no options found",)
    shardable = True
    columnar_stages = True
    joined_question_columns = ("id", "golds", "options", "category")  # not the question texts: B3 and B4 read none
    status_column = "status"

    columnar_questions = True  # load_gold is the base loading, with the few-shot prompts added after it

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        """B1 as every kind loads it; for task "mmlu_pro" with a `fewshot_file` (its validation split), each item's
        5-shot chain-of-thought prompt in a `prompt` column, and for task "gpqa" read whole (not a shard), each
        item's prompt per repeat in `prompts`: what [generate] asks."""
        loaded = load_questions(path, self, fields, rows, params)
        if (params or {}).get("task") == "gpqa" and rows is None:
            loaded.columns = _with_repeat_prompts(loaded.columns, params["n_repeats"])
        if not (params or {}).get("fewshot_file"):
            return loaded
        if params.get("task") != "mmlu_pro":
            raise UsageError(f"{path.parent.name}: fewshot_file is for task = \"mmlu_pro\" (its validation split)")
        try:
            loaded.columns = with_prompts(loaded.columns, fewshot_examples(path.parent / params["fewshot_file"]))
        except (OSError, ValueError) as exc:
            raise UsageError(f"{path.parent.name}: fewshot_file: {exc}") from None
        return loaded

    def gold_files(self, params: dict[str, Any]) -> list[str]:
        return [params["fewshot_file"]] if params.get("fewshot_file") else []

    def generation_cases(self, cases: list[dict[str, Any]], questions: Columns) -> list[dict[str, Any]]:
        """An item with its own prompt (MMLU-Pro's few-shot prompt) is asked that prompt, one with a prompt per repeat
        (GPQA's) each of its samples with its own."""
        prompts = questions.get("prompt") or [None] * len(cases)
        repeats = questions.get("prompts") or [None] * len(cases)
        return [{**case, "prompt": prompt or (per_repeat[0] if per_repeat else case["prompt"]),
                 **({"sample_prompts": per_repeat} if per_repeat else {})}
                for case, prompt, per_repeat in zip(cases, prompts, repeats)]

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        return {"options": find_options(record, question), "category": _category(record.get("category"))}

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
        wanted = OPTION_COUNTS.get(params.get("task", ""))
        if wanted and len(fields["options"]) != wanted:
            return f"{len(fields['options'])} options; task {params['task']!r} takes {wanted}"
        return None

    def question_types(self) -> dict[str, pa.DataType]:
        import pyarrow as pa

        return {"options": options_type(), "category": pa.string()}

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        import pyarrow as pa
        import pyarrow.compute as pc

        options = options_column(table)
        wanted = OPTION_COUNTS.get(params.get("task", ""))
        if options is None or gold_letters(golds, options).null_count or (
                wanted and pc.any(pc.not_equal(pc.list_value_length(options), wanted)).as_py()):
            return None  # row by row, where each row that cannot be scored is set aside with its reason
        if "category" not in table.column_names:
            return {"options": options, "category": pa.nulls(table.num_rows, pa.string())}
        category = table.column("category")
        if not any(check(category.type) for check in (pa.types.is_string, pa.types.is_integer, pa.types.is_null)):
            return None  # categories of mixed or other types: row by row
        return {"options": options, "category": category.cast(pa.string()).combine_chunks()}

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa

        table = as_table(joined, _column_types())
        options = table.column("options").combine_chunks()
        replies = table.column("prediction").combine_chunks()  # a reference task reads the reply as it came
        category = table.column("category") if "category" in table.column_names else pa.nulls(len(options), pa.string())
        return pa.table({"id": table.column("id"), "options": options, "category": category,
                         "gold_letter": gold_letters(table.column("golds").combine_chunks(), options),
                         "reply": replies if params["task"] else cleaned_replies(replies)}), {}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = as_table(normalized, _column_types())
        if params["task"]:
            return self._task_match(table, params["task"])
        found = extracted_choices(table.column("reply").combine_chunks(), table.column("options").combine_chunks(),
                                  params["similarity_threshold"], params["margin"])
        gold = table.column("gold_letter").combine_chunks()
        correct = pc.fill_null(pc.equal(found["letter"], gold), False)
        status = pc.if_else(pc.is_null(found["letter"]), "unparsed", pc.if_else(correct, "correct", "wrong"))
        matched = pa.table({"id": table.column("id"), "gold_letter": gold, **found, "correct": correct,
                            "status": status})
        unparsed = table.column("id").filter(pc.is_null(found["letter"])).to_pylist()
        return matched, {"rules": value_counts(found["rule"]), "unparsed": unparsed}

    def _task_match(self, table: pa.Table, task: str) -> tuple[pa.Table, dict[str, Any]]:
        """B4 of a reference task: its reading, the guesses where it guesses, and the category carried for B5."""
        import pyarrow as pa
        import pyarrow.compute as pc

        found = TASKS.get(task)(table)
        status = pc.if_else(pc.is_null(found["letter"]), "unparsed",
                            pc.if_else(found["correct"], "correct", "wrong"))
        matched = pa.table({"id": table.column("id"), "gold_letter": table.column("gold_letter"),
                            "category": table.column("category"), **found, "status": status})
        unparsed = table.column("id").filter(pc.is_null(found["letter"])).to_pylist()
        return matched, {"rules": value_counts(found["rule"]), "unparsed": unparsed}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        return accuracy_scores(self, as_table(matched, _column_types()))

    def score_stats(self, matched: Rows) -> Stats:
        import pyarrow.compute as pc

        table = as_table(matched, _column_types())
        return {"rows": table.num_rows, "correct": pc.sum(pc.fill_null(table.column("correct"), False)).as_py() or 0,
                "extracted": table.num_rows - table.column("letter").null_count,
                "rules": value_counts(table.column("rule")),
                **(guess_stats(table) if "guess" in table.column_names else {})}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows, correct, extracted = stats["rows"], stats["correct"], stats["extracted"]
        guessed = guess_metrics(stats) if "guessed" in stats else {}
        right_read = correct - guessed.get("guessed_correct", 0)
        return {"rows": rows, "accuracy": share(correct, rows), "extraction_rate": share(extracted, rows),
                "accuracy_when_extracted": share(right_read, extracted), "rules": dict(stats["rules"]), **guessed}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["extraction_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        guess = f", guessed {matched['guess']}" if matched.get("guess") else ""
        shown = f", read {matched.get('read')} of the shuffled options (right: {matched['shown_gold']})" \
            if matched.get("shown_gold") else ""
        return matched["status"], (f"letter {matched.get('letter') or '–'} by {matched.get('rule')}{guess}{shown} "
                                   f"(gold {matched.get('gold_letter')})")

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def console_text(self, report: dict[str, Any]) -> str:
        """A reference task's accuracy per category, with and without its guesses ("" for other datasets)."""
        return "\n\n".join(category_tables(report["models"]))

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [[model, str(m["rows"]), percent(m["accuracy"]), percent(m["extraction_rate"])]
                for model, m in report["models"].items()]
        fired = [f"rules fired for {model}: " + ", ".join(f"{rule} {n}" for rule, n in sorted(
            m["rules"].items(), key=lambda kv: -kv[1])) for model, m in report["models"].items()]
        return "\n".join([format_table(["model", "样本数", "Accuracy", "Extraction rate"], rows), *fired,
                          *category_tables(report["models"])])



def _with_repeat_prompts(rows: Rows, repeats: int) -> Rows:
    """B1's rows with `prompts`: each item's gpqa_eval message per repeat, its options shuffled for that repeat."""
    import pyarrow as pa

    columns = as_columns(rows)
    options = [list(item) for item in columns["options"]]
    correct = [item[LETTERS.index(gold_choice(golds[0], item))] for item, golds in zip(options, columns["golds"])]
    prompts = repeat_prompts([question or "" for question in columns["question"]], options, correct, repeats)
    if isinstance(rows, dict):
        return {**rows, "prompts": prompts}
    return rows.append_column("prompts", pa.array(prompts, pa.list_(pa.string())))


def _column_types() -> dict[str, pa.DataType]:
    """The Arrow type of every column the stages read."""
    import pyarrow as pa

    return {"golds": pa.list_(pa.string()), "options": options_type(), "prediction": pa.string(),
            "reply": pa.string(), "gold_letter": pa.string(), "letter": pa.string(), "rule": pa.string(),
            "correct": pa.bool_(), "category": pa.string(), "guess": pa.string()}
