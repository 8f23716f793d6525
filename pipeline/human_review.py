"""`evalpipe annotations import`: read raters' labels back and measure how well each automatic metric agrees."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from stages import UsageError
from stages.core.names import check_name
from stages.io.artifacts import iter_rows, read_artifact_json, write_json_atomic
from stages.io.storage import location
from stages.raters.metric_agreement import Scores, labels_against_metrics, render_metric_agreement
from stages.raters.sheet import read_annotation_csv

if TYPE_CHECKING:
    from upath import UPath

AGREEMENT_FILE = "B6_human_agreement.json"


def _scores_of(outputs: UPath, dataset: str, model: str) -> Scores:
    """A model's B5 rows by (scene, dialogue_index)."""
    path = outputs / dataset / model / "B5_component_scores.json"
    if read_artifact_json(path) is None:
        raise UsageError(f"no B5 artifact for model {model!r} of dataset {dataset!r} under {outputs}; run it first")
    return {(row["scene"], row["dialogue_index"]): row for row in iter_rows(path)}


def cmd_annotations_import(args: argparse.Namespace) -> int:
    csv_path = Path(args.file)
    if not csv_path.is_file():
        raise UsageError(f"{csv_path} does not exist")
    dataset = check_name(args.dataset or csv_path.resolve().parent.name, "dataset")
    outputs = location(args.outputs) if args.outputs else location(csv_path.resolve().parent.parent)
    try:
        rows, rejects = read_annotation_csv(csv_path)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    result = labels_against_metrics(rows, rejects, csv_path, dataset, lambda model: _scores_of(outputs, dataset, model))
    write_json_atomic(outputs / dataset / AGREEMENT_FILE, result)
    print(render_metric_agreement(result))
    print(f"written to {outputs / dataset / AGREEMENT_FILE}")
    return 0
