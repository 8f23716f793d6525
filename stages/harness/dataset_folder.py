"""An imported run written as an evalpipe dataset folder: questions.jsonl, predictions/<model>.jsonl and dataset.toml
(kind, fields, provenance per model). Importing the same run again changes no file."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import tomli_w

from ..core.errors import UsageError
from ..core.names import check_name, safe_name
from ..io.dataset_config import read_toml
from ..io.readers import SUPPORTED_SUFFIXES
from ..io.storage import write_bytes_atomic
from .imported import ImportedRun

FIELDS = {"id_field": "id", "question_field": "question", "gold_field": "answers", "prediction_field": "prediction"}
MULTIPLE_CHOICE_FIELDS = {**FIELDS, "gold_field": "answer"}


@dataclass(frozen=True)
class ImportOutcome:
    """What an import did to a dataset folder: per file, "written", "replaced" or "unchanged"."""

    dataset: str
    model: str
    questions: str
    predictions: str
    config: str
    rows: int


def write_imported(run: ImportedRun, inputs: Path, dataset: str | None = None,
                   model: str | None = None) -> ImportOutcome:
    """Write `run` under `inputs` as dataset `dataset` (default: the task's name) and model `model` (default: the
    run's); a folder that already holds other questions or another kind is refused, naming what differs."""
    folder = inputs / (check_name(dataset, "--dataset") if dataset else safe_name(run.task))
    model_name = check_name(model, "--model") if model else safe_name(run.model)
    config_path = folder / "dataset.toml"
    config = read_toml(config_path)
    if config.get("kind", run.kind) != run.kind:
        raise UsageError(f"{config_path}: kind {config['kind']!r}, but {run.file} is {run.kind!r}; import into "
                         "another --dataset")
    questions = _check_questions(folder, run)
    predictions = _write_if_changed(folder / "predictions" / f"{model_name}.jsonl", _jsonl(run.predictions))
    fields = MULTIPLE_CHOICE_FIELDS if run.kind == "multiple_choice" else FIELDS
    provenance = {**config.get("provenance", {}), model_name: run.provenance()}
    wanted = {**config, "kind": run.kind, **fields, "provenance": provenance}
    config_outcome = "unchanged" if wanted == config else _write_if_changed(config_path, tomli_w.dumps(wanted).encode())
    return ImportOutcome(folder.name, model_name, questions, predictions, config_outcome, len(run.questions))


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


def _check_questions(folder: Path, run: ImportedRun) -> str:
    """Write questions.jsonl, or leave it when it holds the same questions; other questions are refused."""
    others = [folder / f"questions{suffix}" for suffix in SUPPORTED_SUFFIXES if suffix != ".jsonl"
              and (folder / f"questions{suffix}").exists()]
    if others:
        raise UsageError(f"{folder}: already has {others[0].name}; import into another --dataset")
    path = folder / "questions.jsonl"
    if path.exists():
        try:
            existing = {row["id"]: row for row in (orjson.loads(line) for line in path.read_bytes().splitlines()
                                                   if line.strip())}
        except (orjson.JSONDecodeError, KeyError, TypeError):
            raise UsageError(f"{path}: not a questions file written by evalpipe import; import into another "
                             "--dataset") from None
        mine = {row["id"]: row for row in run.questions}
        if existing != mine:
            differ = sorted(set(existing) ^ set(mine)) or [i for i in mine if existing[i] != mine[i]]
            raise UsageError(f"{path}: holds other questions than {run.file} ({len(differ)} differ, first id "
                             f"{differ[0]!r}); import into another --dataset")
        return "unchanged"
    return _write_if_changed(path, _jsonl(run.questions))


def _write_if_changed(path: Path, data: bytes) -> str:
    if path.exists():
        if path.read_bytes() == data:
            return "unchanged"
        write_bytes_atomic(path, data)
        return "replaced"
    write_bytes_atomic(path, data)
    return "written"
