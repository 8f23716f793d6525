"""Many machines on Luigi's own engine: the driver schedules the DAG on a central luigid and waits until it is done,
whoever runs each task; `evalpipe worker` is a Luigi assistant worker that runs whatever luigid hands it."""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
from typing import Any

import luigi
import luigi.rpc
import luigi.worker

from .exit_codes import EXIT_OK
from .storage_config import apply_storage_config

DEFAULT_PORT = 8082
POLL_SECONDS = 1.0


def scheduler_address(host: str, port: int | None = None) -> tuple[str, int]:
    """HOST[:PORT] (and an explicit port, which wins) as (host, port)."""
    name, _, given = host.partition(":")
    return name, port or (int(given) if given else DEFAULT_PORT)


_ANNOUNCING: list[str] = []


def announce_runs(where: str) -> None:
    """From now on print one line per stage this process runs, so operators (and tests) see who ran what."""
    from .task_base import StageTask

    if _ANNOUNCING:
        return
    _ANNOUNCING.append(where)

    @StageTask.event_handler(luigi.Event.SUCCESS)
    def _ran(task: StageTask) -> None:
        model = f"/{task.model}" if task.model else ""
        where_ran = f"{socket.gethostname()}:{os.getpid()}"
        print(f"evalpipe {_ANNOUNCING[0]}: ran {task.stage} {task.dataset}{model} ({where_ran})", file=sys.stderr,
              flush=True)


def build_on_luigid(targets: list[luigi.Task], workers: int, host: str, port: int, settle: Any) -> Any:
    """Schedule `targets` on luigid until every task they need is complete or one has failed. Each round this host
    runs what luigid grants it; tasks held by other workers are waited for (a round returns at once when luigid
    grants nothing). `settle(result)` returns True (done), False (failed) or None (still running elsewhere)."""
    announce_runs("run")
    while True:
        result = luigi.build(targets, workers=workers, detailed_summary=True, log_level="WARNING",
                             scheduler_host=host, scheduler_port=port)
        outcome = settle(result)
        if outcome is not None:
            return outcome
        time.sleep(POLL_SECONDS)


def cmd_worker(args: argparse.Namespace) -> int:
    host, port = scheduler_address(args.scheduler_host, args.scheduler_port)
    apply_storage_config()
    from . import report_tasks, tasks  # noqa: F401  (the task classes luigid names must be importable here)

    announce_runs("worker")
    scheduler = luigi.rpc.RemoteScheduler(url=f"http://{host}:{port}")
    print(f"evalpipe worker: asking http://{host}:{port} for work with {args.workers} process(es); "
          "SIGUSR1 stops after the running tasks, SIGTERM at once", file=sys.stderr, flush=True)
    _WORKER_PID.append(os.getpid())
    signal.signal(signal.SIGTERM, _stop)
    try:
        with luigi.worker.Worker(scheduler=scheduler, worker_processes=args.workers, assistant=True,
                                 keep_alive=True, force_multiprocessing=True) as worker:  # a process per task
            worker.run()
    except Stopped:  # leaving the with block terminated the running task processes
        print("evalpipe worker: SIGTERM: stopped, running tasks ended (luigid hands them to other workers)",
              file=sys.stderr, flush=True)
    return EXIT_OK


class Stopped(Exception):
    """SIGTERM reached `evalpipe worker`."""


_WORKER_PID: list[int] = []


def _stop(signum: int, frame: Any) -> None:
    """In the worker: leave its loop. In a task process (which inherited the handler): die as SIGTERM means."""
    if os.getpid() in _WORKER_PID:
        raise Stopped
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
