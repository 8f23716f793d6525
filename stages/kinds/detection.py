"""Kind detection for datasets whose dataset.toml names no kind: every registered kind asked how surely it recognizes
the dataset's first question records (Kind.recognize), no list of kinds kept here."""
from __future__ import annotations

from pathlib import Path

from ..core.records import Reject
from .base import KINDS
from .function_calling.json_lines import read_records

SAMPLE_ROWS = 50


def detect_kind(dataset_name: str, questions_path: Path | None) -> str:
    """The kind of a dataset of document folders (no questions file: the kind with document_folders), else the kind
    that recognizes its first SAMPLE_ROWS records most surely (of equally sure kinds, the first by name)."""
    if questions_path is None:
        return next(name for name, kind in KINDS.items() if kind.document_folders)
    records = []
    for item in read_records(questions_path):  # JSON lines, JSON or BFCL's .json files of JSON lines
        if not isinstance(item, Reject) and isinstance(item[1], dict):
            records.append(item[1])
        if len(records) >= SAMPLE_ROWS:
            break
    surest = {name: kind.recognize(records, dataset_name) for name, kind in KINDS.items()}
    return min(surest, key=lambda name: -surest[name])  # KINDS.items() goes by name: ties go to the first
