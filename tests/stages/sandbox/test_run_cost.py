"""What each run costs besides its program: a sandbox that ended by itself (every pipe closed) is waited for, not
killed (the kill slept on its busy cgroups), one past its time limit still is; the supervisor a program is forked from
has imported no more than it needs (signal.py's enum cost every sandbox ~3.5 ms of CPU)."""
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
