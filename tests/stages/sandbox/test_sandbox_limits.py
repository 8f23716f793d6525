"""Limits for a sandbox as a whole and outcomes said as they were: memory over every process, tmpfs and memory file
of a program together; processes; CPU shared evenly between slots; nothing carried from one program to the next
(keyrings, user namespaces, tracing refused); exit codes, signals and time limits reported as what they were."""
import itertools
import os
import platform
import random
import time
from pathlib import Path

import pytest

from stages.sandbox import run
from stages.sandbox.backends import get_backend
from stages.sandbox.cgroups import Cgroups
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import PROGRAM_UIDS, UID_SPAN, Program

LIMITS = Limits(timeout_seconds=4.0)
WANTS_ONE = "answer = f()\nassert answer == 1, answer\n"
ROOT_WITH_CGROUPS = os.geteuid() == 0 and not isinstance(Cgroups.open(1), str)


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _run(source: str, test: str = WANTS_ONE, limits: Limits = LIMITS, stdin: str = ""):
    return run_programs([Program(source, test, stdin)], limits)[0]


def _sandbox_processes(uids: range) -> int:
    """Processes of these program uids (as root) still alive."""
    return sum(1 for folder in Path("/proc").glob("[0-9]*") if _uid(folder) in uids)


def _own_uids(monkeypatch, count: int) -> range:
    """The uids the next `count` programs run as: a stretch of the range no concurrent run of the suite is using now
    (another test process's programs have uids of the same range)."""
    first = random.randrange(UID_SPAN - count)
    monkeypatch.setattr(run, "_uids", itertools.count(first))
    return range(PROGRAM_UIDS + first, PROGRAM_UIDS + first + count)


def _uid(folder: Path):
    try:
        return folder.stat().st_uid
    except OSError:
        return None


