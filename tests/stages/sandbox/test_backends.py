"""Sandbox backends looked up by the `sandbox` name: bwrap and none registered, an unknown name refused, a backend
registered elsewhere used by the pool as it is."""
from __future__ import annotations

import shutil

import pytest

from stages.core.errors import UsageError
from stages.sandbox.backends import BACKENDS, get_backend, known_backend, register_backend, unsandboxed_runs
from stages.sandbox.backends.none import Unsandboxed
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=10.0)
CWD = "import os\n\ndef f():\n    return os.getcwd()\n"


def test_bwrap_and_none_are_registered_and_only_bwrap_isolates():
    assert BACKENDS.names() == ["bwrap", "none"]
    assert (get_backend("bwrap").isolates, get_backend("none").isolates) == (True, False)
    assert unsandboxed_runs(["bwrap", "none", None, "none"]) == 2


def test_an_unknown_sandbox_name_is_refused_in_one_line():
    assert known_backend("bwrap") is None
    assert known_backend("firejail") == "must be one of 'bwrap', 'none'"
    with pytest.raises(UsageError, match="unknown sandbox backend 'firejail'"):
        run_programs([Program("def f():\n    return 1\n", "assert f() == 1\n")], LIMITS, sandbox="firejail")


def test_none_runs_each_program_in_a_fresh_folder_of_its_own():
    results = run_programs([Program(CWD, "assert f() == '', f()\n") for _ in range(2)],
                           LIMITS, sandbox="none", workers=1)
    folders = [result.error for result in results]
    assert all(result.outcome == "failed" for result in results)
    assert all("evalpipe-program-" in folder for folder in folders) and folders[0] != folders[1]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_bwrap_runs_a_program_in_the_sandbox_s_tmp():
    result = run_programs([Program(CWD, "assert f() == '/tmp', f()\n")], LIMITS, workers=1)[0]
    assert result.outcome == "passed", result.error


def test_a_backend_registered_by_name_is_the_one_the_pool_uses():
    class Counting(Unsandboxed):
        name, launched = "counting", []

        def program(self, limits, interpreter, uid):
            self.launched.append(limits.timeout_seconds)
            return super().program(limits, interpreter, uid)

    backend = register_backend(Counting())
    try:
        results = run_programs([Program("def f():\n    return 1\n", "assert f() == 1\n")], LIMITS, sandbox="counting")
    finally:
        del BACKENDS._parts["counting"]
    assert [result.outcome for result in results] == ["passed"]
    assert backend.launched == [10.0]
