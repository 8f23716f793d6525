"""Every registered language, each through its own example (a stdin / stdout program printing the sum of two
integers): recognised in a fenced reply, built and run in the sandbox, its output right; a wrong program and one that
does not build or never ends counted as such."""
import os

import pytest

from stages.kinds.code.programs import extract_code
from stages.sandbox.languages import LANGUAGES
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=5.0)
BROKEN = "this is not a program in any language ((("


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


@pytest.fixture(params=LANGUAGES.names())
def language(request):
    found = LANGUAGES.get(request.param)
    if found.missing():
        if os.environ.get("EVALPIPE_REQUIRE_SANDBOX"):
            pytest.fail(f"{found.name} needs {found.missing()} (EVALPIPE_REQUIRE_SANDBOX is set; .ci/run installs it)")
        pytest.skip(f"{found.name} needs {found.missing()}")
    return found


def test_a_language_recognises_its_fenced_block(language):
    fence = language.fences[0] if language.fences[0] else language.fences[-1]
    reply = f"Here it is:\n```{fence}\n{language.example}```\nand some text after."
    assert extract_code(reply, language.fences) == (language.example, "fenced block")


def test_a_languages_example_runs_and_prints_the_sum(language):
    cases = ["2 3\n", "-7 10\n", "1000000000 1000000000\n"]
    results = run_programs([Program(language.example, stdin=case, language=language.name) for case in cases],
                           LIMITS)
    assert [(result.outcome, result.stdout) for result in results] == [("ran", "5\n"), ("ran", "3\n"),
                                                                        ("ran", "2000000000\n")], results


def test_a_program_that_does_not_build_or_run_is_counted_as_such(language):
    result = run_programs([Program(BROKEN, stdin="2 3\n", language=language.name)], LIMITS)[0]
    assert result.outcome in ("syntax error", "crashed") and result.outcome != "ran", result
    assert result.error


def test_a_long_compiler_error_in_any_script_is_kept_as_a_syntax_error():
    if LANGUAGES.get("cpp").missing():
        pytest.skip("g++ is not installed")
    source = "int main() { return " + "é" * 1200 + "; }\n"
    result = run_programs([Program(source, stdin="", language="cpp")], LIMITS)[0]
    assert result.outcome == "syntax error" and "error" in result.error, result
