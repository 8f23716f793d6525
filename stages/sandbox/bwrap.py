"""One untrusted program in bubblewrap: no network, the system (/usr) read-only, a private empty /tmp as its working
folder and nothing else of the host, an empty environment, resource limits set before the program starts, and a
wall-clock timeout after which its whole process tree is killed (its pid namespace dies with it)."""
from __future__ import annotations

import json
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError
from .limits import Limits

RUNNER = (Path(__file__).with_name("runner.py")).read_text(encoding="utf-8")
INSTALL_HINT = "install Debian's bubblewrap (`apt-get install bubblewrap`): code runs only inside its `bwrap`"
INTERPRETERS = ("/usr/local/bin/python3", "/usr/bin/python3")
SANDBOX_UID = 61000  # run as root, slot i runs as uid SANDBOX_UID + i: RLIMIT_NPROC then counts its processes only
KEPT_BYTES = 4096  # of stdout and of stderr, kept with each run's result
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
               "PYTHONDONTWRITEBYTECODE": "1"}


class SandboxUnavailable(UsageError):
    """The sandbox cannot run here (no bwrap, no interpreter under /usr, user namespaces refused)."""


@dataclass(frozen=True)
class Program:
    """Python source, the test code run after it in the same namespace (none: a program reading stdin), its stdin."""

    source: str
    test: str = ""
    stdin: str = ""


@dataclass(frozen=True)
class RunResult:
    """How a run ended: `passed` / `ran` (a stdin program that ran to its end) / `failed` / `timed out` / `crashed` /
    `syntax error` / `out of memory`, the first line of its error, seconds, the start of stdout and stderr."""

    outcome: str
    error: str
    seconds: float
    stdout: str
    stderr: str
    exit_code: int | None


def find_interpreter(path: str = "") -> str:
    """The Python that runs programs: `path`, else the system's python3 — under /usr, the only host folder the
    sandbox sees."""
    found = path or next((candidate for candidate in INTERPRETERS if os.access(candidate, os.X_OK)), "")
    if not found or not os.access(found, os.X_OK):
        raise SandboxUnavailable(f"no Python interpreter for programs ({path or ' or '.join(INTERPRETERS)}); "
                                 "set the dataset's `interpreter` to a python3 under /usr")
    if not os.path.realpath(found).startswith("/usr/"):
        raise SandboxUnavailable(f"the interpreter {found} is not under /usr, the only host folder the sandbox sees")
    return found


def sandbox_prefix(limits: Limits) -> list[str]:
    """bwrap's command line up to the program: every namespace new (no network), the program the namespace's pid 1
    (nothing outlives it), /usr read-only with the merged-/usr links, a fresh /proc, /dev and size-limited /tmp as
    the working folder, an empty environment."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"`bwrap` not found: {INSTALL_HINT}")
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1", "--ro-bind", "/usr", "/usr"]
    for top in ("bin", "lib", "lib32", "lib64", "sbin"):
        host = Path("/") / top
        if host.is_symlink():
            command += ["--symlink", os.readlink(host), f"/{top}"]
        elif host.is_dir():
            command += ["--ro-bind", str(host), f"/{top}"]
    command += ["--proc", "/proc", "--dev", "/dev", "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp",
                "--chdir", "/tmp", "--hostname", "sandbox", "--clearenv"]
    for name, value in ENVIRONMENT.items():
        command += ["--setenv", name, value]
    return [*command, "--"]


def run_program(program: Program, limits: Limits, prefix: list[str], interpreter: str, slot: int = 0,
                nproc: int | None = None) -> RunResult:
    """Run one program under `prefix` (sandbox_prefix; empty for sandbox = "none": then in a fresh temporary folder)
    — as root, in slot `slot`'s own uid. Whatever the program does, this returns how it ended."""
    nonce = secrets.token_hex(16)
    payload = {"nonce": nonce, "program": program.source, "test": program.test,
               "limits": _rlimits(limits, limits.processes if nproc is None else nproc)}
    payload_fd, stdin_fd = _memory_file(json.dumps(payload).encode()), _memory_file(program.stdin.encode())
    report_read, report_write = os.pipe()
    user = {"user": SANDBOX_UID + slot, "group": SANDBOX_UID + slot, "extra_groups": []} if os.geteuid() == 0 else {}
    command = [*prefix, interpreter, "-I", "-c", RUNNER, str(payload_fd), str(report_write)]
    with tempfile.TemporaryDirectory(prefix="evalpipe-program-") as workdir:
        if user and not prefix:
            os.chown(workdir, user["user"], user["group"])
        started = time.monotonic()
        try:
            process = subprocess.Popen(command, stdin=stdin_fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       pass_fds=(payload_fd, report_write), start_new_session=True,
                                       cwd=workdir if not prefix else "/", env=dict(ENVIRONMENT), **user)
        finally:
            for fd in (payload_fd, stdin_fd, report_write):
                os.close(fd)
        result = _collect(process, report_read, nonce, limits, started)
    if user and (result.outcome == "timed out" or result.error.startswith("printed over")):
        _wait_until_gone(user["user"])
    return result


