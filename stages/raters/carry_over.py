"""Raters' work survives a regenerated annotation CSV: labels and notes move to the rows whose test case and texts
are unchanged; what cannot move is counted, so the caller can keep the previous file beside the new one."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .sheet import CSV_COLUMNS, HUMAN_LABELS, strip_formula_guard

IDENTITY = ("scene", "dialogue_index", "model", "expected_response", "prediction")
RATER_COLUMNS = (*HUMAN_LABELS, "notes")
AUTOMATIC_NOTE = "evalpipe:"


@dataclass(frozen=True)
class CarryOver:
    """The merged CSV, how many rated rows moved into it, and how many rated rows no longer have a row to go to."""

    data: bytes
    carried: int
    left_behind: int


def _rows(data: bytes) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(data.decode("utf-8-sig", errors="replace"), newline=""))
    return list(reader.fieldnames or []), list(reader)


def _key(row: dict[str, str]) -> tuple[str, ...]:
    return tuple(strip_formula_guard((row.get(name) or "").strip()) for name in IDENTITY)


def _rated(row: dict[str, str]) -> bool:
    """A rater typed something: a label, or a note that is not evalpipe's own."""
    note = (row.get("notes") or "").strip()
    return any((row.get(name) or "").strip() for name in HUMAN_LABELS) or bool(note and
                                                                               not note.startswith(AUTOMATIC_NOTE))


def carry_over_labels(previous: bytes, fresh: bytes) -> CarryOver:
    """`fresh` (a new annotation CSV) with the raters' columns of `previous` filled into the rows whose scene,
    dialogue_index, model, expected response and prediction are unchanged."""
    try:
        _, old_rows = _rows(previous)
    except csv.Error:
        return CarryOver(fresh, 0, max(1, previous.count(b"\n")))
    rated = {_key(row): row for row in old_rows if _rated(row)}
    _, new_rows = _rows(fresh)
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    carried = 0
    for row in new_rows:
        old = rated.pop(_key(row), None)
        if old is not None:
            row.update({name: old.get(name) or "" for name in RATER_COLUMNS})
            carried += 1
        writer.writerow(row)
    return CarryOver(buffer.getvalue().encode("utf-8-sig"), carried, len(rated))
