"""Imported runs written as evalpipe dataset folders: questions.jsonl, predictions/<model>.jsonl, dataset.toml
(kind, fields, provenance per model) and, where the harness scored each row, harness/<model>.jsonl. Every run is
checked against the folders and against the other runs before any file is written, so an import is all or nothing;
importing the same runs again changes no file."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import tomli_w

from ..core.names import check_name, safe_name
from ..io.dataset_config import read_toml
from ..io.readers import SUPPORTED_SUFFIXES
from ..io.storage import write_bytes_atomic
from .imported import ImportedRun

FIELDS = {"id_field": "id", "question_field": "question", "gold_field": "answers", "prediction_field": "prediction"}
KIND_FIELDS = {"multiple_choice": {**FIELDS, "gold_field": "answer"}, "math": {**FIELDS, "gold_field": "answer"},
               "function_calling": {"id_field": "id"},  # its items and bfcl-eval's results are read as they are
               "tau2": {"id_field": "id"}}
VERDICTS_FOLDER = "harness"  # <model>.jsonl: the harness's own verdict on every row


@dataclass(frozen=True)
class ImportOutcome:
    """What an import does to a dataset folder for one run: per file, "written", "replaced" or "unchanged"."""

    run: ImportedRun
    dataset: str
    model: str
    questions: str
    predictions: str
    config: str
    rows: int


@dataclass
class ImportPlan:
    """The files an import writes (path → bytes), what it says per run, and the problems that stop it."""

    writes: dict[Path, bytes] = field(default_factory=dict)
    outcomes: list[ImportOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def plan_import(runs: list[ImportedRun], inputs: Path, dataset: str | None = None,
                model: str | None = None) -> ImportPlan:
    """The writes for `runs` under `inputs` (dataset default: the task's name; model default: the run's), or the
    problems: a run with no usable row, a folder holding other questions or another kind, two runs that disagree."""
    plan, folders = ImportPlan(), {}
    for run in runs:
        if not run.questions:
            first = f"; first: {run.set_aside[0]}" if run.set_aside else ""
            plan.problems.append(f"{run.file}: no usable row ({len(run.set_aside)} set aside{first})")
            continue
        folder = inputs / (check_name(dataset, "--dataset") if dataset else safe_name(run.task))
        folders.setdefault(folder, []).append((run, check_name(model, "--model") if model else safe_name(run.model)))
    for folder, members in folders.items():
        _plan_folder(plan, folder, members)
    return plan


def write_planned(plan: ImportPlan) -> None:
    """Write every file of a plan without problems, each atomically."""
    if plan.problems:
        raise ValueError("an import plan with problems is not written")
    for path, data in plan.writes.items():
        write_bytes_atomic(path, data)


def _plan_folder(plan: ImportPlan, folder: Path, members: list[tuple[ImportedRun, str]]) -> None:
    config_path = folder / "dataset.toml"
    config = read_toml(config_path)
    first = members[0][0]
    kind = config.get("kind", first.kind)
    problems = [f"{config_path}: kind {kind!r}, but {run.file} is {run.kind!r}; import into another --dataset"
                for run, _ in members if run.kind != kind]
    problems = problems or _question_problems(folder, members)
    models: dict[str, ImportedRun] = {}
    for run, model_name in members:
        if model_name in models and models[model_name].predictions != run.predictions:
            problems.append(f"{folder.name}: model {model_name!r} twice with other answers, from "
                            f"{models[model_name].file} and {run.file}; import one of them, or each with its own "
                            "--model")
        models.setdefault(model_name, run)
    if problems:
        plan.problems.extend(problems)
        return
    members = [(run, model_name) for model_name, run in models.items()]  # the same run logged twice is imported once
    questions = plan_write(plan, folder / "questions.jsonl", _jsonl(first.questions))
    provenance = dict(config.get("provenance", {}))
    predictions = {}
    for run, model_name in members:
        predictions[model_name] = plan_write(plan, folder / "predictions" / f"{model_name}.jsonl",
                                           _jsonl(run.predictions))
        provenance[model_name] = run.provenance()
        if run.verdicts:
            verdicts = f"{VERDICTS_FOLDER}/{model_name}.jsonl"
            plan_write(plan, folder / verdicts, _jsonl(run.verdicts))
            provenance[model_name]["verdicts"] = verdicts
    fields = KIND_FIELDS.get(kind, FIELDS)
    params = {**config.get("params", {}), **{k: v for run, _ in members for k, v in run.params.items()}}
    wanted = {**config, "kind": kind, **fields, **({"params": params} if params else {}), "provenance": provenance}
    config_outcome = "unchanged" if wanted == config else plan_write(plan, config_path, tomli_w.dumps(wanted).encode())
    for run, model_name in members:
        plan.outcomes.append(ImportOutcome(run, folder.name, model_name, questions, predictions[model_name],
                                           config_outcome, len(run.questions)))


def _question_problems(folder: Path, members: list[tuple[ImportedRun, str]]) -> list[str]:
    """Why the runs' questions cannot share `folder`: another questions file there, or questions that differ from
    what is there or from each other."""
    others = [folder / f"questions{suffix}" for suffix in SUPPORTED_SUFFIXES if suffix != ".jsonl"
              and (folder / f"questions{suffix}").exists()]
    if others:
        return [f"{folder}: already has {others[0].name}; import into another --dataset"]
    path, reference = folder / "questions.jsonl", None
    if path.exists():
        try:
            reference = {row["id"]: row for row in (orjson.loads(line) for line in path.read_bytes().splitlines()
                                                    if line.strip())}
        except (orjson.JSONDecodeError, KeyError, TypeError):
            return [f"{path}: not a questions file written by evalpipe import; import into another --dataset"]
        source = str(path)
    else:
        source = members[0][0].file
    problems = []
    for run, _ in members:
        mine = {row["id"]: row for row in run.questions}
        if reference is None:
            reference = mine
            continue
        if mine != reference:
            differ = sorted(set(reference) ^ set(mine)) or [i for i in mine if reference[i] != mine[i]]
            problems.append(f"{folder.name}: {run.file} holds other questions than {source} ({len(differ)} differ, "
                            f"first id {differ[0]!r}); import into another --dataset")
    return problems


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


def plan_write(plan: ImportPlan, path: Path, data: bytes) -> str:
    """Plan writing `data` to `path` unless it already holds it: "unchanged", "replaced" or "written"."""
    if path.exists():
        if path.read_bytes() == data:
            return "unchanged"
        plan.writes[path] = data
        return "replaced"
    plan.writes[path] = data
    return "written"
