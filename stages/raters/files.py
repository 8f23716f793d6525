"""Where raters' labels are: the annotation sheet people filled in beside the dialogue report, and every
inputs/<dataset>/labels/<rater>.csv; each read once, and what they say now summed up for B6's fingerprint."""
from __future__ import annotations

import csv
import hashlib
import io
from typing import TYPE_CHECKING

from ..core.records import Reject
from .sheet import ANNOTATION_CSV, read_annotation_csv

if TYPE_CHECKING:
    from upath import UPath

LabelsFiles = dict[str, tuple["UPath", bytes]]  # rater → (labels CSV, its bytes)


def rater_files(report_folder: UPath, labels_folder: UPath) -> dict[str, UPath]:
    """Rater → labels CSV: the report folder's annotation sheet (named after its file's stem) and every CSV of the
    labels folder (named after theirs), in name order."""
    found = {}
    annotated = report_folder / ANNOTATION_CSV
    if annotated.exists():
        found[annotated.stem] = annotated
    if labels_folder.is_dir():
        found.update({path.stem: path for path in sorted(labels_folder.iterdir(), key=lambda p: p.name)
                      if path.suffix.lower() == ".csv"})
    return found


def read_rater_files(files: dict[str, UPath]) -> LabelsFiles:
    """Each labels file with its bytes, read once for all that B6 measures against it."""
    return {rater: (path, path.read_bytes()) for rater, path in files.items()}


def rater_digests(files: dict[str, UPath], report_folder: UPath) -> dict[str, str]:
    """What the raters' labels are now: a labels file's bytes; of the report folder's own annotation sheet only the
    labels people typed, if any (B6 rewrites the rest of it)."""
    digests = {}
    for rater, path in files.items():
        if path.name == ANNOTATION_CSV and path.parent == report_folder:
            try:
                rows, rejects = read_annotation_csv(path)
            except ValueError as exc:  # a column lost in editing: B6 sets the file aside when it reads it
                rows, rejects = [], [Reject(str(path), 1, str(exc))]
            if not rows and not rejects:
                continue  # as B6 writes it, before anyone typed a label
            data = repr(([{k: v for k, v in row.items() if k != "line"} for row in rows],
                         [r.reason for r in rejects])).encode()
        else:
            data = path.read_bytes()
        digests[rater] = hashlib.sha256(data).hexdigest()
    return digests


def is_preference_file(data: bytes) -> bool:
    """Whether a labels CSV holds preferences (its header names model_a, model_b and winner)."""
    header = next(csv.reader(io.StringIO(data.decode("utf-8-sig", errors="replace"), newline="")), [])
    return {"model_a", "model_b", "winner"} <= {name.strip() for name in header}
