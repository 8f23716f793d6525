"""Other harnesses' output files (lm-eval, Inspect, OpenCompass) read as evalpipe datasets."""
from __future__ import annotations

from .imported import IMPORTERS, Importer


def importer(tool: str) -> Importer:
    """The importer registered for `tool` (the readers' modules imported on first use: importing registers them)."""
    return IMPORTERS.get(tool)
