"""What each `evalpipe` command does: run the B1→B6 DAG, show artifact rows, report each stage's state."""
from __future__ import annotations

import argparse
import re
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import orjson

from stages.core.errors import UsageError
from stages.core.names import check_name
from stages.core.printable import printable
from stages.core.stage_names import MODEL_STAGES, STAGES
from stages.io.artifacts import artifact_damage, artifact_paths, iter_rows, read_artifact_json
from stages.io.storage import is_local, location, remove

from .exit_codes import EXIT_FAILED, EXIT_OK
from .plan import Selection, discover
from .report_tasks import B6Report
from .run_lock import outputs_lock
from .runner import (
    build,
    input_facts_kept,
    print_reports,
    read_reports,
    refresh_summary,
    report_problems,
    with_run_token,
)
from .summary_task import B6Summary
from .task_base import StageTask
from .tasks import B1Questions, B2Predictions, B3Normalize, B4Match, B5Score

if TYPE_CHECKING:
    from upath import UPath

MODEL_TASKS = {"B2": B2Predictions, "B3": B3Normalize, "B4": B4Match, "B5": B5Score}


def stage_tasks(outputs: str, spec: dict[str, Any], models: list[str]) -> list[StageTask]:
    """Every stage task of one dataset for the given models (and every shard), in stage order."""
    shards = range(spec["shards"])
    tasks: list[StageTask] = [B1Questions(outputs_dir=outputs, spec=spec, shard=shard) for shard in shards]
    for stage, cls in MODEL_TASKS.items():
        tasks.extend(cls(outputs_dir=outputs, spec=spec, model=model, shard=shard) for model in models
                     for shard in shards)
    report = B6Report(outputs_dir=outputs, spec=spec)
    tasks.extend(task for model, task in report.leaderboard_tasks().items() if model in models)
    tasks.append(report)
    return tasks


def _selected_models(spec: dict[str, Any], selection: Selection) -> list[str]:
    return [m for m in sorted(spec["predictions"]) if selection.model in (None, m)]


def invalidate(outputs: str, specs: list[dict[str, Any]], selection: Selection, from_stage: str) -> int:
    """Remove the artifacts of `from_stage` and every stage after it for the selection (Luigi has no --force); the
    summary then no longer counts as complete and is rewritten."""
    first = STAGES.index(from_stage)
    removed = 0
    for spec in specs:
        models = sorted(spec["predictions"]) if from_stage == "B1" else _selected_models(spec, selection)
        for task in stage_tasks(outputs, spec, models):
            if STAGES.index(task.stage) >= first:
                removed += _remove_artifact(task.artifact_path())
    return removed


def _remove_artifact(path: UPath) -> int:
    """Remove an artifact and what belongs to it; something that is not a file where it belongs is left for the
    stage's run to report (one FAILED line), never removed."""
    try:
        existed = remove(path)
    except (IsADirectoryError, NotADirectoryError, PermissionError):
        return 0
    remove(path.with_suffix(".txt"))
    for sidecar in path.parent.glob(f"{path.stem}.*.parquet"):
        remove(sidecar)
    return int(existed)


def _written_since(outputs: UPath, started: float) -> str:
    """How many artifacts this run (or, on luigid, any worker for it) wrote: by modification time, locally or as the
    storage reports it (a second's leeway for the storage's clock)."""
    if is_local(outputs):
        ran = sum(1 for p in outputs.rglob("B*_*.json") if p.stat().st_mtime >= started)
    else:
        found = outputs.fs.find(outputs.path, detail=True)
        ran = sum(1 for name, info in found.items()
                  if ARTIFACT_NAME.search(name) and _modified(info) >= started - 1)
    return f"{ran} artifact(s) written, the rest up to date"


ARTIFACT_NAME = re.compile(r"(^|/)B\d_[^/]*\.json$")


def _modified(info: dict[str, Any]) -> float:
    """An object's modification time as a timestamp (s3fs: LastModified, a datetime)."""
    value = info.get("LastModified") or info.get("mtime") or info.get("last_modified")
    return value.timestamp() if hasattr(value, "timestamp") else float(value or 0)


def cmd_run(args: argparse.Namespace) -> int:
    selection = Selection(tuple(args.dataset or ()), args.model)
    outputs = location(args.outputs)
    with input_facts_kept(outputs):
        return _run(args, selection, outputs)


