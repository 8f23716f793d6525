"""OpenCompass' predictions/<model>/<dataset>.json ({index: {origin_prompt, prediction, gold}}), with the scores in
results/<model>/<dataset>.json beside them."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..io.fields import gold_answer_texts
from ..io.json_depth import load_json
from ..io.storage import read_input_bytes
from ..kinds.multiple_choice.options import LETTERS, options_from_text
from .chat_templates import chat_templates, without_template
from .imported import ImportedRun, SkippedFile, files_under, read_json_object, register_importer


@register_importer("opencompass")
def read_opencompass(paths: list[Path]) -> Iterator[ImportedRun | SkippedFile]:
    """Every predictions/<model>/<dataset>.json among `paths` (folders searched) as one run: multiple choice when every
    gold is one letter naming an option written in the prompt, else open QA. Models of one run asked the same
    dataset with prompts that differ only by each model's chat template are read without it (one dataset)."""
    found: dict[tuple[Path, str], list[tuple[Path, dict[str, Any]]]] = {}
    for path in files_under(paths, "*.json"):
        if path.parent.parent.name != "predictions":
            if path in paths:
                yield SkippedFile(str(path), "not an OpenCompass predictions/<model>/<dataset>.json file")
            continue
        try:
            document = load_json(read_input_bytes(path))
        except (OSError, orjson.JSONDecodeError) as exc:
            yield SkippedFile(str(path), f"unreadable JSON ({exc})")
            continue
        if not isinstance(document, dict):
            yield SkippedFile(str(path), "not an object of predictions by index")
            continue
        found.setdefault((path.parent.parent, path.stem), []).append((path, document))
    for documents in found.values():
        templates = chat_templates([{str(index): _prompt_text(record.get("origin_prompt"))
                                     for index, record in document.items() if isinstance(record, dict)}
                                    for _, document in documents])
        for (path, document), template in zip(documents, templates):
            yield _run(path, document, template)


def _run(path: Path, document: dict[str, Any], template: tuple[str, str]) -> ImportedRun:
    rows, set_aside, prompts = [], [], {}
    for index, record in document.items():
        if not isinstance(record, dict) or not isinstance(record.get("prediction"), str):
            set_aside.append(f"{path}: [{index}]: no prediction text")
            continue
        prompt = _prompt_text(record.get("origin_prompt"))
        question = without_template(prompt, template)
        if question != prompt:
            prompts[str(index)] = prompt
        rows.append((str(index), question, _golds(record.get("gold")), record["prediction"]))
    if rows and not any(golds for _, _, golds, _ in rows):
        return _run_of(path, "instruction", [{"id": row_id, "question": prompt} for row_id, prompt, _, _ in rows],
                       rows, set_aside, prompts)
    set_aside.extend(f"{path}: [{row_id}]: no gold (OpenCompass leaves it out for some evaluators, and a subjective "
                     "dataset's gold holds the judge's hints)" for row_id, _, golds, _ in rows if not golds)
    rows = [row for row in rows if row[2]]
    options = [options_from_text(prompt) for _, prompt, _, _ in rows]
    multiple_choice = bool(rows) and all(
        found is not None and len(golds) == 1 and golds[0].strip().upper() in LETTERS[:len(found)]
        for found, (_, _, golds, _) in zip(options, rows))
    questions = [{"id": row_id, "question": prompt, "options": found, "answer": golds[0].strip().upper()}
                 if multiple_choice else {"id": row_id, "question": prompt, "answers": golds}
                 for (row_id, prompt, golds, _), found in zip(rows, options)]
    return _run_of(path, "multiple_choice" if multiple_choice else "qa", questions, rows, set_aside, prompts)


def _run_of(path: Path, kind: str, questions: list[dict[str, Any]], rows: list[tuple], set_aside: list[str],
            prompts: dict[str, str]) -> ImportedRun:
    """The run; a prediction whose prompt was read without the model's chat template keeps that prompt."""
    model, task = path.parent.name, path.stem
    return ImportedRun(tool="opencompass", tool_version=None, task=task, model=model, file=str(path), kind=kind,
                       questions=questions,
                       predictions=[{"id": row_id, "prediction": reply,
                                     **({"prompt": prompts[row_id]} if row_id in prompts else {})}
                                    for row_id, _, _, reply in rows],
                       metrics=_scores(path.parents[2] / "results" / model / f"{task}.json"), set_aside=set_aside)


def _golds(gold: Any) -> list[str]:
    """The reference answers in a gold; none in a subjective dataset's gold, a dict of hints for the judge
    ({"capability": …, "question": …})."""
    return [] if isinstance(gold, dict) else gold_answer_texts(gold)


def _prompt_text(prompt: Any) -> str:
    """The prompt as text: a string, or the last turn of OpenCompass' chat form [{role, prompt}]."""
    if isinstance(prompt, list) and prompt and isinstance(prompt[-1], dict):
        return str(prompt[-1].get("prompt", ""))
    return "" if prompt is None else str(prompt)


def _scores(path: Path) -> dict[str, float]:
    """OpenCompass' top-level numeric scores for the dataset (on its own scale, accuracy in percent)."""
    return {name: float(value) for name, value in read_json_object(path).items()
            if isinstance(value, (int, float)) and not isinstance(value, bool)}
