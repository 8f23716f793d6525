"""The `evalpipe` command line. Only argparse is imported up front: each command imports what it needs when it runs,
so `evalpipe --help` and a no-op run start fast."""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator
from importlib import import_module
from typing import Any

from stages.core.stage_names import STAGES

from .exit_codes import EXIT_FAILED, EXIT_USAGE
from .progress import ProgressDisplay


def _common(sub: argparse.ArgumentParser, with_inputs: bool = True, several: bool = False) -> None:
    if with_inputs:
        sub.add_argument("--inputs", default="inputs", help="folder of datasets (default: inputs)")
    sub.add_argument("--outputs", default="outputs", help="folder of artifacts (default: outputs)")
    if several:
        sub.add_argument("--dataset", action="append", help="only this dataset (give it again for several)")
    else:
        sub.add_argument("--dataset", help="only this dataset")
    sub.add_argument("--model", help="only this model")


def _scheduler_options(sub: argparse.ArgumentParser, required: bool = False) -> None:
    sub.add_argument("--scheduler-host", required=required,
                     help="central luigid HOST[:PORT]" + ("" if required else " (default: the local scheduler)"))
    sub.add_argument("--scheduler-port", type=int, help="luigid's port (default: 8082, or the one in HOST:PORT)")


def _correction_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--correction", choices=("bh", "holm", "none"),
                     help="multiplicity correction over all tests (default: luigi.cfg [nightly] correction, else bh)")


def _run_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--verbose", action="store_true", help="print every dataset's full report, not the summary")
    sub.add_argument("--no-wait", action="store_true",
                     help="exit 2 at once when another run is using the outputs folder (default: wait for it)")


class ExportTools:
    """`evalpipe export`'s tool names, from the exporters' registry when first needed."""

    @staticmethod
    def names() -> list[str]:
        from stages.kinds.exporters import EXPORTERS

        return EXPORTERS.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, tool: object) -> bool:
        return tool in self.names()


class ImportTools:
    """`evalpipe import`'s tool names, from the importers' and leaderboards' registries when first needed (so other
    commands do not import every reader)."""

    @staticmethod
    def names() -> list[str]:
        from stages.harness.imported import IMPORTERS
        from stages.leaderboards.board import LEADERBOARDS

        return [*IMPORTERS.names(), *(board.tool for _, board in LEADERBOARDS.items())]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, tool: object) -> bool:
        return tool in self.names()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="evalpipe", description="Staged evaluation pipeline B1→B6 on Luigi.")
    commands = parser.add_subparsers(dest="command", required=True)
    _run_commands(commands)
    _annotations_command(commands)
    _nightly_commands(commands)
    _import_and_worker_commands(commands)
    return parser


def _run_commands(commands: Any) -> None:
    """run, status and show: a run's stages and artifacts."""
    run = commands.add_parser("run", help="run every stage that is missing or stale")
    _common(run, several=True)
    run.add_argument("--only", choices=STAGES, help="rerun this stage and everything that depends on it")
    run.add_argument("--force", action="store_true", help="rerun every stage of the selection")
    run.add_argument("--workers", type=int, default=1, help="parallel Luigi workers (default 1)")
    _scheduler_options(run)
    _run_options(run)
    run.set_defaults(handler="commands:cmd_run")

    status = commands.add_parser("status", help="state of each stage: done, stale, missing or failed")
    _common(status, several=True)
    status.set_defaults(handler="commands:cmd_status")

    show = commands.add_parser("show", help="print an artifact's rows as JSON lines")
    show.add_argument("stage", help="B1 … B6")
    _common(show, with_inputs=False)
    show.add_argument("--id", help="only the rows with this id (every reply, for several replies per item)")
    show.add_argument("--rejects", action="store_true", help="print the rows set aside instead (B1, B2)")
    show.set_defaults(handler="commands:cmd_show")


