"""A program's time limit is its own time: from its start (the supervisor's word) to its end. A slow start of its
sandbox or of the tests' sandbox, or evalpipe looking late at a program that ended in time, is not the program's time
(a loaded machine gave such programs `timed out`); a program that ended past its time is timed out however late it
was seen."""
import select
import time

import pytest

from stages.sandbox import run
from stages.sandbox.backends import Launch, get_backend
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=1.0)
RIGHT = Program("def f():\n    return 1\n", "assert f() == 1\n", entry_point="f")


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _slowed(monkeypatch, backend: str, part: str, seconds: float) -> None:
    """Every sandbox of `part` ("program" or "tests") that `backend` starts waits `seconds` before it starts."""
    found = get_backend(backend)
    original = getattr(found, part)

    def slow(*args, **kwargs) -> Launch:
        launch = original(*args, **kwargs)
        launch.prefix = ["/bin/sh", "-c", f'sleep {seconds}; exec "$@"', "sh", *launch.prefix]
        return launch

    monkeypatch.setattr(found, part, slow)


@pytest.mark.parametrize("backend", ["bwrap", "none"])
def test_a_sandbox_that_starts_slowly_does_not_time_its_program_out(monkeypatch, backend):
    _slowed(monkeypatch, backend, "program", 1.5)
    result = run_programs([RIGHT], LIMITS, backend)[0]
    assert (result.outcome, result.error) == ("passed", "") and result.startup > 1.5


def test_a_tests_sandbox_that_starts_slowly_does_not_time_the_program_out(monkeypatch):
    _slowed(monkeypatch, "none", "tests", 1.5)  # no trial program first under "none": its tests sandbox starts cold
    result = run_programs([RIGHT], LIMITS, "none")[0]
    assert (result.outcome, result.error) == ("passed", "")


def _looking_late(monkeypatch) -> None:
    """evalpipe reads a program's pipes only once its sandbox has ended, the tests' result is in and its time is up."""
    collect = run._collect

    def late(process, report_read, result_read, group, limits, started, *rest):
        process.wait()
        select.select([result_read], [], [])
        time.sleep(max(0.0, started + limits.timeout_seconds + 0.2 - time.monotonic()))
        return collect(process, report_read, result_read, group, limits, started, *rest)

    monkeypatch.setattr(run, "_collect", late)


def test_a_program_that_ended_in_time_is_not_timed_out_when_seen_late(monkeypatch):
    _looking_late(monkeypatch)
    result = run_programs([RIGHT], LIMITS, "none")[0]
    assert (result.outcome, result.error) == ("passed", "") and result.seconds > LIMITS.timeout_seconds


def test_a_program_that_ended_past_its_time_is_timed_out_when_seen_late(monkeypatch):
    _looking_late(monkeypatch)
    slow = Program("import time\ndef f():\n    time.sleep(1.5)\n    return 1\n", "assert f() == 1\n", entry_point="f")
    result = run_programs([slow], LIMITS, "none")[0]
    assert (result.outcome, result.error) == ("timed out", "still running at the time limit")
    assert result.status["wall"] > LIMITS.timeout_seconds
