"""Many machines on Luigi's own engine: the driver schedules the DAG on a central luigid and waits until it is done,
whoever runs each task; `evalpipe worker` is a Luigi assistant worker that runs whatever luigid hands it."""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
from collections import deque
from typing import Any

import luigi
import luigi.interface
import luigi.rpc
import luigi.scheduler
import luigi.worker

from .exit_codes import EXIT_OK
from .fingerprint import code_version

DEFAULT_PORT = 8082
POLL_SECONDS = 1.0
WORKERS_KEPT = 60  # a driver's workers of its last rounds (≥ worker_disconnect_delay of POLL_SECONDS rounds)


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
    grants nothing). `settle(result)` returns True (done), False (failed) or None (still running elsewhere). A run
    that ends otherwise than done (failed, stopped by a signal) tells luigid at once that it waits for nothing more,
    so the workers leave its remaining tasks."""
    announce_runs("run")
    factory = RecordedWorkers()
    done = False
    try:
        while True:
            result = luigi.build(targets, workers=workers, detailed_summary=True, log_level="WARNING",
                                 scheduler_host=host, scheduler_port=port, worker_scheduler_factory=factory)
            outcome = settle(result)
            if outcome is not None:
                done = outcome
                return outcome
            time.sleep(POLL_SECONDS)
    finally:
        if not done:
            stop_waiting(host, port, list(factory.ids))


class RecordedWorkers(luigi.interface._WorkerSchedulerFactory):
    """Luigi's factory for a build's scheduler and worker, keeping the ids of the driver's latest workers (one per
    round; older ones have already timed out on luigid)."""

    def __init__(self) -> None:
        self.ids: deque[str] = deque(maxlen=WORKERS_KEPT)

    def create_worker(self, scheduler: Any, worker_processes: int, assistant: bool = False) -> luigi.worker.Worker:
        worker = super().create_worker(scheduler, worker_processes, assistant)
        self.ids.append(worker._id)
        return worker


def stop_waiting(host: str, port: int, worker_ids: list[str]) -> None:
    """Tell luigid that these driver workers wait for nothing more (`disable_worker`: they leave every task's
    workers at once, instead of after worker_disconnect_delay); luigid unreachable, nothing is said."""
    scheduler = luigi.rpc.RemoteScheduler(url=f"http://{host}:{port}", connect_timeout=2)
    scheduler._rpc_retry_attempts = 1  # a stopping driver does not wait a minute for a luigid that is gone
    for worker_id in worker_ids:
        try:
            scheduler.disable_worker(worker=worker_id)
        except luigi.rpc.RPCError:
            return


def cmd_worker(args: argparse.Namespace) -> int:
    host, port = scheduler_address(args.scheduler_host, args.scheduler_port)
    from . import report_tasks, tasks  # noqa: F401  (the task classes luigid names must be importable here)

    announce_runs("worker")
    scheduler = luigi.rpc.RemoteScheduler(url=f"http://{host}:{port}")
    print(f"evalpipe worker: asking http://{host}:{port} for work with {args.workers} process(es); "
          "SIGUSR1 stops after the running tasks, SIGTERM at once", file=sys.stderr, flush=True)
    _WORKER_PID.append(os.getpid())
    signal.signal(signal.SIGTERM, _stop)
    try:
        with ReleaseWorker(scheduler=scheduler, worker_processes=args.workers, assistant=True,
                                 keep_alive=True, force_multiprocessing=True) as worker:  # a process per task
            worker.run()
    except Stopped:  # leaving the with block terminated the running task processes
        print("evalpipe worker: SIGTERM: stopped, running tasks ended (luigid hands them to other workers)",
              file=sys.stderr, flush=True)
    return EXIT_OK


class ReleaseWorker(luigi.worker.Worker):
    """A Luigi assistant that runs only its own release's tasks: one of another code version (a rolling upgrade) is
    handed back to luigid as not run here, with one line naming both versions, and left to workers of that release
    (and its driver, which takes it up again in its next round)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._versions_left: set[str] = set()
        self._runs_left: set[str] = set()  # run tokens of the abandoned runs already said

    def _get_work(self) -> luigi.worker.GetWorkResponse:  # Luigi's one hook between granting a task and running it
        response = super()._get_work()
        task = self._scheduled_tasks.get(response.task_id)
        if task is not None and not self._awaited(response.task_id):
            return self._leave(response, task)
        theirs, ours = getattr(task, "code_version", None), code_version()
        if theirs is None or theirs == ours:
            return response
        del self._scheduled_tasks[response.task_id]
        line = f"left {task.task_family} to workers of code version {theirs} (this worker runs {ours})"
        self._add_task(worker=self._id, task_id=response.task_id, status=luigi.scheduler.FAILED, runnable=False,
                       expl=line)
        if theirs not in self._versions_left:
            self._versions_left.add(theirs)
            print(f"evalpipe worker: {line}; tasks of {theirs} are left from now on", file=sys.stderr, flush=True)
        return response._replace(task_id=None)

    def _awaited(self, task_id: str) -> bool:
        """Whether a driver still waits for the task: luigid lists a (non-assistant) worker for it. A driver that
        failed or was stopped has left it; one that vanished leaves it after worker_disconnect_delay."""
        entry = self._scheduler.dep_graph(task_id=task_id, include_done=False).get(task_id)
        return entry is None or bool(entry.get("workers"))

    def _leave(self, response: luigi.worker.GetWorkResponse, task: luigi.Task) -> luigi.worker.GetWorkResponse:
        """Hand back a task no driver waits for, disabled, so no worker runs or retries it; luigid prunes it
        remove_delay later. One line per abandoned run."""
        del self._scheduled_tasks[response.task_id]
        line = f"left {task.task_family}: no driver waits for it any more"
        for status in (luigi.scheduler.FAILED, luigi.scheduler.DISABLED):  # a running task cannot be disabled
            self._add_task(worker=self._id, task_id=response.task_id, status=status, runnable=False, expl=line)
        run = getattr(task, "spec", {}).get("run_token") or response.task_id
        if run not in self._runs_left:
            self._runs_left.add(run)
            print(f"evalpipe worker: {line}; the rest of its run is left without a line each", file=sys.stderr,
                  flush=True)
        return response._replace(task_id=None)


class Stopped(Exception):
    """SIGTERM reached `evalpipe worker`."""


_WORKER_PID: list[int] = []


def _stop(signum: int, frame: Any) -> None:
    """In the worker: leave its loop. In a task process (which inherited the handler): die as SIGTERM means."""
    if os.getpid() in _WORKER_PID:
        raise Stopped
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
