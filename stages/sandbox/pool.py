"""Many programs at once, one per core by default, each slot with its tests sandbox and its CPU group."""
from __future__ import annotations

import os
import queue
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .backends import get_backend
from .bwrap import SandboxUnavailable, find_interpreter
from .cgroups import Cgroups
from .languages import get_language
from .limits import Limits
from .run import WAITING_TASKS, Program, RunResult, Slot, run_program
from .tests_sandbox import TestsSandbox

_told: set[str] = set()


def run_programs(programs: list[Program], limits: Limits, sandbox: str = "bwrap", interpreter: str = "",
                 workers: int = 0, settle: Callable[[int, RunResult], RunResult] | None = None) -> list[RunResult]:
    """Each program's result, in order: run `workers` at a time (0: one per core) in the sandbox backend named
    `sandbox` (bwrap, or "none": limits only); fails at once, in one line, when the sandbox cannot run here. `settle(index,
    result)`, when given, is what is kept of each result as soon as it is in (LiveCodeBench compares a case's stdout
    by its own rule there; a Program's `expected` is compared as it streams)."""
    python = find_interpreter(interpreter)
    for name in sorted({program.language for program in programs}):
        needs = get_language(name).missing()
        if needs:
            raise SandboxUnavailable(f"{name} programs need {needs}")
    backend = get_backend(sandbox)
    backend.ensure_available()
    count = max(1, min(workers or os.cpu_count() or 1, len(programs) or 1))
    cgroups = Cgroups.open(count)
    if isinstance(cgroups, str):
        _say_once(f"evalpipe: no cgroups for the sandboxes ({cgroups}): memory_mb and processes bound each process "
                  "alone, and slots do not share the CPU evenly (docs/limits.md)")
        cgroups = None
    nproc = None if os.geteuid() == 0 else _own_tasks() + count * (limits.processes + WAITING_TASKS)
    slots: queue.Queue[Slot] = queue.Queue()
    made = [Slot(number, limits, python, backend, cgroups,
                 TestsSandbox(python, backend, number, cgroups, limits.memory_mb), nproc) for number in range(count)]
    for slot in made:
        slots.put(slot)

    def one(index: int) -> RunResult:
        slot = slots.get()
        try:
            result = run_program(programs[index], slot, ahead=index + count < len(programs))
        finally:
            slots.put(slot)
        return settle(index, result) if settle is not None else result

    try:
        backend.confirm(made[0])
        with ThreadPoolExecutor(count) as pool:
            return list(pool.map(one, range(len(programs))))
    finally:
        for slot in made:
            slot.discard_waiting()
            slot.tests.close()
        if cgroups is not None:
            cgroups.close()


def _say_once(line: str) -> None:
    if line not in _told:
        _told.add(line)
        print(line, file=sys.stderr)


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
