"""One program in a fresh sandbox: its own uid, cgroups for the whole sandbox, the seccomp filter; the supervisor
inside reports how it ended, and for function-level tests the slot's tests sandbox calls its functions through two
pipes. Whatever the program does, this returns how it ended. A slot starts the sandbox of its next program while one
runs (each sandbox still runs one program only), so that its start is not on the way."""
from __future__ import annotations

import itertools
import json
import marshal
import os
import random
import selectors
import signal
import socket
import subprocess
import time
from dataclasses import dataclass

from .backends import Launch, SandboxBackend
from .bwrap import ENVIRONMENT, as_user, inside_command
from .cgroups import Cgroups, ProgramGroup
from .languages import get_language
from .limits import Limits
from .outcome import decide, safe_text
from .streamed_output import StreamedOutput
from .tests_sandbox import TestsSandbox

PROGRAM_UIDS = 100_000  # as root, each program runs as a uid of its own from this range, never used twice in a run
UID_SPAN = 1_000_000
KEPT_BYTES = 4096  # of stdout and of stderr, kept with each run's result
REPORT_BYTES = 1 << 16  # a status or result line: 1,000 characters of escaped text fit
EXIT_GRACE = 0.5  # seconds a sandbox whose pipes all closed has to exit before it is killed
_uids = itertools.count(random.randrange(UID_SPAN))
WAITING_TASKS = 3  # processes of a sandbox waiting for its program (its wrapper, bwrap and the supervisor)


@dataclass(frozen=True)
class Program:
    """A program's source and how it is tested: function-level `test` code (run in the tests' sandbox, after the
    prompt's own `prelude`, with `entry_point` and every name the tests read but do not define calling into the
    program), or one `stdin` for a stdin / stdout program (no test), its stdout compared as it arrives with
    `expected` when given."""

    source: str
    test: str = ""
    stdin: str = ""
    prelude: str = ""
    entry_point: str = ""
    language: str = "python"
    expected: str | None = None


@dataclass(frozen=True)
class RunResult:
    """How a run ended: `passed` / `ran` (a stdin program that exited 0) / `failed` / `timed out` / `crashed` /
    `syntax error` / `out of memory`, its error (≤ 1,000 characters, escaped), seconds from its launch, stdout as
    printed (up to the output limit: compared as it is, escaped only when shown), the start of stderr (escaped), and
    the supervisor's report of the program's end."""

    outcome: str
    error: str
    seconds: float
    stdout: str
    stderr: str
    status: dict | None
    matched: bool | None = None  # a stdin program's stdout against its expected output, compared as it arrived
    digest: str = ""  # then the SHA-256 of all its stdout, of which `stdout` is the start
    checks: tuple[tuple[int, int, int, str], ...] = ()  # function-level tests: (line, held, failed, first error)
    startup: float | None = None  # of `seconds`, those before the program started (None: it never started)


@dataclass
class Slot:
    """What one worker runs programs with: the limits, the interpreter, the sandbox backend that starts them, the run's
    cgroups (None: rlimits only), its tests sandbox, the process allowance for non-root runs and the sandbox started
    for its next program."""

    number: int
    limits: Limits
    interpreter: str
    backend: SandboxBackend
    cgroups: Cgroups | None
    tests: TestsSandbox
    nproc: int | None = None
    waiting: Sandbox | None = None

    def discard_waiting(self) -> None:
        if self.waiting is not None:
            self.waiting.discard()
            self.waiting = None


@dataclass
class Sandbox:
    """A program's sandbox started before its program is known: its supervisor waits on `control` for the payload,
    stdin and call descriptors; `report` is its report pipe, `group` its cgroups, under the `limits` it started with."""

    process: subprocess.Popen
    control: socket.socket
    report: int
    group: ProgramGroup | None
    launch: Launch
    limits: Limits

    def discard(self) -> None:
        """End it unused: its supervisor exits when the control socket closes (it is killed if it does not)."""
        self.control.close()
        if not _ended(self.process):
            _kill(self.process, self.group)
        self.process.wait()
        for pipe in (self.process.stdout, self.process.stderr):
            pipe.close()
        os.close(self.report)
        if self.group is not None:
            self.group.remove()
        self.launch.cleanup()