def _annotations_command(commands: Any) -> None:
    """annotations import: people's labels read back."""
    annotations = commands.add_parser("annotations", help="human annotation round trip (dialogue datasets)")
    actions = annotations.add_subparsers(dest="action", required=True)
    importer = actions.add_parser("import", help="read filled-in content_correct / style_consistent labels back")
    importer.add_argument("file", help="the B6_human_annotation.csv the raters filled in")
    importer.add_argument("--outputs", help="artifact folder (default: the CSV's folder's parent)")
    importer.add_argument("--dataset", help="dataset name (default: the CSV's folder name)")
    importer.set_defaults(handler="human_review:cmd_annotations_import")


def _nightly_commands(commands: Any) -> None:
    """nightly and compare: runs over time and their regressions."""
    nightly = commands.add_parser("nightly", help="run the suite for one night, record it, flag regressions (exit 3)")
    nightly.add_argument("--date", help="the night, YYYY-MM-DD (default: today)")
    nightly.add_argument("--inputs", default="inputs", help="folder of datasets (default: inputs)")
    nightly.add_argument("--outputs", default="outputs",
                         help="artifacts go to OUTPUTS/nightly/<date>/ (default: outputs)")
    nightly.add_argument("--workers", type=int, default=1, help="parallel Luigi workers (default 1)")
    nightly.add_argument("--baseline", help="also compare with this earlier night, YYYY-MM-DD (DRIFT lines, exit 3)")
    _correction_option(nightly)
    _scheduler_options(nightly)
    _run_options(nightly)
    nightly.set_defaults(handler="nightly:cmd_nightly")
    compare = commands.add_parser("compare", help="paired tests of run B against run A (exit 3 when B is worse)")
    compare.add_argument("before", metavar="A", help="an outputs folder, or a night (YYYY-MM-DD) under OUTPUTS/nightly")
    compare.add_argument("after", metavar="B", help="the same, for the run to judge")
    compare.add_argument("--outputs", default="outputs", help="where nights are found (default: outputs)")
    compare.add_argument("--json", action="store_true", help="print the comparisons as JSON")
    compare.add_argument("--html", help="where to write compare.html (default: B/compare.html)")
    _correction_option(compare)
    compare.set_defaults(handler="compare:cmd_compare")


def _import_and_worker_commands(commands: Any) -> None:
    """import (another harness's or a leaderboard's files as datasets), export (a run in another harness's format) and
    worker (a Luigi assistant)."""
    imports = commands.add_parser("import", help="turn another harness's output files into datasets under --inputs")
    imports.add_argument("tool", choices=ImportTools(), metavar="TOOL",  # a metavar: argparse lists no choices at start
                         help="the harness or leaderboard that wrote them (a wrong name lists every one)")
    imports.add_argument("paths", nargs="+", metavar="PATH", help="its output files or folders")
    imports.add_argument("--inputs", default="inputs", help="folder of datasets to write into (default: inputs)")
    imports.add_argument("--dataset", help="dataset name (default: the harness's task name)")
    imports.add_argument("--model", help="model name (default: the one the harness recorded)")
    imports.add_argument("--baseline", help="a leaderboard's baseline model (default: the one its tool compares with)")
    imports.add_argument("--data", help="bfcl: BFCL's data folder (default: the installed bfcl-eval's data/); tau2: "
                         "its domains' folder, data/tau2/domains (default: $TAU2_DATA_DIR/tau2/domains)")
    imports.set_defaults(handler="harness_import:cmd_import")
    export = commands.add_parser("export", help="write a run in another harness's own format")
    export.add_argument("tool", choices=ExportTools(), metavar="TOOL",
                        help="the harness whose results format to write (a wrong name lists every one)")
    _common(export, with_inputs=False)
    export.add_argument("--out", help="the file to write (default: the tool's file in OUTPUTS/DATASET/MODEL/)")
    export.set_defaults(handler="export:cmd_export")
    worker = commands.add_parser("worker", help="a long-running Luigi assistant: run whatever luigid hands it")
    _scheduler_options(worker, required=True)
    worker.add_argument("--workers", type=int, default=1, help="task processes on this host (default 1)")
    worker.set_defaults(handler="cluster:cmd_worker")


