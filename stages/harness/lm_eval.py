"""lm-evaluation-harness' `--log_samples` files: samples_<task>_<time>.jsonl beside results_<time>.json."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..core.records import Reject
from ..io.fields import QUESTION_FIELDS, get_ground_truth_answer, get_record_id, gold_answer_texts, name_ignoring_case
from ..io.json_depth import load_json
from ..io.readers import iter_records
from .imported import ImportedRun, SkippedFile, files_under, read_json_object, register_importer

SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_(?P<time>\d{4}-\d\d-\d\dT[\d.-]+)\.jsonl$")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@register_importer("lm-eval")
def read_lm_eval(paths: list[Path]) -> Iterator[ImportedRun | SkippedFile]:
    """Every samples file among `paths` (folders searched) as one run: generate_until tasks as open QA (the filtered
    response against the golds), loglikelihood multiple-choice tasks as multiple choice (the option with the highest
    loglikelihood against the gold index)."""
    for path in files_under(paths, "samples_*.jsonl"):
        named = SAMPLES_NAME.search(path.name)
        if named is None:
            yield SkippedFile(str(path), "not an lm-eval samples_<task>_<time>.jsonl file")
            continue
        task, results = named["task"], read_json_object(path.with_name(f"results_{named['time']}.json"))
        output_type = results.get("configs", {}).get(task, {}).get("output_type")
        if output_type not in (None, "generate_until", "multiple_choice"):
            yield SkippedFile(str(path), f"output type {output_type!r} (evalpipe scores generate_until and "
                                         "multiple_choice tasks)")
            continue
        records, set_aside = _samples(path)
        if output_type is None:
            output_type = "multiple_choice" if records and _is_loglikelihood(records[0][1]) else "generate_until"
        read = _choice_row if output_type == "multiple_choice" else _answer_row
        ids = _doc_ids([record for _, record in records])
        questions, predictions = [], []
        for (line, record), row_id in zip(records, ids):
            try:
                question, prediction = read(record)
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                set_aside.append(f"{path}:{line}: {type(exc).__name__}: {exc}")
                continue
            questions.append({"id": row_id, **question})
            predictions.append({"id": row_id, "prediction": prediction})
        yield ImportedRun(
            tool="lm-eval", tool_version=results.get("lm_eval_version"), task=task,
            model=str(results.get("model_name") or path.parent.name), file=str(path),
            kind="multiple_choice" if output_type == "multiple_choice" else "qa", questions=questions,
            predictions=predictions, metrics=_metrics(results.get("results", {}).get(task, {})), set_aside=set_aside)


def _samples(path: Path) -> tuple[list[tuple[int, dict]], list[str]]:
    """(line, record) for every readable line, and a note for each other one."""
    records, set_aside = [], []
    for item in iter_records(path):
        if isinstance(item, Reject):
            set_aside.append(f"{path}:{item.line}: {item.reason}")
            continue
        line, record, _ = item
        if isinstance(record, dict) and "doc_id" in record:
            records.append((line, record))
        else:
            set_aside.append(f"{path}:{line}: not a sample (no doc_id)")
    return records, set_aside


def _is_loglikelihood(record: dict) -> bool:
    responses = record.get("filtered_resps")
    return isinstance(responses, list) and bool(responses) and all(
        isinstance(item, list) and len(item) == 2 for item in responses)


def _doc_ids(records: list[dict]) -> list[str]:
    """The documents' own ids when every document has one and no two share it, else lm-eval's doc_id."""
    ids = [get_record_id(record["doc"], None) if isinstance(record.get("doc"), dict) else None for record in records]
    if None in ids or len(set(ids)) != len(ids):
        return [str(record["doc_id"]) for record in records]
    return ids


def _question_text(record: dict) -> str:
    """The question as the dataset states it (a question / query / prompt field of the doc), else the prompt sent."""
    doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
    for name in QUESTION_FIELDS:
        key = name_ignoring_case(doc, name)
        if key is not None and isinstance(doc[key], str) and doc[key].strip():
            return doc[key]
    prompt = record["arguments"]["gen_args_0"]["arg_0"]
    if isinstance(prompt, list):
        prompt = prompt[0]
    try:
        messages = load_json(prompt)
        return messages[-1]["content"] if isinstance(messages, list) else prompt
    except (orjson.JSONDecodeError, KeyError, TypeError, IndexError):
        return prompt


def _answer_row(record: dict) -> tuple[dict[str, Any], str]:
    """A generate_until sample: (question with its golds, the filtered response)."""
    response = record["filtered_resps"]
    response = response[0] if isinstance(response, list) else response
    if not isinstance(response, str):
        raise TypeError(f"filtered response is a {type(response).__name__}, expected text")
    return {"question": _question_text(record), "answers": _golds(record)}, response


def _golds(record: dict) -> list[str]:
    """The target as a list of answers (lm-eval writes a list of golds as its Python repr), else the doc's answer."""
    target = record.get("target")
    if isinstance(target, str) and target.startswith("[") and target.endswith("]"):
        try:
            target = ast.literal_eval(target)
        except (ValueError, SyntaxError):
            pass
    golds = gold_answer_texts(target)
    return golds or gold_answer_texts(get_ground_truth_answer(record.get("doc") or {}))


def _choice_row(record: dict) -> tuple[dict[str, Any], str]:
    """A loglikelihood multiple-choice sample: (question with the options and the gold letter, the letter of the
    option with the highest loglikelihood)."""
    arguments = record["arguments"]
    options = [str(arguments[f"gen_args_{i}"]["arg_1"]).strip() for i in range(len(arguments))]
    scores = [float(pair[0]) for pair in record["filtered_resps"]]
    if len(scores) != len(options) or len(options) > len(LETTERS):
        raise ValueError(f"{len(scores)} loglikelihoods for {len(options)} options")
    target = record["target"]
    target = target[0] if isinstance(target, list) else target
    gold = options.index(target.strip()) if isinstance(target, str) and target.strip() in options else int(target)
    if not 0 <= gold < len(options):
        raise IndexError(f"gold index {gold} outside {len(options)} options")
    chosen = max(range(len(scores)), key=scores.__getitem__)
    question = {"question": _question_text(record), "options": _option_texts(record, options),
                "answer": LETTERS[gold]}
    return question, LETTERS[chosen]


def _option_texts(record: dict, choices: list[str]) -> list[str]:
    """The choices lm-eval scored; when those are the letters themselves (CMMLU's "A"–"D"), the texts the document
    gives for those letters."""
    if choices != list(LETTERS[:len(choices)]) or not isinstance(record.get("doc"), dict):
        return choices
    doc = record["doc"]
    keys = [name_ignoring_case(doc, letter) for letter in choices]
    if None in keys or not all(isinstance(doc[key], (str, int, float)) for key in keys):
        return choices
    return [str(doc[key]).strip() for key in keys]


def _metrics(task_results: dict[str, Any]) -> dict[str, float]:
    """lm-eval's "<metric>,<filter>" values as {metric: value} ("<metric>,<filter>" kept for filters other than
    none); standard errors left out."""
    metrics = {}
    for key, value in task_results.items():
        name, _, filter_name = key.partition(",")
        if not filter_name or name.endswith("_stderr") or isinstance(value, bool) \
                or not isinstance(value, (int, float)):
            continue
        metrics[name if filter_name == "none" else key] = float(value)
    return metrics
