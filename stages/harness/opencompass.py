"""OpenCompass' predictions/<model>/<dataset>.json ({index: {origin_prompt, prediction, gold}}; several replies per
item as samples), with the scores in results/<model>/<dataset>.json beside them."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..io.fields import gold_answer_texts
from ..io.json_depth import load_json
from ..io.storage import read_input_bytes
from ..kinds.multiple_choice.options import LETTERS, options_from_text
from .chat_templates import chat_templates, without_template
from .imported import ImportedRun, SkippedFile, files_under, read_json_object, register_importer, replies_prediction

RUNS = re.compile(r"\((\d+) runs average\)$")


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
    entries, set_aside = [], []
    for index, record in document.items():
        replies = record.get("prediction") if isinstance(record, dict) else None
        if isinstance(replies, list) and replies and all(isinstance(reply, str) for reply in replies):
            entries.append((str(index), record, replies))  # num_return_sequences > 1: the item's samples
        elif isinstance(replies, str):
            entries.append((str(index), record, [replies]))
        else:
            set_aside.append(f"{path}: [{index}]: no prediction text")
    metrics = _scores(path.parents[2] / "results" / path.parent.name / f"{path.stem}.json")
    rows, prompts = [], {}
    for row_id, record, replies in _replicas_joined(entries, _runs(metrics)):
        prompt = _prompt_text(record.get("origin_prompt"))
        question = without_template(prompt, template)
        if question != prompt:
            prompts[row_id] = prompt
        rows.append((row_id, question, _golds(record.get("gold")), replies))
    if rows and not any(golds for _, _, golds, _ in rows):
        return _run_of(path, "instruction", [{"id": row_id, "question": prompt} for row_id, prompt, _, _ in rows],
                       rows, set_aside, prompts, metrics)
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
    return _run_of(path, "multiple_choice" if multiple_choice else "qa", questions, rows, set_aside, prompts, metrics)


def _runs(metrics: dict[str, float]) -> int | None:
    """n of a dataset run n times (`n = 4` in its config), from the results' `accuracy (4 runs average)` keys."""
    found = {int(match.group(1)) for name in metrics if (match := RUNS.search(name))}
    return found.pop() if len(found) == 1 else None


def _replicas_joined(entries: list[tuple[str, dict[str, Any], list[str]]],
                     runs: int | None) -> list[tuple[str, dict[str, Any], list[str]]]:
    """A dataset run n times holds its items n times over, in the same order: each item once, with the replies of
    every run as its samples. n comes from the results file, or is the number of times the (prompt, gold) sequence
    repeats when one run's prompts are all different."""
    keys = [orjson.dumps([record.get("origin_prompt"), record.get("gold")], option=orjson.OPT_SORT_KEYS)
            for _, record, _ in entries]
    if runs is None:
        period = next((size for size in range(1, len(keys) // 2 + 1) if len(keys) % size == 0
                       and keys[size:] == keys[:-size]), len(keys))
        runs = len(keys) // period if len(set(keys[:period])) == period else 1
    if runs <= 1 or len(keys) % runs or keys[len(keys) // runs:] != keys[:-(len(keys) // runs)]:
        return entries
    size = len(keys) // runs
    return [(row_id, record, [reply for run in range(runs) for reply in entries[run * size + item][2]])
            for item, (row_id, record, _) in enumerate(entries[:size])]


def _run_of(path: Path, kind: str, questions: list[dict[str, Any]], rows: list[tuple], set_aside: list[str],
            prompts: dict[str, str], metrics: dict[str, float]) -> ImportedRun:
    """The run; a prediction whose prompt was read without the model's chat template keeps that prompt; an item with
    several replies has them as its samples."""
    model, task = path.parent.name, path.stem
    return ImportedRun(tool="opencompass", tool_version=None, task=task, model=model, file=str(path), kind=kind,
                       questions=questions,
                       predictions=[{**replies_prediction(row_id, replies),
                                     **({"prompt": prompts[row_id]} if row_id in prompts else {})}
                                    for row_id, _, _, replies in rows],
                       metrics=metrics, set_aside=set_aside)


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
