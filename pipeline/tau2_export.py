"""`evalpipe export tau2`: one model's tau2 trials of a run, from its B3 and B4 artifacts, written as tau2 1.0.1's
results file (so tau2's evaluate-trajs rescores them)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from stages.core.errors import UsageError
from stages.core.names import check_name
from stages.io.artifacts import artifact_damage, artifact_paths, iter_rows, read_artifact_json
from stages.io.storage import location
from stages.kinds.tau2.domains import domain_of
from stages.kinds.tau2.export import tau2_results

from .commands import _only_model
from .exit_codes import EXIT_OK


def cmd_export_tau2(args: argparse.Namespace) -> int:
    check_name(args.dataset, "--dataset")
    model = check_name(args.model, "--model") if args.model else _only_model(location(args.outputs) / args.dataset)
    documents = {stage: [(path, read_artifact_json(path)) for path in artifact_paths(args.outputs, stage,
                                                                                      args.dataset, model)]
                 for stage in ("B2", "B3", "B4")}
    for path, document in (pair for pairs in documents.values() for pair in pairs):
        damage = artifact_damage(path, document)
        if damage is not None:
            raise UsageError(f"no usable artifact {path} ({damage}): run `evalpipe run` first")
        if document["header"]["kind"] != "tau2":
            raise UsageError(f"{args.dataset} is a {document['header']['kind']} dataset: only tau2 runs export")
    rows = [row for path, _ in documents["B3"] for row in iter_rows(path)]
    evaluations = {str(row["id"]): json.loads(row["evaluations"]) for path, _ in documents["B4"]
                   for row in iter_rows(path)}
    if not rows:
        raise UsageError(f"{args.dataset} / {model}: no tasks to export")
    user = (documents["B2"][0][1]["header"]["parameters"].get("user") or {}).get("models") or [None]
    domain = domain_of(Path(rows[0]["domain_folder"]), documents["B4"][0][1]["header"]["parameters"].get("domain")
                       or "").name
    results = tau2_results(rows, evaluations, domain, model, user[0],
                           documents["B4"][0][1]["header"].get("created_at") or "")
    out = Path(args.out) if args.out else Path(str(location(args.outputs) / args.dataset / model / "tau2_results.json"))
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{args.dataset} / {model}: {len(results['simulations'])} trials of {len(results['tasks'])} tasks "
          f"written as tau2's results: {out}", file=sys.stderr)
    return EXIT_OK