def _memory_file(data: bytes) -> int:
    descriptor = os.memfd_create("evalpipe-program", 0)
    os.write(descriptor, data)
    os.lseek(descriptor, 0, os.SEEK_SET)
    return descriptor


def _rlimits(limits: Limits, nproc: int) -> dict[str, int | tuple[int, int]]:
    """The resource limits each program process starts with (the cgroups bound the sandbox as a whole); past its CPU
    seconds a program gets SIGXCPU, a second later SIGKILL."""
    return {"RLIMIT_CPU": (limits.cpu_seconds, limits.cpu_seconds + 1), "RLIMIT_AS": limits.memory_mb << 20, "RLIMIT_NPROC": nproc,
            "RLIMIT_FSIZE": limits.file_size_mb << 20, "RLIMIT_NOFILE": limits.open_files, "RLIMIT_CORE": 0}


def start_sandbox(slot: Slot) -> Sandbox:
    """A fresh sandbox for one program of `slot`: a uid and cgroups of its own, its supervisor started and waiting."""
    limits = slot.limits
    uid = PROGRAM_UIDS + next(_uids) % UID_SPAN if os.geteuid() == 0 else None
    group = (slot.cgroups.program(slot.number, limits.memory_mb << 20, limits.processes)
             if slot.cgroups is not None else None)
    report_read, report_write = os.pipe()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    launch = slot.backend.program(limits, slot.interpreter, uid)
    command, switch = as_user(uid, group.procs_files if group else [],
                              [*launch.prefix, *inside_command(slot.interpreter, "supervisor", launch.scripts,
                                                               str(theirs.fileno()), str(report_write))])
    inherited = [theirs.fileno(), report_write, *launch.fds]
    user = {"user": switch, "group": switch, "extra_groups": []} if switch is not None else {}
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   pass_fds=inherited, start_new_session=True, env=dict(ENVIRONMENT),
                                   cwd=launch.cwd, **user)
    finally:
        theirs.close()
        for descriptor in (report_write, *launch.fds):
            os.close(descriptor)
    return Sandbox(process, ours, report_read, group, launch, limits)


def _sandbox_for(slot: Slot, sent: list[int]) -> Sandbox:
    """The slot's waiting sandbox (a fresh one when it has none, or it is gone), handed the program's descriptors."""
    sandbox, slot.waiting = slot.waiting, None
    if sandbox is not None:
        if sandbox.limits == slot.limits and sandbox.process.poll() is None and _handed(sandbox, sent):
            return sandbox
        sandbox.discard()
    sandbox = start_sandbox(slot)
    _handed(sandbox, sent)  # one that ended at once is read as any sandbox that ended without reporting
    return sandbox


def _handed(sandbox: Sandbox, sent: list[int]) -> bool:
    """Send the program's descriptors to a waiting supervisor: whether it took them."""
    try:
        socket.send_fds(sandbox.control, [b"P"], sent)
    except OSError:
        return False
    finally:
        sandbox.control.close()
    return True


