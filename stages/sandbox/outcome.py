"""How a run ended, said honestly from what was seen outside the program: the time limit reached, the tests'
result, the supervisor's report of the program's exit code or signal, the cgroup's OOM count — and text a program
controls made safe to keep (bounded, surrogates replaced, control characters escaped)."""
from __future__ import annotations

import signal

from ..core.printable import printable

ERROR_CHARACTERS = 1000


def safe_text(text: str, limit: int = ERROR_CHARACTERS) -> str:
    """`text` cut to `limit` characters, lone surrogates replaced and control, bidi and escape characters escaped."""
    cut = text[:limit].encode("utf-8", "replace").decode("utf-8")
    return printable(cut)[: limit + 200] + ("…" if len(text) > limit else "")


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def spent(status: dict, cpu_seconds: float) -> bool:
    """Whether the CPU seconds wait4 reports reached `cpu_seconds` as the kernel counts them (it counts a little
    more: 0.9 s reported at a 1 s limit)."""
    return float(status.get("cpu", 0)) >= 0.8 * cpu_seconds


def ending(status: dict | None, cpu_seconds: int, stderr: str) -> tuple[str, str]:
    """(outcome, error) for a program that ended on its own before its work was done, from the supervisor's report:
    SIGXCPU at its CPU seconds, or SIGKILL once past them (the hard limit, a second later), is a time limit; any
    other signal, or SIGKILL before, is what it is; a Python program ended by an uncaught MemoryError is out of
    memory."""
    if not status:
        return "crashed", "the sandbox ended without reporting how the program ended"
    if "signal" in status:
        number = status["signal"]
        if number == signal.SIGXCPU and spent(status, cpu_seconds):
            return "timed out", f"past its {cpu_seconds} CPU seconds (SIGXCPU)"
        if number == signal.SIGKILL and float(status.get("cpu", 0)) >= cpu_seconds:
            return "timed out", f"past its {cpu_seconds} CPU seconds (SIGKILL, SIGXCPU ignored)"
        return "crashed", f"killed by {signal_name(number)}"
    code = status.get("exit", -1)
    last = stderr.strip().splitlines()[-1:] if stderr.strip() else []
    if code == 1 and last and last[0].split(":")[0] == "MemoryError":
        return "out of memory", last[0]
    return "crashed", f"exited with code {code}" + (f": {last[0]}" if last else "")


def decide(stopped: str | None, status: dict | None, tests: dict | None, out_of_memory: bool, function_level: bool,
           cpu_seconds: int, stderr: str, reading: float | None = None) -> tuple[str, str]:
    """(outcome, error) of one run. `stopped`: why evalpipe stopped it (the time limit, too much output), else None;
    `status`: the supervisor's report; `tests`: the tests' result (function-level programs); `reading`: the seconds
    the tests had been reading a large reply when the time limit came, else None."""
    if stopped is not None and stopped.startswith(("the build", "the start")):
        return "timed out", stopped
    if stopped is not None and stopped != "timed out":
        return "failed", stopped
    if tests and tests.get("outcome") == "passed":
        return "passed", ""
    if stopped == "timed out" and reading is not None:
        return "timed out", (f"the tests were still reading its reply at the time limit: the value it returned had "
                             f"taken {reading:.1f} s to rebuild")
    if stopped == "timed out":
        return "timed out", "still running at the time limit"
    if status and "syntax" in status:
        if "cpu" in status and spent(status, cpu_seconds):
            return "timed out", f"the build ran past its {cpu_seconds} CPU seconds: {status['syntax']}"
        return "syntax error", str(status["syntax"])
    if out_of_memory:
        return "out of memory", "the sandbox's processes reached memory_mb together"
    if not function_level:
        if status and status.get("exit") == 0:
            return "ran", ""
        return ending(status, cpu_seconds, stderr)
    outcome, error = (tests or {}).get("outcome"), str((tests or {}).get("error", ""))
    if outcome in ("failed", "crashed", "out of memory"):
        return outcome, error
    if outcome == "test error":
        return "failed", f"the tests themselves do not run: {error}"
    if status and status.get("exit") == 0:
        return "failed", error or "ended before its tests ran to their end"
    if status and status.get("exit") == 1 and error:
        return "failed", error
    found = ending(status, cpu_seconds, stderr)
    return found if found[0] != "crashed" or not error else ("crashed", f"{found[1]} ({error})")
