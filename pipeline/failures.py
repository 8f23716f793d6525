"""Failure records: a failed stage leaves outputs/_failures/<task>.json with its traceback and fingerprint until
the stage completes or is found complete."""
from __future__ import annotations

import traceback
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from stages.io.artifacts import write_json_atomic

FAILURES_DIR = "_failures"


def failure_path(outputs: Path, stage: str, dataset: str, model: str) -> Path:
    name = "__".join(part for part in (stage, dataset, model) if part)
    return outputs / FAILURES_DIR / f"{name}.json"


def record_failure(path: Path, description: dict[str, Any], exception: BaseException) -> None:
    write_json_atomic(
        path,
        {
            **description,
            "error": f"{type(exception).__name__}: {exception}",
            "traceback": "".join(traceback.format_exception(exception)),
            "failed_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        },
    )


def clear_failure(path: Path) -> None:
    path.unlink(missing_ok=True)


def read_failure(path: Path) -> dict[str, Any] | None:
    """One failure record, or None when there is none (or it cannot be read)."""
    try:
        return orjson.loads(path.read_bytes())
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None
