"""The judged benchmarks the instruction kind asks (`task = "…"`): which of their items it asks — an item needs its
gold answer, and HLE, text-only, sets its image questions aside. How each is judged and figured is the judge's
(stages/judge/tasks, under the same names)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

HLE_IMAGE = "HLE question with an image (text-only: the model would not see it)"
# hle_eval/run_model_predictions.py's SYSTEM_PROMPT (centerforaisafety/hle, commit 87c92ea), sent before each question
HLE_SYSTEM_PROMPT = ("Your response should be in the following format:\nExplanation: {your explanation for your answer "
                     "choice}\nAnswer: {your chosen answer}\nConfidence: {your confidence score between 0% and 100% "
                     "for your answer}")


def has_image(value: Any) -> bool:
    """Whether an item shows an image (HLE's `image`: a data URL, "" for a text-only question; exported otherwise, a
    {bytes, path} object or a list of them): anything but null, false, blank text or bytes, or objects and lists
    holding only those — an item that may show one is not asked as text-only."""
    pending = [value]
    while pending:
        found = pending.pop()
        if isinstance(found, dict):
            pending.extend(found.values())
        elif isinstance(found, (list, tuple)):
            pending.extend(found)
        elif isinstance(found, (str, bytes)):
            if found.strip():
                return True
        elif found is not None and found is not False:
            return True
    return False


def _gold_needed(golds: list[str], fields: dict[str, Any]) -> str | None:
    return None if golds else "no gold answer"


def _text_only(golds: list[str], fields: dict[str, Any]) -> str | None:
    return HLE_IMAGE if fields.get("image") else _gold_needed(golds, fields)


TASK_ITEMS: dict[str, Callable[[list[str], dict[str, Any]], str | None]] = {  # task → why an item is not asked
    "simpleqa": _gold_needed,  # simple-evals' simple_qa_test_set.csv
    "hle": _text_only,  # cais/hle's test split, text-only
}


TASK_SYSTEM_PROMPTS = {"hle": HLE_SYSTEM_PROMPT}  # task → the system message its script asks with


def task_rule(value: Any) -> str | None:
    """`task` names a judged benchmark or is empty."""
    names = sorted(TASK_ITEMS)
    return None if value == "" or value in names else f"must be one of {', '.join(map(repr, ['', *names]))}"
