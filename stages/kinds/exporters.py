"""Runs written in another harness's own format (`evalpipe export TOOL`): each exporter registers under the tool's
name in its kind's package (stages/kinds/<kind>/export.py), so the command line names no tool."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.registry import Registry

Documents = dict[str, list[tuple[Any, dict[str, Any]]]]  # stage (B2, B3, B4) → its artifacts' (path, document)


@dataclass(frozen=True)
class Exporter:
    """What `evalpipe export TOOL` writes: a run of `kind` (its B2–B4 artifacts, one model's) as the tool's file."""

    kind: str
    file_name: str  # the default file, beside the model's artifacts
    write: Callable[[Documents, str], tuple[dict[str, Any], str]]  # (documents, model) → (the file's JSON, a summary)


EXPORTERS: Registry[Exporter] = Registry("exporter", "stages.kinds", "export")


def register_exporter(tool: str, exporter: Exporter) -> Exporter:
    """Make `evalpipe export TOOL` write runs with `exporter`."""
    return EXPORTERS.register(tool)(exporter)
