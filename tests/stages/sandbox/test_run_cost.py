"""What each run costs besides its program: a sandbox that ended by itself (every pipe closed) is waited for, not
killed (the kill slept on its busy cgroups), one past its time limit still is; the supervisor a program is forked from
has imported no more than it needs (signal.py's enum cost every sandbox ~3.5 ms of CPU); a slot starts its next
program's sandbox while one runs, replaces one found gone and leaves none behind."""
import ast
import os
import signal

import pytest

from stages.sandbox import run
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=4.0)
PROGRAMS = [Program("def f():\n    return 1\n", "assert f() == 1\n"), Program("def f():\n    return 2\n",
                                                                            "assert f() == 1\n"),
            Program("print(input())\n", stdin="3\n", expected="3\n"), Program("raise SystemExit(3)\n", stdin="")]


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


@pytest.fixture
def kills(monkeypatch):
    """The runs whose sandbox was killed."""
    killed = []
    kill = run._kill
    monkeypatch.setattr(run, "_kill", lambda process, group: (killed.append(process.pid), kill(process, group)))
    return killed


def test_a_sandbox_that_ended_by_itself_is_not_killed(kills):
    results = run_programs(PROGRAMS * 3, LIMITS, workers=2)
    assert [result.outcome for result in results[:4]] == ["passed", "failed", "ran", "crashed"]
    assert [result.matched for result in results[:4]] == [None, None, True, None]
    assert kills == []


def test_a_sandbox_past_its_time_is_still_killed(kills):
    result = run_programs([Program("import time\ntime.sleep(60)\n", stdin="")],
                          Limits(timeout_seconds=1.0))[0]
    assert result.outcome == "timed out" and len(kills) == 1


def test_a_program_starts_without_the_modules_signal_py_imported():
    program = "import sys\n\ndef f():\n    return sorted({'enum', 'functools', 'collections'} & set(sys.modules))\n"
    result = run_programs([Program(program, "assert f() == [], f()\n")], LIMITS)[0]
    assert (result.outcome, result.error) == ("passed", "")


def test_each_program_runs_in_a_sandbox_of_its_own_started_ahead_and_none_is_left(monkeypatch):
    started = []
    start = run.start_sandbox
    monkeypatch.setattr(run, "start_sandbox", lambda slot: started.append(start(slot)) or started[-1])
    source = ("import os\nopen(f'/tmp/{os.getuid()}.{os.getpid()}', 'w').close()\n\n"
              "def f():\n    return [os.getuid(), os.getpid(), sorted(os.listdir('/tmp'))]\n")
    results = run_programs([Program(source, "assert f() == [], f()\n")] * 3, LIMITS, workers=1)
    seen = [ast.literal_eval(result.error.split("AssertionError: ")[1]) for result in results]
    assert [pid for _, pid, _ in seen] == [2, 2, 2]  # each the first program of a pid namespace of its own
    assert all(len(files) == 2 and f"{uid}.2" in files for uid, _, files in seen), seen  # a /tmp of its own
    assert len(started) == 4  # the pool's trial run, the first program, then each next one started ahead
    assert all(sandbox.process.returncode is not None for sandbox in started)  # every one ended, the unused too
    assert not [folder for sandbox in started if sandbox.group for folder in sandbox.group.folders if folder.exists()]
    if os.geteuid() == 0:
        assert len({uid for uid, _, _ in seen}) == 3


def test_a_waiting_sandbox_found_gone_is_replaced(monkeypatch):
    started = []
    start = run.start_sandbox

    def start_and_end_the_third(slot):
        started.append(start(slot))
        if len(started) == 3:  # the second program's, started ahead while the first ran
            os.killpg(started[-1].process.pid, signal.SIGKILL)
            started[-1].process.wait()
        return started[-1]

    monkeypatch.setattr(run, "start_sandbox", start_and_end_the_third)
    results = run_programs([Program("def f():\n    return 1\n", "assert f() == 1\n")] * 2, LIMITS, workers=1)
    assert [result.outcome for result in results] == ["passed", "passed"] and len(started) == 4
