"""Other harnesses' output files (lm-eval, Inspect, OpenCompass) read as evalpipe datasets."""
from __future__ import annotations

from ..core.errors import UsageError
from .imported import IMPORTERS, Importer


def importer(tool: str) -> Importer:
    """The importer registered for `tool` (the readers' modules imported on first use: importing registers them)."""
    from . import inspect_logs, lm_eval, opencompass  # noqa: F401

    if tool not in IMPORTERS:
        raise UsageError(f"unknown harness {tool!r} (one of {', '.join(sorted(IMPORTERS))})")
    return IMPORTERS[tool]
