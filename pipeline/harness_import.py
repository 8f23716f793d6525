"""`evalpipe import TOOL PATH…`: other harnesses' output files turned into datasets under --inputs, all or nothing."""
from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path

from stages.core.errors import UsageError
from stages.core.names import check_name
from stages.core.printable import printable
from stages.harness import importer
from stages.harness.dataset_folder import plan_import, write_planned
from stages.harness.imported import ImportedRun, SkippedFile
from stages.kinds import get_kind
from stages.leaderboards.board import LEADERBOARDS, leaderboard_by_tool
from stages.leaderboards.board_dataset import plan_leaderboard_import

from .exit_codes import EXIT_OK

JUDGE_NEXT = "; no reference: add a [judge] table to its dataset.toml to judge the answers"  # an open-ended kind


def cmd_import(args: argparse.Namespace) -> int:
    """Import every run found in the paths when none is refused and none conflicts; else say each problem, exit 2,
    and write nothing."""
    if leaderboard_by_tool(args.tool) is not None:
        return import_leaderboard(args)
    if args.baseline:
        raise UsageError(f"--baseline is a leaderboard's ({', '.join(board.tool for _, board in LEADERBOARDS.items())})"
                         f", not {args.tool}'s")
    reader = importer(args.tool)
    data = getattr(args, "data", None)
    if data and "data" not in inspect.signature(reader).parameters:
        raise UsageError(f"--data is for importers that read a separate data folder (bfcl, tau2), not {args.tool}")
    found = list(reader([Path(path) for path in args.paths], **({"data": Path(data)} if data else {})))
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
                        f"dataset.toml ({outcome.config}); kind {run.kind}"
                        f"{JUDGE_NEXT if get_kind(run.kind).open_ended else ''}"))
        for note in run.set_aside:
            print(printable(f"evalpipe: set aside {note}"), file=sys.stderr)
    return EXIT_OK


def import_leaderboard(args: argparse.Namespace) -> int:
    """A leaderboard's folder as one instruction dataset (every model, the baseline's answers, the recorded
    verdicts); each problem one line, exit 2, nothing written."""
    board = leaderboard_by_tool(args.tool)
    if len(args.paths) != 1 or args.model:
        raise UsageError(f"evalpipe import {args.tool} takes one folder (its checkout or results/) and no --model")
    root = Path(args.paths[0])
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder")
    if args.baseline and board.default_baseline is None:
        raise UsageError(f"{args.tool} rates each model's answers on their own: it takes no --baseline")
    baseline = args.baseline or board.default_baseline
    folder = Path(args.inputs) / check_name(args.dataset or board.name, "--dataset")
    found = board.read_files(root, baseline)
    plan = plan_leaderboard_import(found, args.tool, folder)
    if plan.problems:
        for problem in plan.problems[:-1]:
            print(printable(f"evalpipe: {problem}"), file=sys.stderr)
        raise UsageError(f"{plan.problems[-1]} (nothing imported)")
    write_planned(plan)
    for note in found.notes:
        print(printable(f"evalpipe: skipped {note}"), file=sys.stderr)
    against = f" (baseline {baseline})" if baseline else ""
    judged = "; no model's answers: add [generate] to ask them" if not found.answers else (
        f"; {len(found.verdicts)} verdicts of {found.judge}" if found.verdicts else "; no recorded verdicts")
    if found.judge_table:
        judged += f"; [judge] asks {found.judge_table['model']} what is missing once you give its url"
    elif found.board.get("prompts"):
        judged += "; add [judge] url and model to ask what is missing"
    print(printable(f"{args.tool} → {folder}: {len(found.questions)} instructions, {len(found.answers)} models"
                    f"{against}{judged}; {len(plan.writes)} file(s) written, the rest unchanged"))
    return EXIT_OK
