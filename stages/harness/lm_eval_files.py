"""Where lm-evaluation-harness put its samples, found by content: `samples_<task>_<time>.jsonl` beside
`results_<time>.json` (lm-eval ≥ 0.4.3), `<model args>_<task>.jsonl` holding a JSON array beside `results.json`
(0.4.0–0.4.2), or any other name; plain, gzip or zstd. 0.3's `--write_out` files are refused by name. Also what
every reading of a sample shares: its question, its requests, the documents' ids."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import UsageError
from ..io.fields import QUESTION_FIELDS, get_record_id, name_ignoring_case
from ..io.json_depth import load_json
from .imported import SkippedFile, read_json_object
from .wild_files import (
    LfsPointer,
    UnreadableFile,
    WildRecords,
    plain_name,
    wild_records,
)

SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<time>\d{4}-\d\d-\d\dT[\d.-]+)\.jsonl?$")
RESULTS_NAME = re.compile(r"^results(?:_(?P<time>\d{4}-\d\d-\d\dT[\d.-]+))?\.json$")
WRITE_OUT_NAME = re.compile(r"_write_out_info\.json$")
JSON_NAME = re.compile(r"\.jsonl?$", re.IGNORECASE)


@dataclass
class SamplesFile:
    """One samples file: its task, the results document lm-eval wrote beside it ({} when none) and its records."""

    path: Path
    task: str
    results: dict[str, Any]
    records: WildRecords


def is_sample(record: Any) -> bool:
    """Whether a record is one lm-eval sample: a doc_id with the document or the requests."""
    return isinstance(record, dict) and "doc_id" in record and any(
        key in record for key in ("doc", "arguments", "resps", "filtered_resps"))


def find_samples(paths: list[Path]) -> Iterator[SamplesFile | SkippedFile]:
    """Every samples file among `paths` (folders searched for JSON files of any name), each with its task and
    results; refusals for what cannot be one, and for a folder holding results but no samples."""
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
    for folder, files, explicit in _by_folder(paths):
        results = _results_documents(folder)
        found = 0
        for path in files:
            if RESULTS_NAME.match(plain_name(path)):
                if explicit:
                    yield SkippedFile(str(path), "an lm-eval results file: the samples are the files lm-eval writes "
                                                 "beside it with --log_samples", refused=True)
                continue
            item = _samples_file(path, explicit, results)
            if isinstance(item, SamplesFile):
                found += 1
            if item is not None:
                yield item
        if results and not found and not explicit:
            names = ", ".join(sorted(path.name for path in results))
            yield SkippedFile(str(folder), f"holds lm-eval results ({names}) but no samples: lm-eval writes them "
                                           "with --log_samples", refused=True)


def _by_folder(paths: list[Path]) -> Iterator[tuple[Path, list[Path], bool]]:
    """(folder, its candidate files, whether they were named one by one) for the named files and each folder
    holding JSON files under the named folders."""
    named = [path for path in paths if not path.is_dir()]
    for path in dict.fromkeys(named):
        yield path.parent, [path], True
    for root in dict.fromkeys(path for path in paths if path.is_dir()):
        folders: dict[Path, list[Path]] = {}
        for path in sorted(root.rglob("*")):
            if path.is_file() and JSON_NAME.search(plain_name(path)):
                folders.setdefault(path.parent, []).append(path)
        for folder, files in folders.items():
            yield folder, files, False


def _results_documents(folder: Path) -> dict[Path, dict[str, Any]]:
    """The results files in `folder` as JSON objects (NaN and Infinity read); unreadable ones as {}."""
    return {path: read_json_object(path) for path in sorted(folder.iterdir())
            if path.is_file() and RESULTS_NAME.match(plain_name(path))}


def _samples_file(path: Path, explicit: bool, results: dict[Path, dict[str, Any]]) -> SamplesFile | SkippedFile | None:
    """The file as samples, a refusal saying why it is not one, or None for a file in a folder that is not lm-eval's."""
    name = plain_name(path)
    if WRITE_OUT_NAME.search(name):
        return SkippedFile(str(path), "an lm-eval 0.3 --write_out file: it holds the prompts, not the targets or "
                                      "the answers; run lm-eval ≥ 0.4 with --log_samples", refused=True)
    try:
        records = wild_records(path)
    except UnreadableFile as exc:
        meant = explicit or SAMPLES_NAME.match(name) or isinstance(exc, LfsPointer)
        return SkippedFile(str(path), str(exc), refused=True) if meant else None
    samples = sum(is_sample(record) for _, record in records.records)
    if not samples:
        if explicit or SAMPLES_NAME.match(name):
            why = records.set_aside[0] if records.set_aside and not records.records else "no record has a doc_id"
            return SkippedFile(str(path), f"not an lm-eval samples file ({why})", refused=True)
        return None
    task, document = _task_and_results(path, name, results)
    return SamplesFile(path, task, document, records)


def _task_and_results(path: Path, name: str, results: dict[Path, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The task a samples file holds and the results document that reports it: by lm-eval's name for the file, else
    the results task whose name ends the file's name, else the file's name."""
    named = SAMPLES_NAME.match(name)
    if named:
        beside = [doc for file, doc in results.items() if RESULTS_NAME.match(plain_name(file))["time"] == named["time"]]
        return named["task"], beside[0] if beside else {}
    stem = JSON_NAME.sub("", name)
    matches = [(len(task), task, document) for document in results.values() for task in _tasks(document)
               if stem == task or stem.endswith(f"_{task}")]
    if matches:
        _, task, document = max(matches, key=lambda match: match[0])
        return task, document
    return stem.removeprefix("samples_"), {}


def _tasks(document: dict[str, Any]) -> set[str]:
    return {str(task) for key in ("results", "configs") if isinstance(document.get(key), dict)
            for task in document[key]}

def single(value: Any) -> Any:
    """A value with single-item lists around it unwrapped: [["x"]] → "x"."""
    while isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value


def doc_ids(records: list[dict]) -> list[str]:
    """The documents' own ids when every document has one and no two share it, else lm-eval's doc_id."""
    ids = [get_record_id(record["doc"], None) if isinstance(record.get("doc"), dict) else None for record in records]
    if None in ids or len(set(ids)) != len(ids):
        return [str(record["doc_id"]) for record in records]
    return ids


def requests(record: dict) -> list[list[Any]]:
    """The arguments of each request: a list of argument lists (≤ 0.4.2) or {"gen_args_<i>": {"arg_<j>": …}}."""
    arguments = record["arguments"]
    if isinstance(arguments, dict):
        return [[request[f"arg_{j}"] for j in range(len(request))]
                for request in (arguments[f"gen_args_{i}"] for i in range(len(arguments)))]
    return [list(request) if isinstance(request, (list, tuple)) else [request] for request in arguments]


def question_text(record: dict) -> str:
    """The question as the dataset states it (a question / query / prompt field of the doc), else the prompt sent."""
    doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
    for name in QUESTION_FIELDS:
        key = name_ignoring_case(doc, name)
        if key is not None and isinstance(doc[key], str) and doc[key].strip():
            return doc[key]
    prompt = single(requests(record)[0][0])
    if not isinstance(prompt, str):
        raise TypeError(f"the prompt is a {type(prompt).__name__}, expected text")
    try:
        messages = load_json(prompt)
        return messages[-1]["content"] if isinstance(messages, list) else prompt
    except (orjson.JSONDecodeError, KeyError, TypeError, IndexError):
        return prompt