def quiet_rpc_settings() -> None:
    """luigi.cfg [core] rpc-retry-* are read by Luigi's RPC client, not its [core] class, which would warn that they
    are unused on every run."""
    import warnings

    from luigi.parameter import UnconsumedParameterWarning

    warnings.filterwarnings("ignore", message=r".*'rpc_retry_(attempts|wait)'", category=UnconsumedParameterWarning)


def stop_on_signals() -> dict[int, Any]:
    """SIGINT and SIGTERM stop the run: the first asks every chat loop to send nothing more and interrupts the main
    thread (Interrupted), later ones are ignored while it stops. The handlers replaced, to put back."""
    from stages.core.stopping import Interrupted, clear_stop, request_stop, stop_requested

    def stop(signum: int, frame: Any) -> None:
        if not stop_requested():
            request_stop()
            raise Interrupted(signum)

    clear_stop()
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "dataset", None) is None and args.command in ("show", "export"):
        parser.error(f"{args.command} needs --dataset")
    if getattr(args, "workers", 1) < 1:
        parser.error("--workers must be at least 1")
    from stages.core.errors import UsageError
    from stages.core.printable import printable
    from stages.core.progress import set_progress_sink
    from stages.core.stopping import Interrupted
    from stages.io.storage import storage_full_reason

    from .storage_config import apply_storage_config

    quiet_rpc_settings()
    module, _, function = args.handler.partition(":")  # "module:function" under pipeline/, imported now
    handler = getattr(import_module(f"pipeline.{module}"), function)
    previous = set_progress_sink(ProgressDisplay(sys.stderr))
    handlers = stop_on_signals()
    try:
        apply_storage_config()
        return handler(args)
    except Interrupted as exc:
        name = signal.Signals(exc.signum).name
        print(f"evalpipe: stopped by {name}: no request was sent after it; the answers and verdicts received are kept "
              "and the next run asks only what is missing", file=sys.stderr)
        return 128 + exc.signum
    except UsageError as exc:
        print(printable(f"evalpipe: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        full = storage_full_reason(exc)
        if full is None:
            raise
        print(printable(f"evalpipe: failed: the storage is full: {full} ({exc.filename or exc}); nothing more was "
                        "written, a rerun with space resumes"), file=sys.stderr)
        return EXIT_FAILED
    finally:
        set_progress_sink(previous)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def _one_malloc_arena() -> None:
    """glibc gives every thread that allocates at once an arena of its own and keeps what is freed there: the
    stages' threads would raise a run's peak memory by a quarter. One arena keeps it where one thread has it (Arrow's
    buffers too, see _arrow_allocates_with_malloc)."""
    import ctypes

    try:
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1)
    except (OSError, AttributeError):  # not glibc: its allocator has no such option
        pass


M_ARENA_MAX = -8  # glibc's mallopt parameter


def _arrow_allocates_with_malloc() -> None:
    """Arrow's buffers from the C library's malloc (its "system" pool) rather than its bundled mimalloc, unless
    ARROW_DEFAULT_MEMORY_POOL says otherwise: on the 1M-row benches peak memory fell 15–20% in every kind and open QA
    ran ~10% faster (see docs/performance.md). Set before pyarrow loads, and so for the worker processes too."""
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")


def _left_to_the_exit() -> None:
    """The objects still alive are freed as the process ends without Python's shutdown collections walking them
    (gc.freeze): 0.1–0.15 s of CPU after a million-row qa run, against 0.07 s for the rest of the shutdown. A
    finalizer of an object in a cycle then never runs, which Python never promises at exit anyway; every artifact,
    journal and lock is written and closed explicitly before this."""
    import gc

    gc.freeze()


def entry_point() -> None:
    _one_malloc_arena()
    _arrow_allocates_with_malloc()
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `evalpipe status | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    _left_to_the_exit()
    sys.exit(code)
