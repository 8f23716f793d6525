"""Open-ended instructions (MT-Bench, AlpacaEval, Arena-Hard style): a prompt and, when there is one, a reference;
the answers are graded by the dataset's [judge] criteria and pairwise comparisons, so B3–B5 keep only what the judge's
report needs of each answer — whether it was given and its length in characters and words."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from statistics import mean
from typing import Any

from ...core.records import Columns, LoadResult, Reject
from ...core.text_table import format_table, percent
from ...io.fields import is_missing
from ...io.readers import iter_records
from ..base import Kind, rank_models, register_kind
from .tasks import TASK_ITEMS, TASK_SYSTEM_PROMPTS, has_image, task_rule

QUESTION_FIELDS = ("instruction", "prompt", "question", "input", "problem")  # where a record's instruction is, in
# this order (SimpleQA's CSV names it problem)
ANSWERED, MISSING = "answered", "missing"
_WORDS = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\s\u3400-\u9fff\uf900-\ufaff]+")


def answer_length(text: str | None) -> tuple[int | None, int | None]:
    """(characters, words) of an answer — each CJK character a word, else runs between spaces; None for none."""
    if text is None:
        return None, None
    return len(text), len(_WORDS.findall(text))


def _difficulty(value: Any) -> float | None:
    """An instruction's difficulty as AlpacaEval's GLM takes it: a finite number, else none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if value == value and abs(value) != float("inf") else None


def _texts(value: Any) -> list[str] | None:
    """A list of texts (a multi-turn item's turns or references), or None; any other value is a wrong type."""
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(text, str) for text in value):
        raise ValueError(f"expected a list of texts, got {str(value)[:80]!r}")
    return value


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@register_kind("instruction")
class Instruction(Kind):
    """Instructions without a required reference: scored by the judge; a missing answer is counted, never judged."""

    open_ended = True
    defaults = {"task": ""}  # a judged task (simpleqa, hle): its script's grader, figures and items
    stage_params = {"B1": ("task",)}
    param_rules = {"task": task_rule}
    question_readers = {"instruction_difficulty": _difficulty, "turns": _texts, "references": _texts,
                        "category": _text, "subcategory": _text, "image": has_image}  # AlpacaEval's difficulty;
    # MT-Bench's turns, references and category; AlignBench's category and subcategory; HLE's image
    prediction_readers = {"turns": _texts}  # a multi-turn answer: one text per turn

    def default_question_field(self, questions: Path) -> str | None:
        return instruction_field(questions)

    def question_types(self) -> dict[str, Any]:
        import pyarrow as pa

        return {"instruction_difficulty": pa.float64(), "turns": pa.list_(pa.string()),
                "references": pa.list_(pa.string()), "category": pa.string(), "subcategory": pa.string(),
                "image": pa.bool_()}

    def prediction_types(self) -> dict[str, Any]:
        import pyarrow as pa

        return {"turns": pa.list_(pa.string())}

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        """B1 as every kind loads it; a task whose script asks with its own system message (HLE's SYSTEM_PROMPT) has
        it in a `system_prompt` column, what [generate] sends when it gives none."""
        loaded = super().load_gold(path, fields, rows, params)
        system = TASK_SYSTEM_PROMPTS.get((params or {}).get("task", ""))
        if system is not None:
            loaded.columns = _with_column(loaded.columns, "system_prompt", system)
        return loaded

    def system_prompt(self, questions: Columns) -> str | None:
        """The task's system message (the `system_prompt` column B1 added), when its items have one."""
        return next(iter(questions.get("system_prompt") or ()), None)

    def check_question(self, question: str | None) -> str | None:
        return "empty instruction (nothing to answer or judge)" if question is None or not question.strip() else None

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        """A reference is optional, except for a judged task (its grader compares with it), which may set an item
        aside for its own reason (HLE: a question with an image)."""
        return TASK_ITEMS[params["task"]](golds, fields) if params.get("task") else None

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        lengths = [answer_length(p) for p in joined["prediction"]]
        columns = {"id": joined["id"], "prediction": joined["prediction"],
                   "status": [MISSING if p is None else ANSWERED for p in joined["prediction"]],
                   "characters": [c for c, _ in lengths], "words": [w for _, w in lengths]}
        return columns, {"status": dict(Counter(columns["status"]))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        return normalized, {}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        characters = [c for c in matched["characters"] if c is not None]
        words = [w for w in matched["words"] if w is not None]
        rows = len(matched["id"])
        metrics = {"rows": rows, "answered": len(characters), "missing": rows - len(characters),
                   "answer_rate": len(characters) / rows if rows else None,
                   "mean_characters": mean(characters) if characters else None,
                   "mean_words": mean(words) if words else None}
        return {name: matched[name] for name in ("id", "status", "characters", "words")}, metrics

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["answer_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        if matched.get("status") == MISSING:
            return MISSING, "no answer"
        return "scored", f"{matched.get('characters')} characters, {matched.get('words')} words"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "answer_rate")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [[model, str(m["rows"]), str(m["missing"]), percent(m["answer_rate"]),
                 "n/a" if m["mean_characters"] is None else f"{m['mean_characters']:.1f}",
                 "n/a" if m["mean_words"] is None else f"{m['mean_words']:.1f}"]
                for model, m in report["models"].items()]
        return format_table(["model", "instructions", "missing", "answered", "mean characters", "mean words"], rows)


def _with_column(rows: Any, name: str, value: str) -> Any:
    """B1's rows (columns or an Arrow table) with a column holding `value` on every row."""
    if isinstance(rows, dict):
        return {**rows, name: [value] * len(rows["id"])}
    import pyarrow as pa

    return rows.append_column(name, pa.array([value] * rows.num_rows, pa.string()))


def instruction_field(path: Path) -> str | None:
    """The field holding the instructions: of instruction, prompt, question, input, the first that the first record
    with any of them filled in has (an empty first instruction does not hide the field); None when no record has."""
    for item in iter_records(path):
        if isinstance(item, Reject):
            continue
        _, record, _ = item
        found = next((name for name in QUESTION_FIELDS if isinstance(record, dict) and not is_missing(
            record.get(name)) and str(record.get(name)).strip()), None)
        if found is not None:
            return found
    return None
