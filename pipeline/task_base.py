"""StageTask: complete only when the artifact exists and its fingerprint matches; runs write atomically."""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

import luigi
from luigi.freezing import recursively_unfreeze

from stages.core.gc_pause import gc_paused
from stages.core.records import Reject, Rows
from stages.io.artifacts import artifact_damage, read_artifact_json, rows_file_encoding, write_artifact
from stages.io.shards import shard_digests, shard_range
from stages.io.storage import location, storage_full_reason
from stages.kinds import Kind, get_kind
from stages.text.reasoning import ReasoningTags

from .failures import clear_failure, failure_path, read_failure, record_failure
from .fingerprint import code_version as current_code_version
from .fingerprint import fingerprint, path_digest
from .progress import set_progress_context

if TYPE_CHECKING:
    from upath import UPath

INPUT_FACTS_DIR = "_input_facts"  # shard facts about remote inputs, read by every host instead of the inputs
_REMEMBERED: list[dict[str, Any]] = []  # task_id → fingerprint (and presence), while a build remembers them


class CodeVersionParameter(luigi.Parameter):
    """The evalpipe release that scheduled a task (part of its id): a worker runs only its own release's tasks."""

    def __init__(self) -> None:
        super().__init__(default=current_code_version(), description="code version of the driver that scheduled it")


def shard_folder(dataset_folder: UPath, shard: int | None) -> UPath:
    """Where a shard's artifacts live: <dataset>/shards/<nnnnn>/, or the dataset folder itself when unsharded."""
    return dataset_folder if shard is None else dataset_folder / "shards" / f"{shard:05d}"


@contextmanager
def fingerprints_remembered() -> Iterator[None]:
    """Within one build, remember each task's fingerprint until a stage runs (Luigi asks for the same ones often);
    outside a build every call recomputes, since inputs may change at any time."""
    _REMEMBERED.append({})
    try:
        yield
    finally:
        _REMEMBERED.pop()


def forget_fingerprints() -> None:
    """A stage ran: what other stages read may have changed."""
    for remembered in _REMEMBERED:
        remembered.clear()


@dataclass
class StageResult:
    """What a stage computed: rows (or None), counts, rejects and any other header or body fields."""

    columns: Rows | None
    counts: dict[str, Any]
    rejects: list[Reject] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)