def run_program(program: Program, slot: Slot, ahead: bool = False) -> RunResult:
    """Run one program in `slot` and return how it ended; `ahead`: start the sandbox of the slot's next program."""
    language, limits = get_language(program.language), slot.limits
    function_level = bool(program.test)
    if function_level and not language.python_host:
        return RunResult("failed", f"tests that call functions need a Python program, not {language.name}", 0.0, "",
                         "", None)
    if function_level:
        slot.tests.ready(limits.build_seconds)  # its start-up is not the program's time
    calls, replies = (os.pipe(), os.pipe()) if function_level else ((-1, -1), (-1, -1))
    payload = {"files": {language.source_file: program.source}, "main": language.source_file,
               "python": language.python_host, "build": list(language.build),
               "run": list(language.run),
               "limits": _rlimits(limits, limits.processes if slot.nproc is None else slot.nproc)}
    body = marshal.dumps(payload)
    sent = [_memory_file(len(body).to_bytes(4, "big") + body), _memory_file(program.stdin.encode("utf-8", "replace")),
            *([calls[0], replies[1]] if function_level else [])]
    started = time.monotonic()
    try:
        sandbox = _sandbox_for(slot, sent)
    finally:
        for descriptor in sent:
            os.close(descriptor)
    result_read = -1
    if function_level:
        result_read, result_write = os.pipe()
        job = {"prelude": program.prelude, "test": program.test, "seconds": limits.timeout_seconds,
               "names": [program.entry_point] if program.entry_point else []}
        try:
            slot.tests.submit(job, calls[1], replies[0], result_write)
        finally:
            for descriptor in (calls[1], replies[0], result_write):
                os.close(descriptor)
    try:
        if ahead:
            slot.waiting = start_sandbox(slot)
        stream = None if program.expected is None else StreamedOutput(program.expected, KEPT_BYTES)
        return _collect(sandbox.process, sandbox.report, result_read, sandbox.group, limits, started,
                        function_level, bool(language.build), stream)
    finally:
        if sandbox.group is not None:
            sandbox.group.remove()
        sandbox.launch.cleanup()


def _collect(process: subprocess.Popen, report_read: int, result_read: int, group: ProgramGroup | None,
             limits: Limits, started: float, function_level: bool, building: bool,
             stream: StreamedOutput | None) -> RunResult:
    """Read stdout, stderr, the supervisor's report and the tests' result until both are in, the time is up or the
    program printed past its output limit (then the sandbox is killed); how the run ended. The program's clock starts
    when the supervisor says it started (the sandbox's start-up and a build have `build_seconds`); what is already in
    when the time is found up is read first, and a program that ended past its time is timed out, so neither
    evalpipe's own delays nor the start-up decide a verdict. With a `stream`, stdout goes to it (compared as it
    arrives, its start kept) and is not held here."""
    cap = limits.output_kb << 10
    kept = {"stdout": bytearray(), "stderr": bytearray(), "report": bytearray(), "tests": bytearray()}
    sizes = dict.fromkeys(kept, 0)
    bounds = {"stdout": cap, "stderr": cap, "report": REPORT_BYTES, "tests": REPORT_BYTES}
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, "stdout")
    selector.register(process.stderr, selectors.EVENT_READ, "stderr")
    selector.register(report_read, selectors.EVENT_READ, "report")
    if result_read >= 0:
        selector.register(result_read, selectors.EVENT_READ, "tests")
    deadline, stopped, program_start = started + limits.build_seconds, None, None
    reading = None  # since when the tests have been reading a large reply of the program's
    while selector.get_map() and stopped is None:
        left = deadline - time.monotonic()
        ready = selector.select(max(left, 0.0))
        if not ready and left <= 0:
            stopped = ("timed out" if program_start is not None
                       else f"the {'build' if building else 'start'} ran past {limits.build_seconds:g} seconds")
            reading = None if reading is None else time.monotonic() - reading
            break
        for key, _ in ready:
            data = os.read(key.fd, 1 << 16)
            if not data:
                selector.unregister(key.fileobj)
                continue
            sizes[key.data] += len(data)
            if stream is not None and key.data == "stdout":
                stream.feed(data)
            else:
                kept[key.data] += data[:max(0, bounds[key.data] - len(kept[key.data]))]
            if key.data == "tests":
                reading = _tests_reading(kept["tests"], reading)
            if key.data in ("stdout", "stderr") and sizes[key.data] > cap:
                stopped = f"printed over {limits.output_kb} KB"
            if program_start is None and key.data == "report" and b"\n" in kept["report"]:
                program_start = _started_at(kept["report"], started)
                deadline = program_start + limits.timeout_seconds
    if stopped is not None or not _ended(process):
        _kill(process, group)
    process.wait()
    seconds = time.monotonic() - started
    selector.close()
    for pipe in (process.stdout, process.stderr):
        pipe.close()
    for descriptor in (report_read, result_read):
        if descriptor >= 0:
            os.close(descriptor)
    status, tests = _message(kept["report"]), _message(kept["tests"])
    late = stopped is None and status is not None and status.get("wall", 0) > limits.timeout_seconds
    if process.returncode == 125 and status is None:
        status = {"exit": 125, "note": "could not join its cgroups"}
    stderr = kept["stderr"].decode("utf-8", "replace")
    outcome, error = decide("timed out" if late else stopped, status, None if late else tests,  # ended past its time
                            group.out_of_memory() if group else False, function_level, limits.cpu_seconds, stderr,
                            reading if stopped == "timed out" else None)
    startup = None if program_start is None else round(program_start - started, 3)
    if stream is None:
        return RunResult(outcome, safe_text(error), round(seconds, 3), kept["stdout"].decode("utf-8", "replace"),
                         safe_text(stderr, KEPT_BYTES), status, checks=_checks(tests), startup=startup)
    return RunResult(outcome, safe_text(error), round(seconds, 3), bytes(stream.prefix).decode("utf-8", "replace"),
                     safe_text(stderr, KEPT_BYTES), status, stream.matched(), stream.digest(), startup=startup)


