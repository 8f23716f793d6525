"""Many programs at once, one per core by default, each in its own sandbox slot."""
from __future__ import annotations

import os
import queue
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from .bwrap import Program, RunResult, SandboxUnavailable, find_interpreter, run_program, sandbox_prefix
from .limits import Limits


def run_programs(programs: list[Program], limits: Limits, sandbox: str = "bwrap", interpreter: str = "",
                 workers: int = 0) -> list[RunResult]:
    """Each program's result, in order: run `workers` at a time (0: one per core) inside bwrap, or with limits
    only when `sandbox` is "none"; fails at once, in one line, when the sandbox cannot run here."""
    python = find_interpreter(interpreter)
    prefix = sandbox_prefix(limits) if sandbox == "bwrap" else []
    if prefix:
        check_sandbox(prefix, python, limits)
    count = max(1, min(workers or os.cpu_count() or 1, len(programs) or 1))
    nproc = None if os.geteuid() == 0 else _own_tasks() + count * limits.processes
    slots: queue.Queue[int] = queue.Queue()
    for slot in range(count):
        slots.put(slot)

    def one(program: Program) -> RunResult:
        slot = slots.get()
        try:
            return run_program(program, limits, prefix, python, slot, nproc)
        finally:
            slots.put(slot)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, programs))


def check_sandbox(prefix: list[str], interpreter: str, limits: Limits) -> None:
    """A trivial program run in the sandbox, so that a sandbox refused here (user namespaces off, a broken bwrap)
    fails the run in one line rather than every program as `crashed`."""
    result = run_program(Program("pass", "pass"), replace(limits, timeout_seconds=30.0), prefix, interpreter)
    if result.outcome != "passed":
        said = (result.stderr.strip().splitlines() or [result.error])[-1]
        raise SandboxUnavailable(f"bwrap could not start a sandbox here ({said}); it needs unprivileged user "
                                 "namespaces (Debian's default; sysctl kernel.unprivileged_userns_clone=1)")


def _own_tasks() -> int:
    """Processes and threads of this uid now: RLIMIT_NPROC counts them all, so a slot's allowance comes on top."""
    uid, count = os.getuid(), 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if fields.get("Uid", "").split()[:1] == [str(uid)]:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count
