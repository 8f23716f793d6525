"""Failure records: a failed stage leaves outputs/_failures/<task>.json with its traceback and fingerprint until
the stage completes or is found complete."""
from __future__ import annotations

import traceback
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from stages.io.artifacts import read_artifact_json, write_json_atomic
from stages.io.storage import remove

if TYPE_CHECKING:
    from upath import UPath

FAILURES_DIR = "_failures"


def failure_path(outputs: UPath, stage: str, dataset: str, model: str, shard: str = "") -> UPath:
    name = "__".join(part for part in (stage, dataset, model, shard) if part)
    return outputs / FAILURES_DIR / f"{name}.json"


def record_failure(path: UPath, description: dict[str, Any], exception: BaseException) -> None:
    write_json_atomic(
        path,
        {
            **description,
            "error": f"{type(exception).__name__}: {exception}",
            "traceback": "".join(traceback.format_exception(exception)),
            "failed_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        },
    )


def clear_failure(path: UPath) -> None:
    remove(path)


def read_failure(path: UPath) -> dict[str, Any] | None:
    """One failure record, or None when there is none (or it cannot be read)."""
    return read_artifact_json(path)