def _tests_reading(channel: bytearray, reading: float | None) -> float | None:
    """Take the tests' `reading` / `read` lines off the front of their channel (they come before the result line):
    since when the tests have been reading a large reply, or None when they are not."""
    while True:
        if channel.startswith(b"reading\n"):
            del channel[:8]
            reading = time.monotonic()
        elif channel.startswith(b"read\n"):
            del channel[:5]
            reading = None
        else:
            return reading


STATUS_FIELDS = {"exit": int, "signal": int, "cpu": (int, float), "wall": (int, float), "syntax": str, "outcome": str,
                 "error": str, "checks": list}


def _started_at(report: bytearray, launched: float) -> float:
    """When the program started, as its supervisor's first line says (the host's monotonic clock), kept between its
    launch and now."""
    try:
        said = json.loads(bytes(report).split(b"\n", 1)[0]).get("started")
    except (ValueError, AttributeError, RecursionError):
        said = None
    now = time.monotonic()
    return min(max(said, launched), now) if isinstance(said, (int, float)) and not isinstance(said, bool) else now


def _checks(tests: dict | None) -> tuple[tuple[int, int, int, str], ...]:
    """The tests' checks per line, (line, held, failed, first error), those of the form the tests host writes."""
    return tuple((entry[0], entry[1], entry[2], safe_text(entry[3], 80))
                 for entry in (tests or {}).get("checks", ())
                 if isinstance(entry, list) and len(entry) == 4 and all(type(n) is int for n in entry[:3])
                 and isinstance(entry[3], str))


def _message(data: bytearray) -> dict | None:
    """The last JSON line of a bounded channel (the supervisor says `started` before it reports the end) when every
    field is of its type, else None: a status is read as data that may have been tampered with."""
    lines = [line for line in bytes(data).split(b"\n") if line.strip()]
    try:
        message = json.loads(lines[-1].decode("ascii")) if lines else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(message, dict) or "started" in message or not message or any(
            key not in STATUS_FIELDS or isinstance(value, bool) or not isinstance(value, STATUS_FIELDS[key])
            for key, value in message.items()):
        return None
    if not 0 <= message.get("exit", 0) <= 255 or not 0 <= message.get("signal", 1) <= 128:
        return None
    return message


def _ended(process: subprocess.Popen) -> bool:
    """Whether the sandbox ends by itself within EXIT_GRACE seconds: with every pipe closed its pid 1 is gone and bwrap
    is exiting (killing it then found its cgroups still busy and slept before removing them)."""
    try:
        process.wait(EXIT_GRACE)
    except subprocess.TimeoutExpired:
        return False
    return True


def _kill(process: subprocess.Popen, group: ProgramGroup | None) -> None:
    """Kill the sandbox: its pid 1 (its namespace dies with it), bwrap's process group, and whatever is left in its
    cgroups."""
    for pid in _descendants(process.pid):
        _signal(pid)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        _signal(process.pid)
    if group is not None:
        group.remove()


def _descendants(pid: int) -> list[int]:
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        try:
            children = [int(child) for child in open(f"/proc/{current}/task/{current}/children").read().split()]
        except OSError:
            children = []
        found += children
        frontier += children
    return found


def _signal(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