def test_a_fork_bomb_is_stopped_and_leaves_nothing_behind(monkeypatch):
    source = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    uids = _own_uids(monkeypatch, 2)  # the trial program the pool runs first, then the bomb
    result = _run(source)
    assert result.outcome == "timed out" and result.seconds - result.startup < LIMITS.timeout_seconds + 3
    deadline = time.monotonic() + 10
    while _sandbox_processes(uids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _sandbox_processes(uids) == 0
    assert _run("def f():\n    return 1\n").outcome == "passed"


def test_allocating_20_gib_is_out_of_memory():
    result = _run("def f():\n    block = bytearray(20 << 30)\n    return 1\n")
    assert (result.outcome, result.error) == ("out of memory", "MemoryError:")


@pytest.mark.skipif(not ROOT_WITH_CGROUPS, reason="the memory of a whole sandbox is bounded by cgroups (root)")
def test_forked_children_together_are_bounded_by_memory_mb():
    source = ("import os, select, time\nheld, told = os.pipe()\npids = []\nfor _ in range(6):\n    pid = os.fork()\n"
              "    if pid == 0:\n        block = bytearray(100 << 20)\n        os.write(told, b'h')\n"
              "        time.sleep(30)\n        os._exit(0)\n    pids.append(pid)\nos.close(told)\n"
              "holding, dead = 0, set()\n"
              "while holding + len(dead) < 6:  # each child holds its block or was killed: no time guessed\n"
              "    if select.select([held], [], [], 0.05)[0]:\n        holding += len(os.read(held, 6))\n"
              "    dead |= {pid for pid in pids if pid not in dead and os.waitpid(pid, os.WNOHANG)[0] == pid}\n"
              "alive = sum(pid not in dead and os.waitpid(pid, os.WNOHANG)[0] == 0 for pid in pids)\n"
              "def f():\n    return alive\n")
    result = _run(source, "alive = f()\nassert alive <= 2, alive\n", limits=Limits(timeout_seconds=10.0, memory_mb=256))
    assert result.outcome == "passed", result  # of six children holding 100 MiB each, at most two fit in 256 MiB


@pytest.mark.skipif(not ROOT_WITH_CGROUPS, reason="the memory of a whole sandbox is bounded by cgroups (root)")
@pytest.mark.parametrize("where", ["memfd", "/dev/shm", "/tmp"])
def test_files_in_memory_count_against_memory_mb(where):
    make = ("import os\nfd = os.memfd_create('x')\n" if where == "memfd"
            else f"fd = __import__('os').open('{where}/x', __import__('os').O_CREAT | __import__('os').O_WRONLY)\n")
    source = (make + "import os\nchunk = b'x' * (1 << 20)\nwritten = 0\n"
              "for _ in range(400):\n    try:\n        os.write(fd, chunk)\n        written += 1\n"
              "    except OSError:\n        break\ndef f():\n    return written\n")
    result = _run(source, limits=Limits(timeout_seconds=10.0, memory_mb=256, tmp_mb=1024))
    assert result.outcome in ("out of memory", "failed"), result
    if result.outcome == "failed":  # the write was refused before the group's limit: never past it
        assert int(result.error.split(": ", 1)[1]) < 256


def test_slots_share_the_cpu_a_hog_in_one_leaves_the_other_its_share():
    hog = ("import os, time\nfor _ in range(60):\n    if os.fork() == 0:\n        os.setsid()\n"
           "        while True:\n            pass\ndef f():\n    time.sleep(60)\n")
    honest = ("import time\ndef f():\n    started = time.process_time()\n"
              "    while time.process_time() - started < 0.5:\n        pass\n    return 1\n")
    limits = Limits(timeout_seconds=8.0, processes=128)
    results = run_programs([Program(hog, WANTS_ONE), Program(honest, WANTS_ONE)], limits, workers=2)
    assert results[0].outcome == "timed out" and results[1].outcome == "passed", results


@pytest.mark.skipif(platform.machine() != "x86_64", reason="system call numbers of x86-64")
@pytest.mark.parametrize("call, number, arguments", [
    ("add_key", 248, "b'user', b'evalpipe', b'secret', 6, ctypes.c_int(-4)"),
    ("keyctl", 250, "0, -4, 0, 0, 0"),
    ("unshare (a user namespace)", 272, "0x10000000"),
    ("ptrace", 101, "16, 1, 0, 0"),
    ("bpf", 321, "0, 0, 0"),
    ("userfaultfd", 323, "0"),
    ("perf_event_open", 298, "0, 0, -1, -1, 0"),
    ("mount", 165, "b'none', b'/tmp', b'tmpfs', 0, 0"),
], ids=lambda value: value if isinstance(value, str) and not value[0].isdigit() and "," not in value else "")
def test_calls_that_reach_shared_kernel_state_are_refused(call, number, arguments):
    source = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
              f"returned = libc.syscall({number}, {arguments})\nerror = ctypes.get_errno()\n"
              "def f():\n    return [returned, error]\n")
    result = _run(source, "answer = f()\nassert answer == [-1, 1], answer\nassert False, 'refused'\n")
    assert (result.outcome, result.error) == ("failed", "AssertionError: refused"), (call, result)


def test_a_key_one_program_leaves_is_not_read_by_the_next():
    writer = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
              "libc.syscall(248, b'user', b'evalpipe', b'secret', 6, ctypes.c_int(-4))\ndef f():\n    return 1\n")
    reader = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
              "found = libc.syscall(249, b'user', b'evalpipe', None, 0)\ndef f():\n    return found\n")
    results = run_programs([Program(writer, WANTS_ONE), Program(reader, "assert f() == -1\n")], LIMITS, workers=1)
    assert [result.outcome for result in results] == ["passed", "passed"], results


def test_each_program_runs_as_a_uid_of_its_own():
    source = "import os\ndef f():\n    return os.getuid()\n"
    results = run_programs([Program(source, "uid = f()\nassert uid == -1, uid\n") for _ in range(3)], LIMITS,
                           workers=1)
    assert all(result.outcome == "failed" for result in results)
    if os.geteuid() == 0:
        uids = {int(result.error.split(": ")[1]) for result in results}
        assert len(uids) == 3 and all(uid >= PROGRAM_UIDS for uid in uids), results


