"""`evalpipe import TOOL PATH…`: other harnesses' output files turned into datasets under --inputs."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stages.core.errors import UsageError
from stages.core.printable import printable
from stages.harness import importer
from stages.harness.dataset_folder import write_imported
from stages.harness.imported import ImportedRun, SkippedFile

from .exit_codes import EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    """Import every run found in the paths; say per run what was written and what was set aside."""
    found = list(importer(args.tool)([Path(path) for path in args.paths]))
    runs = [item for item in found if isinstance(item, ImportedRun)]
    for skipped in (item for item in found if isinstance(item, SkippedFile)):
        print(printable(f"evalpipe: skipped {skipped.file}: {skipped.reason}"), file=sys.stderr)
    if not runs:
        raise UsageError(f"no {args.tool} output found in {', '.join(args.paths)}")
    for option, values in (("--dataset", {run.task for run in runs}), ("--model", {run.model for run in runs})):
        if getattr(args, option[2:]) and len(values) > 1:
            raise UsageError(f"{option} names one {option[2:]}, but the paths hold {len(values)}: "
                             f"{', '.join(sorted(values))}")
    inputs = Path(args.inputs)
    for run in runs:
        outcome = write_imported(run, inputs, args.dataset, args.model)
        print(printable(f"{run.tool} {run.task} ({run.model}) → {inputs / outcome.dataset}: {outcome.rows} questions "
                        f"({outcome.questions}), predictions/{outcome.model}.jsonl ({outcome.predictions}), "
                        f"dataset.toml ({outcome.config}); kind {run.kind}"))
        for note in run.set_aside:
            print(printable(f"evalpipe: set aside {note}"), file=sys.stderr)
    return EXIT_OK
