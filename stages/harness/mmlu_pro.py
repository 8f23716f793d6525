"""MMLU-Pro's published result files (TIGER-AI-Lab/MMLU-Pro eval_results/model_outputs_<model>_5shots.zip, or the
JSON inside): the test set with one model's replies, imported as a multiple-choice dataset of task "mmlu_pro"."""
from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..kinds.multiple_choice.options import LETTERS
from .imported import ImportedRun, SkippedFile, files_under, register_importer

_MODEL_NAME = re.compile(r"^model_outputs_(?P<model>.+?)(?:_\d+shots?)?$")
REPLY_FIELDS = ("generated_text", "model_outputs")  # the published files' name; the scripts' results files' name


@register_importer("mmlu-pro")
def read_mmlu_pro(paths: list[Path]) -> Iterator[ImportedRun | SkippedFile]:
    """Every MMLU-Pro results file among `paths` (.zip holding one JSON list, or the .json itself) as one run; an item
    without a question, options, gold letter, category or reply is set aside with the reason."""
    for path in files_under(paths, "model_outputs_*"):
        try:
            items = _items(path)
        except (OSError, ValueError, zipfile.BadZipFile) as exc:
            yield SkippedFile(str(path), f"not an MMLU-Pro results file: {exc}", refused=path in paths)
            continue
        yield _run(path, items)


def _items(path: Path) -> list[Any]:
    """The JSON list of a results file, from inside its zip when it is one."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [name for name in archive.namelist() if name.endswith(".json")]
            if len(names) != 1:
                raise ValueError(f"the zip holds {len(names)} JSON files, not one")
            items = orjson.loads(archive.read(names[0]))
    else:
        items = orjson.loads(path.read_bytes())
    if not isinstance(items, list):
        raise ValueError("the JSON is not a list of items")
    return items


def _run(path: Path, items: list[Any]) -> ImportedRun:
    stem = path.name.removesuffix(".zip").removesuffix(".json")
    found = _MODEL_NAME.match(stem)
    questions, predictions, set_aside, seen = [], [], [], set()
    for position, item in enumerate(items, start=1):
        where = f"{path}: item {position}"
        problem = _problem(item)
        if problem is None and str(item["question_id"]) in seen:
            problem = f"question_id {item['question_id']} repeated"
        if problem:
            set_aside.append(f"{where}: {problem}")
            continue
        row_id = str(item["question_id"])
        seen.add(row_id)
        reply = next(item[name] for name in REPLY_FIELDS if isinstance(item.get(name), str))
        questions.append({"id": row_id, "question": item["question"], "options": item["options"],
                          "answer": item["answer"], "category": item["category"]})
        predictions.append({"id": row_id, "prediction": reply})
    return ImportedRun(tool="mmlu-pro", tool_version=None, task="mmlu_pro", model=found["model"] if found else stem,
                       file=str(path), kind="multiple_choice", questions=questions, predictions=predictions,
                       set_aside=set_aside, params={"task": "mmlu_pro"})


def _problem(item: Any) -> str | None:
    """Why an item cannot be scored as MMLU-Pro scores it, or None."""
    if not isinstance(item, dict):
        return "not an object"
    options = item.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= len(LETTERS):  # the script scores one-option items
        return f"options must be a list of 1 to {len(LETTERS)}"
    for name in ("question", "category"):
        if not isinstance(item.get(name), str) or not item[name].strip():
            return f"no {name}"
    if item.get("question_id") is None:
        return "no question_id"
    if item.get("answer") not in LETTERS[:len(options)]:
        return f"answer {item.get('answer')!r} is not one of its {len(options)} option letters"
    if not any(isinstance(item.get(name), str) for name in REPLY_FIELDS):
        return f"no reply ({' or '.join(REPLY_FIELDS)})"
    return None