@pytest.mark.parametrize("code", [152, 137, 3])
def test_an_exit_code_is_reported_as_an_exit_code(code):
    result = _run(f"import os\nos._exit({code})\n", "", stdin="")
    assert (result.outcome, result.error) == ("crashed", f"exited with code {code}")
    assert result.seconds - result.startup < 3
    inside = _run(f"import os\ndef f():\n    os._exit({code})\n")
    assert (inside.outcome, inside.error) == ("crashed", f"exited with code {code}")


@pytest.mark.parametrize(("source", "verdict"), [
    ("class Solution:\n    pass\nmethod = getattr(Solution(), 'addPair')\n",
     ("failed", "AttributeError: 'Solution' object has no attribute 'addPair'")),
    ("import sys\nsys.exit(3)\n", ("crashed", "exited with code 3 (exited (code 3) before its tests ran)"))])
def test_a_program_that_ends_before_its_tests_call_it_gets_one_verdict_whenever_they_call(source, verdict):
    """The tests' first call may reach the program before it ends or after (the order machine load decides): either
    way the verdict is the program's own reason, said on its replies pipe before it ended."""
    late = "import time\ntime.sleep(1.5)\n" + WANTS_ONE  # the program has long ended when this call is sent
    early, after = run_programs([Program(source, WANTS_ONE), Program(source, late)], LIMITS)
    assert (early.outcome, early.error) == (after.outcome, after.error) == verdict, (early, after)


