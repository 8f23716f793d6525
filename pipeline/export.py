"""`evalpipe export TOOL`: one model's run of a dataset, from its B2–B4 artifacts, written in another harness's own
format by the exporter registered for TOOL (stages.kinds.exporters)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from stages.core.errors import UsageError
from stages.core.names import check_name
from stages.io.artifacts import artifact_damage, artifact_paths, read_artifact_json
from stages.io.storage import location
from stages.kinds.exporters import EXPORTERS

from .commands import _only_model
from .exit_codes import EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    exporter = EXPORTERS.get(args.tool)
    check_name(args.dataset, "--dataset")
    model = check_name(args.model, "--model") if args.model else _only_model(location(args.outputs) / args.dataset)
    documents = {stage: [(path, read_artifact_json(path)) for path in artifact_paths(args.outputs, stage,
                                                                                      args.dataset, model)]
                 for stage in ("B2", "B3", "B4")}
    for stage, found in documents.items():
        if not found:
            raise UsageError(f"{args.dataset} / {model}: no {stage} artifact: run `evalpipe run` first")
    for path, document in (pair for pairs in documents.values() for pair in pairs):
        damage = artifact_damage(path, document)
        if damage is not None:
            raise UsageError(f"no usable artifact {path} ({damage}): run `evalpipe run` first")
        if document["header"]["kind"] != exporter.kind:
            raise UsageError(f"{args.dataset} is a {document['header']['kind']} dataset: only {exporter.kind} runs "
                             f"export as {args.tool}")
    written, said = exporter.write(documents, model)
    out = Path(args.out) if args.out else Path(str(location(args.outputs) / args.dataset / model / exporter.file_name))
    out.write_text(json.dumps(written, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{args.dataset} / {model}: {said}: {out}", file=sys.stderr)
    return EXIT_OK