def _run(args: argparse.Namespace, selection: Selection, outputs: UPath) -> int:
    found = discover(args.inputs, selection, str(outputs))
    specs = found.specs
    if not specs:  # every selected dataset's inputs are unreadable
        report_problems([], found.unreadable)
        return EXIT_FAILED
    with held_outputs(outputs, args):
        if args.force or args.only:
            invalidate(str(outputs), specs, selection, args.only or "B1")
        started = time.time()
        built = build(str(outputs), specs, not selection.datasets, args.workers, args.scheduler_host,
                      args.scheduler_port, found.unreadable)
        if selection.datasets:
            refresh_summary(str(outputs), discover(args.inputs, Selection(), str(outputs), notes=False),
                            [*(spec["name"] for spec in specs), *found.unreadable])
        if not built:
            report_problems([], found.unreadable)
            return EXIT_FAILED
        reports = read_reports(outputs, specs)
        print_reports(reports, specs, args.verbose, str(args.outputs))
        written = _written_since(outputs, started)
    print(f"{written}; outputs in {outputs}")
    print(f"report: {outputs / 'report.html'}")
    return EXIT_FAILED if report_problems(reports, found.unreadable) else EXIT_OK


def held_outputs(outputs: UPath, args: argparse.Namespace) -> AbstractContextManager:
    """A local outputs folder for this run alone on the local scheduler (luigid already hands each task to one
    worker, whoever asks)."""
    if args.scheduler_host or not is_local(outputs):
        return nullcontext()
    return outputs_lock(outputs, wait=not args.no_wait)


def cmd_status(args: argparse.Namespace) -> int:
    with input_facts_kept(location(args.outputs)):
        return _status(args)


def _status(args: argparse.Namespace) -> int:
    selection = Selection(tuple(args.dataset or ()), args.model)
    outputs = str(location(args.outputs))
    found = discover(args.inputs, selection, outputs)
    specs = with_run_token(found.specs)
    for dataset, problem in sorted(found.unreadable.items()):
        print(printable(f"-   {dataset:<24} {'-':<20} unreadable: {problem}"))
    for spec in specs:
        for task in stage_tasks(outputs, spec, _selected_models(spec, selection)):
            if task.complete():
                state = "done"
            elif task.failure() is not None:
                state = "failed"
            else:
                damage = artifact_damage(task.artifact_path())
                state = ("stale" if damage is None else "missing" if damage == "missing"
                         else f"damaged ({damage}; the next run rebuilds it)")
            dataset = f"{task.dataset} shard {task.shard}" if task.sharded else task.dataset
            print(f"{task.stage:<4}{dataset:<24} {task.model or '-':<20} {state}")
    if not selection.datasets:
        summary = B6Summary(outputs_dir=outputs, specs=specs)
        state = "done" if summary.complete() else "stale" if summary.artifact_path().exists() else "missing"
        print(f"B6  {'(summary, report.html)':<24} {'-':<20} {state}")
    return EXIT_FAILED if found.unreadable else EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    stage = args.stage.upper()
    check_name(args.dataset, "--dataset")
    model = args.model and check_name(args.model, "--model")
    if stage in MODEL_STAGES and not model:
        model = _only_model(location(args.outputs) / args.dataset)
    paths = artifact_paths(args.outputs, stage, args.dataset, model)
    documents = [(path, read_artifact_json(path)) for path in paths]
    for path, document in documents:
        damage = artifact_damage(path, document)
        if damage == "missing":
            raise UsageError(f"no artifact {path} (run `evalpipe run` first)")
        if damage is not None:
            raise UsageError(f"artifact {path} is damaged: {damage} (`evalpipe run` rebuilds it)")
    out = sys.stdout.buffer
    if stage == "B6":
        out.write(orjson.dumps(documents[0][1]["report"]) + b"\n")
    elif args.rejects:
        for _, document in documents:
            for reject in document.get("rejects", []):
                out.write(orjson.dumps(reject) + b"\n")
    else:
        shown = 0
        for path, _ in documents:
            for row in iter_rows(path):
                if args.id is None or str(row.get("id")) == args.id:
                    out.write(orjson.dumps(row) + b"\n")
                    shown += 1
        if args.id is not None and not shown:
            raise UsageError(f"no row with id {args.id!r} in {', '.join(map(str, paths))}")
    return EXIT_OK


def _only_model(folder: UPath) -> str:
    models = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    if len(models) != 1:
        raise UsageError(f"--model is required for this stage (models: {', '.join(models) or 'none'})")
    return models[0]