def _memory_file(data: bytes) -> int:
    """A file descriptor reading `data` from its start, held in memory only."""
    fd = os.memfd_create("evalpipe-program", 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _rlimits(limits: Limits, nproc: int) -> dict[str, int]:
    """The resource limits the runner sets on itself before the program runs."""
    return {"RLIMIT_CPU": limits.cpu_seconds, "RLIMIT_AS": limits.memory_mb << 20, "RLIMIT_NPROC": nproc,
            "RLIMIT_FSIZE": limits.file_size_mb << 20, "RLIMIT_NOFILE": limits.open_files, "RLIMIT_CORE": 0}


def _collect(process: subprocess.Popen, report_read: int, nonce: str, limits: Limits, started: float) -> RunResult:
    """Read stdout, stderr and the runner's report until the program ends, its time is up or it prints past the
    output limit (then its process group is killed); how it ended."""
    cap, kept = limits.output_kb << 10, {"stdout": bytearray(), "stderr": bytearray(), "report": bytearray()}
    sizes = dict.fromkeys(kept, 0)
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, "stdout")
    selector.register(process.stderr, selectors.EVENT_READ, "stderr")
    selector.register(report_read, selectors.EVENT_READ, "report")
    deadline, stopped = started + limits.timeout_seconds, None
    while selector.get_map() and stopped is None:
        left = deadline - time.monotonic()
        if left <= 0:
            stopped = "timed out"
            break
        for key, _ in selector.select(left):
            data = os.read(key.fd, 1 << 16)
            if not data:
                selector.unregister(key.fileobj)
                continue
            sizes[key.data] += len(data)
            kept[key.data] += data[:max(0, cap - len(kept[key.data]))]
            if sizes[key.data] > cap:
                stopped = f"printed over {limits.output_kb} KB"
    if stopped is not None:
        _kill(process)
    exit_code = process.wait()
    seconds = time.monotonic() - started
    selector.close()
    for stream in (process.stdout, process.stderr):
        stream.close()
    os.close(report_read)
    outcome, error = _ending(stopped, exit_code, bytes(kept["report"]), nonce, kept["stderr"])
    return RunResult(outcome, error, round(seconds, 3), kept["stdout"].decode("utf-8", "replace"),
                     kept["stderr"][:KEPT_BYTES].decode("utf-8", "replace"), exit_code)


def _wait_until_gone(uid: int, seconds: float = 10.0) -> None:
    """Wait while processes of a slot's uid are still dying (a killed sandbox's namespace empties in a moment), so
    the slot's next program starts with its whole process allowance."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_owner(status) == uid for status in Path("/proc").glob("[0-9]*")):
        time.sleep(0.02)


def _owner(folder: Path) -> int | None:
    try:
        return folder.stat().st_uid
    except OSError:
        return None


def _kill(process: subprocess.Popen) -> None:
    """SIGKILL to the sandbox's pid 1 first (its whole pid namespace dies with it; bwrap, its parent, reaps it and
    exits), then to bwrap's process group (a program without the sandbox, and anything left)."""
    for child in _children(process.pid):
        _signal(child, signal.SIGKILL)
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        _signal(process.pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _ending(stopped: str | None, exit_code: int, report: bytes, nonce: str, stderr: bytes) -> tuple[str, str]:
    """(outcome, first line of the error) from how the run was stopped, the runner's report and the exit code."""
    if stopped == "timed out":
        return "timed out", "still running at the time limit"
    if stopped is not None:
        return "failed", stopped
    try:
        said = json.loads(report.decode("utf-8").splitlines()[0])
    except (ValueError, IndexError, UnicodeDecodeError):
        said = {}
    if isinstance(said, dict) and said.get("nonce") == nonce:
        return str(said.get("outcome")), str(said.get("error", ""))
    if exit_code < 0 or exit_code > 128:
        number = -exit_code if exit_code < 0 else exit_code - 128
        name = signal.Signals(number).name if number in signal.valid_signals() else f"signal {number}"
        if number == signal.SIGXCPU:
            return "timed out", "past its CPU seconds (SIGXCPU)"
        return "crashed", f"killed by {name}"
    last = stderr.decode("utf-8", "replace").strip().splitlines()
    if exit_code == 0:
        return "failed", "ended before its tests ran to their end"
    return "crashed", f"exit code {exit_code}" + (f": {last[-1][:300]}" if last else "")