def test_a_signal_is_reported_only_when_the_program_got_one():
    result = _run("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "", stdin="")
    assert (result.outcome, result.error) == ("crashed", "killed by SIGSEGV")


def test_cpu_seconds_are_a_time_limit_only_when_spent():
    spent = _run("while True:\n    pass\n", "", limits=Limits(timeout_seconds=10.0, cpu_seconds=1))
    assert (spent.outcome, spent.error) == ("timed out", "past its 1 CPU seconds (SIGXCPU)")
    sent = _run("import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)\n", "", stdin="")
    assert (sent.outcome, sent.error) == ("crashed", "killed by SIGXCPU")


def test_a_program_that_kills_itself_before_its_cpu_seconds_is_killed_not_timed_out():
    source = ("import os, signal, time\nwhile time.process_time() < 1.7:\n    pass\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    result = _run(source, "", limits=Limits(timeout_seconds=15.0, cpu_seconds=2))
    assert (result.outcome, result.error) == ("crashed", "killed by SIGKILL"), result
    ignoring = _run("import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass\n", "",
                    limits=Limits(timeout_seconds=15.0, cpu_seconds=1))
    assert (ignoring.outcome, ignoring.error) == ("timed out", "past its 1 CPU seconds (SIGKILL, SIGXCPU ignored)")


def test_a_stdin_program_s_memory_error_is_out_of_memory():
    result = _run("block = bytearray(20 << 30)\n", "", stdin="")
    assert (result.outcome, result.error) == ("out of memory", "MemoryError"), result
    said = _run("import sys\nprint('MemoryError: not really', file=sys.stderr)\nsys.exit(3)\n", "", stdin="")
    assert (said.outcome, said.error) == ("crashed", "exited with code 3: MemoryError: not really"), said


def test_a_build_past_its_cpu_seconds_is_timed_out_not_a_syntax_error():
    functions = [f"long g{i}(long x) {{ std::vector<long> v(x); std::sort(v.begin(), v.end()); "
                 f"std::map<long, std::string> m; m[x] = std::to_string(x); return m.size() + v.size() + {i}; }}"
                 for i in range(3000)]
    source = "\n".join(["#include <algorithm>", "#include <map>", "#include <string>", "#include <vector>",
                        *functions, "int main() { return g0(1) == 2 ? 0 : 1; }"])
    result = run_programs([Program(source, language="cpp")], Limits(cpu_seconds=1, build_seconds=120.0))[0]
    assert result.outcome == "timed out", result
    assert result.error.startswith("the build ran past its 1 CPU seconds: g++: internal compiler error: CPU time "
                                   "limit exceeded"), result
    broken = run_programs([Program("int main() { return x; }", language="cpp")], LIMITS)[0]
    assert broken.outcome == "syntax error", broken


@pytest.mark.parametrize("source", ["while True:\n    pass\n", "import time\ntime.sleep(10 ** 6)\n"],
                         ids=["endless loop", "sleeping forever"])
def test_a_program_that_never_ends_is_timed_out(source):
    result = _run(source)
    assert result.outcome == "timed out" and result.seconds - result.startup < LIMITS.timeout_seconds + 3


def test_printing_a_gibibyte_is_stopped_at_the_output_limit():
    result = _run("import sys\nchunk = 'y' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n")
    assert (result.outcome, result.error) == ("failed", f"printed over {LIMITS.output_kb} KB")
    assert len(result.stdout) <= LIMITS.output_kb << 10


def test_a_stdin_program_reads_its_input_and_may_end_with_exit():
    result = _run("import sys\nprint(int(input()) * 2)\nsys.exit(0)\n", "", stdin="21\n")
    assert (result.outcome, result.stdout) == ("ran", "42\n")


@pytest.mark.skipif(not ROOT_WITH_CGROUPS, reason="programs' groups are made as root")
def test_a_program_group_an_earlier_run_left_behind_is_not_made_again():
    """A group whose removal gave up (a process still in it on a loaded machine) stays under this process's folders,
    which the next run in this process opens again: its programs' groups have names of their own."""
    earlier = Cgroups.open(1)
    left = earlier.program(0, 64 << 20, 8)  # never removed, as if its removal had given up
    try:
        fresh = Cgroups.open(1).program(0, 64 << 20, 8)
        assert fresh.folders != left.folders and all(folder.is_dir() for folder in fresh.folders)
        fresh.remove()
    finally:
        left.remove()
        earlier.close()


@pytest.mark.skipif(not ROOT_WITH_CGROUPS, reason="the tests sandbox is bounded by cgroups (root)")
def test_the_tests_sandbox_is_in_the_slot_s_groups():
    from stages.sandbox.bwrap import find_interpreter
    from stages.sandbox.tests_sandbox import TestsSandbox

    groups = Cgroups.open(1)
    tests = TestsSandbox(find_interpreter(), get_backend("bwrap"), 0, groups, 256)
    try:
        tests._start()
        deadline = time.monotonic() + 60  # a bound on waiting only: a loaded machine may take seconds to start it
        wanted = (f"evalpipe-{os.getpid()}/tests0", f"evalpipe-{os.getpid()}/slot0")
        seen = ""
        while not all(group in seen for group in wanted) and time.monotonic() < deadline:
            seen = Path(f"/proc/{tests.process.pid}/cgroup").read_text()  # its wrapper moves itself in, a group
            time.sleep(0.01)  # at a time, as it starts
        assert all(group in seen for group in wanted), seen
        limit = (groups.bases["memory"] / "tests0" / "memory.limit_in_bytes").read_text().strip()
        assert int(limit) == 1024 << 20
    finally:
        tests.close()
        groups.close()


def test_a_status_line_that_was_tampered_with_is_no_status():
    from stages.sandbox.run import _message

    assert _message(bytearray(b'{"exit": 0, "cpu": 0.1}\n')) == {"exit": 0, "cpu": 0.1}
    for forged in (b'{"signal": "How a process ended", "cpu": 3}\n', b'{"exit": 1e99}\n', b'{"exit": -3}\n',
                   b'{"exit": true}\n', b'{"nonce": 1}\n', b'[1]\n', b'{"exit": 0' + b' ' * 10):
        assert _message(bytearray(forged)) is None, forged
