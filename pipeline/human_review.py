"""`evalpipe annotations import`: read raters' labels back and measure how well each automatic metric agrees."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stages import UsageError
from stages.core.names import check_name
from stages.core.records import Reject
from stages.core.text_table import format_table
from stages.io.artifacts import iter_rows, read_artifact_json, write_json_atomic
from stages.io.storage import location
from stages.kinds.dialogue.human_annotation import AGREEMENT_METRICS, HUMAN_LABELS, agreement, read_annotation_csv

if TYPE_CHECKING:
    from upath import UPath

AGREEMENT_FILE = "B6_human_agreement.json"


def _metrics_by_case(outputs: UPath, dataset: str, model: str) -> dict[tuple[str, str], dict[str, Any]]:
    path = outputs / dataset / model / "B5_component_scores.json"
    if read_artifact_json(path) is None:
        raise UsageError(f"no B5 artifact for model {model!r} of dataset {dataset!r} under {outputs}; run it first")
    return {(row["scene"], row["dialogue_index"]): row for row in iter_rows(path)}


def import_annotations(csv_path: Path, outputs: UPath, dataset: str) -> dict[str, Any]:
    """Agreement of every filled-in human label with the automatic metrics of the rated rows."""
    try:
        rows, rejects = read_annotation_csv(csv_path)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    metrics: dict[str, dict] = {}
    pairs: dict[str, list] = {label: [] for label in HUMAN_LABELS}
    for row in rows:
        if row["model"] not in metrics:
            metrics[row["model"]] = _metrics_by_case(outputs, dataset, row["model"])
        scores = metrics[row["model"]].get((row["scene"], row["dialogue_index"]))
        if scores is None:
            rejects.append(Reject(str(csv_path), row["line"], "no such test case in the model's B5 artifact"))
            continue
        for label in HUMAN_LABELS:
            if row[label] is not None:
                pairs[label].append((row[label], scores))
    return {"source": str(csv_path), "dataset": dataset, "rated_rows": len(rows) - len(rejects),
            "labels": {label: agreement(pairs[label]) for label in HUMAN_LABELS},
            "rejects": [reject.to_dict() for reject in rejects]}


def render_agreement(result: dict[str, Any]) -> str:
    blocks = []
    for label, found in result["labels"].items():
        rows = [[metric, str(m["n"]), _fmt(m["spearman"]), _fmt(m["roc_auc"])]
                for metric, m in ((name, found["metrics"][name]) for name in AGREEMENT_METRICS)]
        best = found["combined_score_threshold"]
        threshold = (f"combined_score ≥ {best['threshold']:.4f} agrees with {best['agreeing']} of "
                     f"{found['labelled']} labels ({100 * best['accuracy']:.1f}%)" if best else "no labels")
        blocks.append(f"{label}: {found['labelled']} labelled, {found['positive']} yes\n"
                      + format_table(["metric", "n", "spearman", "roc_auc"], rows) + f"\n{threshold}")
    if result["rejects"]:
        blocks.append(f"{len(result['rejects'])} row(s) set aside: "
                      + "; ".join(f"line {r['line']}: {r['reason']}" for r in result["rejects"][:5]))
    return "\n\n".join(blocks)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def cmd_annotations_import(args: argparse.Namespace) -> int:
    csv_path = Path(args.file)
    if not csv_path.is_file():
        raise UsageError(f"{csv_path} does not exist")
    dataset = check_name(args.dataset or csv_path.resolve().parent.name, "dataset")
    outputs = location(args.outputs) if args.outputs else location(csv_path.resolve().parent.parent)
    result = import_annotations(csv_path, outputs, dataset)
    write_json_atomic(outputs / dataset / AGREEMENT_FILE, result)
    print(render_agreement(result))
    print(f"written to {outputs / dataset / AGREEMENT_FILE}")
    return 0
