"""Each test's outcome of a code row, kept in B4's `checks` column for the report: per line of the tests with a
check (an assert, a call the tests make) how often it held and failed, or per case run on its own (a stdin case, a
LiveCodeBench case) whether it held — bounded in number and length."""
from __future__ import annotations

from typing import Any

from ...sandbox.outcome import safe_text
from ...sandbox.run import RunResult
from .programs import same_output

CHECKS_KEPT = 40  # checks kept per row, the first ones (a test's line or a stdin case)
TEXT_KEPT = 120  # characters of a check's source line or stdin shown


def test_checks(results: list[RunResult], test: str | None, outputs: list[str] | None) -> list[dict[str, Any]]:
    """[{"test", "held", "failed", "error"}] of a row's runs: its function-level tests' checks by line, each named
    by its line of `test`, or each stdin case by its number and input."""
    if not results:
        return []
    if outputs is None:
        lines = (test or "").splitlines()
        return [{"test": f"line {line}: {_cut(lines[line - 1].strip() if 0 < line <= len(lines) else '')}",
                 "held": held, "failed": failed, "error": error}
                for line, held, failed, error in results[0].checks[:CHECKS_KEPT]]
    return [_case(number, result, expected)
            for number, (result, expected) in enumerate(zip(results[:CHECKS_KEPT], outputs), start=1)]


def _case(number: int, result: RunResult, expected: str | None) -> dict[str, Any]:
    """A case run on its own: held when its tests passed (a LiveCodeBench functional case) or it ran to its end and
    printed its expected output (a stdin case, compared as the run compared it)."""
    printed = result.matched if result.matched is not None else (
        expected is not None and same_output(result.stdout, expected))
    held = result.outcome == "passed" or result.outcome == "ran" and printed
    error = "" if held else result.error if result.outcome != "ran" else (
        f"printed {_cut(safe_text(result.stdout, TEXT_KEPT).strip())!r}, expected {_cut((expected or '').strip())!r}")
    return {"test": f"case {number}", "held": int(held), "failed": int(not held), "error": error}


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_KEPT else text[:TEXT_KEPT] + "…"