class StageTask(luigi.Task):
    """One stage for one dataset (and model, and shard). Subclasses name their inputs, parameters and computation."""

    outputs_dir = luigi.Parameter()
    spec = luigi.DictParameter()
    model = luigi.Parameter(default="")
    shard = luigi.IntParameter(default=0)
    code_version = CodeVersionParameter()

    stage: ClassVar[str]
    artifact_name: ClassVar[str]

    @property
    def dataset(self) -> str:
        return self.spec["name"]

    @property
    def plain_spec(self) -> dict[str, Any]:
        return recursively_unfreeze(self.spec)

    def dataset_kind(self) -> Kind:
        """The dataset's kind as its parameters run it (bound to a task with stages of its own: Kind.for_params)."""
        return get_kind(self.spec["kind"]).for_params(self.spec["params"])

    def reasoning_tags(self) -> ReasoningTags:
        """The tags the dataset's replies wrap their reasoning in (dataset.toml [reasoning])."""
        return ReasoningTags(**self.plain_spec.get("reasoning", {}))

    @property
    def sharded(self) -> bool:
        """The dataset runs B1–B5 per shard (B6 merges them)."""
        return self.spec["shards"] > 1 and self.stage != "B6"

    def rows(self) -> range | None:
        """The record positions this shard reads, or None for the whole file."""
        return shard_range(self.shard, self.spec["shard_rows"]) if self.sharded else None

    def artifact_path(self) -> UPath:
        folder = shard_folder(location(self.outputs_dir) / self.dataset, self.shard if self.sharded else None)
        return (folder / self.model if self.model else folder) / self.artifact_name

    def input_location(self, relative: str) -> UPath:
        """An input named relative to the inputs root (the spec keeps host-independent names)."""
        return location(self.spec["inputs"]) / relative

    def input_files(self) -> dict[str, UPath]:
        """Files (or folders of files) whose bytes this stage reads directly, by host-independent name."""
        return {}

    def stage_params(self) -> dict[str, Any]:
        """Parameters this stage's result depends on."""
        return {}

    def upstream(self) -> list[StageTask]:
        return luigi.task.flatten(self.requires())

    def fingerprint(self) -> str:
        """Content fingerprint of this stage (see fingerprints_remembered for when it is reused)."""
        if not _REMEMBERED:
            return fingerprint(self.fingerprint_parts())
        remembered = _REMEMBERED[-1]
        if self.task_id not in remembered:
            remembered[self.task_id] = fingerprint(self.fingerprint_parts())
        return remembered[self.task_id]

    def fingerprint_parts(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "dataset": self.dataset,
            "model": self.model,
            "params": self.stage_params(),
            "inputs": self.input_digests(),
            "upstream": {self._upstream_label(task): task.fingerprint() for task in self.upstream()},
            "code_version": current_code_version(),
        }

    def input_digests(self) -> dict[str, str]:
        """Content digests of the inputs: of this shard's rows for a sharded JSON-lines file, else of the whole."""
        if not self.sharded:
            return {name: path_digest(path) for name, path in self.input_files().items()}
        shards, size = self.spec["shards"], self.spec["shard_rows"]
        shared = location(self.outputs_dir) / INPUT_FACTS_DIR
        return {f"{name}#{self.shard}": shard_digests(path, size, shards, shared)[self.shard]
                for name, path in self.input_files().items()}

    def _upstream_label(self, task: StageTask) -> str:
        """B1, B2 … for a model's own chain; :<model> and :<shard> added where a stage depends on several of them
        (B6 on every model and shard, a shard's B3 on its neighbours' B1 and B2)."""
        label = f"{task.stage}:{task.model}" if task.model and not self.model else task.stage
        return f"{label}:{task.shard}" if task.sharded and (not self.sharded or task.shard != self.shard) else label

    def complete(self) -> bool:
        """The artifact is there, whole, with this stage's fingerprint, and every artifact it was computed from is
        still there and whole (a lost or damaged intermediate is recomputed, with what follows it, instead of being
        waited for)."""
        document = read_artifact_json(self.artifact_path())
        return (document is not None and document.get("header", {}).get("fingerprint") == self.fingerprint()
                and artifact_damage(self.artifact_path(), document) is None
                and all(task.artifacts_present() for task in self.upstream()))

    def artifacts_present(self) -> bool:
        """This stage's artifact and, recursively, its upstream ones exist whole (remembered within a build once true:
        an absent one may be written meanwhile by another worker, so it is looked for again)."""
        key = f"{self.task_id}#present"
        remembered = _REMEMBERED[-1] if _REMEMBERED else {}
        if key not in remembered:
            present = (artifact_damage(self.artifact_path()) is None
                       and all(task.artifacts_present() for task in self.upstream()))
            if not present:
                return False
            remembered[key] = True
        return remembered[key]

    def failure(self) -> dict[str, Any] | None:
        """The failure record of this stage as it is now (same fingerprint), or None when it has not failed so."""
        record = read_failure(self.failure_record_path())
        return record if record is not None and record.get("fingerprint") == self.fingerprint() else None

    def compute(self) -> StageResult:
        raise NotImplementedError

    def fingerprint_after_compute(self) -> bool:
        """True for stages whose computation writes one of their own inputs (generated answers)."""
        return False

    def run(self) -> None:
        set_progress_context(f"{self.stage} {self.dataset}" + (f"/{self.model}" if self.model else ""))
        forget_fingerprints()
        started = time.perf_counter()
        with rows_file_encoding():  # a table computed in slices is encoded meanwhile; no thread outlives this
            parts = None if self.fingerprint_after_compute() else self.fingerprint_parts()
            try:
                with gc_paused():
                    result = self.compute()
            finally:
                set_progress_context("")
            parts = parts or self.fingerprint_parts()
            counts = dict(result.counts)
            if result.rejects:
                counts.setdefault("rejected", len(result.rejects))
            header = {
                "stage": self.stage,
                "dataset": self.dataset,
                "model": self.model or None,
                "kind": self.spec["kind"],
                "fingerprint": fingerprint(parts),
                "parameters": parts["params"],
                "inputs": parts["inputs"],
                "upstream": parts["upstream"],
                "code_version": current_code_version(),
                "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "counts": counts,
                "timings": {"seconds": round(time.perf_counter() - started, 4)},
                "run_token": self.spec.get("run_token"),  # which run computed it (what a run asked is said per run)
                **result.header,
            }
            body = dict(result.body)
            if result.columns is not None or result.rejects:
                body["rejects"] = [reject.to_dict() for reject in result.rejects]
            write_artifact(self.artifact_path(), header, result.columns, body)
        forget_fingerprints()

    def failure_record_path(self) -> UPath:
        shard = f"shard{self.shard}" if self.sharded else ""
        return failure_path(location(self.outputs_dir), self.stage, self.dataset, self.model, shard)


_STORAGE_FULL: list[str] = []  # in this process: what a stage could not write because its storage was full


def storage_full_seen() -> str | None:
    """The first stage this process could not write because its storage was full (or read-only), with why."""
    return _STORAGE_FULL[0] if _STORAGE_FULL else None


def forget_storage_full() -> None:
    _STORAGE_FULL.clear()


@StageTask.event_handler(luigi.Event.FAILURE)
def _on_failure(task: StageTask, exception: BaseException) -> None:
    full = storage_full_reason(exception)
    if full is not None:  # nothing can be recorded there; the run says so once
        where = " / ".join(part for part in (task.stage, task.dataset, task.model) if part)
        _STORAGE_FULL.append(f"{full} ({where}, writing {task.artifact_path().parent})")
        return
    try:
        fingerprint_now = task.fingerprint()
    except Exception:  # noqa: BLE001  (the fingerprint itself may be what failed: an unreadable input)
        fingerprint_now = None
    description = {"stage": task.stage, "dataset": task.dataset, "model": task.model or None, "task_id": task.task_id,
                   "fingerprint": fingerprint_now}
    try:
        record_failure(task.failure_record_path(), description, exception)
    except Exception as unrecorded:  # noqa: BLE001  (the storage that failed the stage may refuse its record too)
        where = " / ".join(part for part in (task.stage, task.dataset, task.model) if part)
        print(f"evalpipe: {where} failed ({type(exception).__name__}: {exception}); its failure record could not be "
              f"written ({type(unrecorded).__name__})", file=sys.stderr, flush=True)


@StageTask.event_handler(luigi.Event.SUCCESS)
def _on_success(task: StageTask) -> None:
    try:
        clear_failure(task.failure_record_path())
    except Exception:  # noqa: BLE001  (storage lost right after the stage: the next build settles the record)
        pass
