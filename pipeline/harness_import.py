"""`evalpipe import TOOL PATH…`: other harnesses' output files turned into datasets under --inputs, all or nothing."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stages.core.errors import UsageError
from stages.core.printable import printable
from stages.harness import importer
from stages.harness.dataset_folder import plan_import, write_planned
from stages.harness.imported import ImportedRun, SkippedFile

from .exit_codes import EXIT_OK

_NEXT_STEP = {"instruction": "; no reference: add a [judge] table to its dataset.toml to judge the answers"}


def cmd_import(args: argparse.Namespace) -> int:
    """Import every run found in the paths when none is refused and none conflicts; else say each problem, exit 2,
    and write nothing."""
    found = list(importer(args.tool)([Path(path) for path in args.paths]))
    runs = [item for item in found if isinstance(item, ImportedRun)]
    skipped = [item for item in found if isinstance(item, SkippedFile)]
    for item in (item for item in skipped if not item.refused):
        print(printable(f"evalpipe: skipped {item.file}: {item.reason}"), file=sys.stderr)
    problems = [f"{item.file}: {item.reason}" for item in skipped if item.refused]
    if not runs and not problems:
        raise UsageError(f"no {args.tool} output found in {', '.join(args.paths)}")
    for option, values in (("--dataset", {run.task for run in runs}), ("--model", {run.model for run in runs})):
        if getattr(args, option[2:]) and len(values) > 1:
            problems.append(f"{option} names one {option[2:]}, but the paths hold {len(values)}: "
                            f"{', '.join(sorted(values))}")
    inputs = Path(args.inputs)
    plan = plan_import(runs, inputs, args.dataset, args.model) if not problems else None
    problems += plan.problems if plan else []
    if problems:
        for problem in problems[:-1]:
            print(printable(f"evalpipe: {problem}"), file=sys.stderr)
        raise UsageError(f"{problems[-1]}" + (f" (nothing imported: {len(problems)} problems)"
                                              if len(problems) > 1 else " (nothing imported)"))
    write_planned(plan)
    for outcome in plan.outcomes:
        run = outcome.run
        print(printable(f"{run.tool} {run.task} ({run.model}) → {inputs / outcome.dataset}: {outcome.rows} questions "
                        f"({outcome.questions}), predictions/{outcome.model}.jsonl ({outcome.predictions}), "
                        f"dataset.toml ({outcome.config}); kind {run.kind}{_NEXT_STEP.get(run.kind, '')}"))
        for note in run.set_aside:
            print(printable(f"evalpipe: set aside {note}"), file=sys.stderr)
    return EXIT_OK
