"""Field resolution: which field of a record holds the id, the question, the gold answer, the prediction."""
from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

GOLD_FIELDS_ORIGINAL_ROW = ("人工评测结果", "标准答案", "答案", "label")
GOLD_FIELDS_ROOT = ("人工评测结果", "标准答案", "答案")
GOLD_FIELDS_ENGLISH = ("answer", "answers", "answers_objects", "label", "expected_response", "expected_answer")
PREDICTION_FIELDS = ("prediction", "final_answer", "predicted_label", "response", "output", "answer", "completion")
ID_FIELDS = ("id", "qid", "question_id", "row_id", "_id", "uid", "unique_id", "task_id", "key")
PROMPT_KEY = "prompt_key"  # a question column: the id its predictions have when they carry the prompt and no id
QUESTION_FIELDS = ("question", "query", "claim", "prompt", "context", "problem")
LINE_ID = "@line"


def is_missing(value: Any) -> bool:
    """True for None, NaN, and empty or whitespace-only strings and empty containers."""
    if value is None:
        return True
    kind = type(value)
    if kind is str:
        return not value or value.isspace()
    if kind is float:
        return math.isnan(value)
    if kind in (list, tuple, dict):
        return len(value) == 0
    return False


def get_ground_truth_answer(record: dict) -> Any:
    """The gold answer of a record per seed 002: original_row first, then Chinese root fields, then English ones."""
    original = record.get("original_row")
    if isinstance(original, dict):
        for name in GOLD_FIELDS_ORIGINAL_ROW:
            value = original.get(name)
            if value is not None and not is_missing(value):
                return value
    for name in GOLD_FIELDS_ROOT + GOLD_FIELDS_ENGLISH:
        value = record.get(name)
        if value is not None and not is_missing(value):
            return value
    return None


def gold_answer_texts(value: Any) -> list[str]:
    """Every acceptable answer text in a gold value: a string, a list, SQuAD {text} or DROP {spans} objects."""
    if type(value) is str:
        return [value] if value and not value.isspace() else []
    if type(value) is list and all(type(item) is str for item in value):
        return [item for item in value if item and not item.isspace()]
    if type(value) is list and all(type(item) is dict and type(item.get("text")) is str for item in value):
        return [item["text"] for item in value if item["text"] and not item["text"].isspace()]
    if is_missing(value):
        return []
    if isinstance(value, dict):
        if "text" in value:
            return gold_answer_texts(value["text"])
        if "spans" in value and not is_missing(value["spans"]):
            return [" ".join(gold_answer_texts(value["spans"]))]
        if "number" in value:
            return gold_answer_texts(value["number"])
        return []
    if isinstance(value, (list, tuple)):
        texts: list[str] = []
        for item in value:
            texts.extend(gold_answer_texts(item))
        return texts
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, float) and value.is_integer():
        return [str(int(value))]
    return [str(value)]


def resolve_field(record: dict, explicit: str | None, candidates: tuple[str, ...]) -> Any:
    """The value of `explicit` when given (dotted paths reach nested objects), else of the first candidate present."""
    if explicit:
        value: Any = record
        for part in explicit.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(name_ignoring_case(value, part))
        return value
    for name in candidates:
        value = record.get(name)
        if value is not None and not is_missing(value):
            return value
    return None


def name_ignoring_case(names: Collection[str], wanted: str) -> str | None:
    """The name among `names` that a configured field means: itself, else the one name equal to it ignoring case
    (a configured `Answer` reads a column `answer`)."""
    if wanted in names:
        return wanted
    matches = [name for name in names if isinstance(name, str) and name.casefold() == wanted.casefold()]
    return matches[0] if len(matches) == 1 else None


def get_prediction(record: dict, field: str | None = None) -> Any:
    """The model's answer in a predictions record."""
    return resolve_field(record, field, PREDICTION_FIELDS)


def get_record_id(record: dict, line: int | None, field: str | None = None) -> str | None:
    """The row id as a string; with id_field '@line' the 1-based line (or row) number pairs files by position;
    dialogue cases without an id are "<scene>#<dialogue_index>"."""
    if field == LINE_ID:
        return None if line is None else str(line)
    value = resolve_field(record, field, ID_FIELDS)
    if value is None and not field:
        value = dialogue_case_id(record)
    if is_missing(value) or isinstance(value, (dict, list)):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def dialogue_case_id(record: dict) -> str | None:
    """Seed 003 identifies a test case by its scene and dialogue_index."""
    scene, index = record.get("scene"), record.get("dialogue_index")
    if is_missing(scene) or is_missing(index) or isinstance(scene, (dict, list)) or isinstance(index, (dict, list)):
        return None
    if isinstance(index, float) and index.is_integer():
        index = int(index)
    return f"{scene}#{index}"


def prompt_key(prompt: str) -> str:
    """The id of a prediction that carries its prompt and no id (IFEval's response files): the prompt's digest, the
    same as its question's `prompt_key`, so they pair by the exact prompt text."""
    import hashlib

    return "prompt:" + hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:16]
