"""`task = "livecodebench"` of the code kind: B3–B5 as lcb_runner scores code generation — each case its own run
with LCB's timeout, the verdict passed only when every case passed, pass@k per problem (pass_k_utils) and per
difficulty."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ....core.records import Columns
from ....core.stats import share
from ....core.text_table import format_table, percent
from ....sandbox.backends import unsandboxed_runs
from ....sandbox.limits import Limits
from ....sandbox.outcome import safe_text
from ....sandbox.pool import run_programs
from ....sandbox.run import KEPT_BYTES, Program, RunResult
from ....text.reasoning import UNFINISHED
from ..checks import test_checks
from ..livecodebench import (
    CALL_NAME,
    DIFFICULTIES,
    call_program,
    call_test,
    extract_lcb_code,
    lcb_same_output,
    stdin_program,
)
from ..tampering import tampering_signs
from . import CodeTask, register_task

TASK = "livecodebench"
K_LIST = (1, 5, 10, 20, 40, 50, 75, 100, 125, 150, 200, 500, 1000)  # codegen_metrics' k_list
DEFAULTS = {"timeout_seconds": 6.0}  # lcb_runner's --timeout: each case's run (a stdin case, one call)
NO_CODE = "no code block (fewer than two lines with ```)"


def lcb_pass_at_k(n: int, c: int, k: int) -> float:
    """pass_k_utils.estimate_pass_at_k for one problem: 1 − Π (1 − k / i) for i in n−c+1 … n; 1.0 when n − c < k."""
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def normalize(joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
    """B3: each reply's code (extract_code: between its last two ``` lines) made the program LCB runs."""
    rows = len(joined["id"])
    states = joined.get("reasoning") or [None] * rows
    programs, codes, how = [], [], []
    for reply, state, fn_name in zip(joined["prediction"], states, joined["entry_point"]):
        code = extract_lcb_code(reply) if reply is not None and state != UNFINISHED else ""
        taken = ("no reply" if reply is None else "unfinished reasoning" if state == UNFINISHED
                 else "fenced block" if code.strip() else NO_CODE)
        codes.append(code if code.strip() else None)
        programs.append(None if not code.strip() else call_program(code, fn_name) if fn_name else stdin_program(code))
        how.append(taken)
    normalized = {"id": joined["id"], "program": programs, "code": codes, "how": how,
                  **{name: joined[name] for name in ("entry_point", "inputs", "outputs", "difficulty")}}
    return normalized, {"taken": dict(Counter(how)), "unfinished_reasoning": how.count("unfinished reasoning")}


def match(normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
    """B4: every case of every program in its own sandbox — a stdin case on its stdin, a functional case one call of
    the method with the case's JSON arguments — the row passed when all its cases did."""
    runs: list[Program] = []
    owners: list[int] = []
    expected: list[str | None] = []
    for row, (program, fn_name) in enumerate(zip(normalized["program"], normalized["entry_point"])):
        if program is None:
            continue
        for given, output in zip(normalized["inputs"][row], normalized["outputs"][row]):
            runs.append(Program(program, call_test(given, output), entry_point=CALL_NAME) if fn_name
                        else Program(program, stdin=given))
            owners.append(row)
            expected.append(None if fn_name else output)

    def settle(index: int, result: RunResult) -> RunResult:
        """A stdin case compared by LCB's rule as soon as it ends, and only the start of its stdout kept."""
        if expected[index] is None:
            return result
        return replace(result, stdout=result.stdout[:KEPT_BYTES + 1],
                       matched=lcb_same_output(result.stdout, expected[index]))

    results = run_programs(runs, Limits.from_params(params), params["sandbox"], params["interpreter"],
                           params["parallel"], settle) if runs else []
    by_row: dict[int, list[RunResult]] = {}
    for row, result in zip(owners, results):
        by_row.setdefault(row, []).append(result)
    names = ("id", "passed", "outcome", "error", "seconds", "stdout", "stderr", "how", "sandbox", "tampering",
             "difficulty", "cases_passed", "checks")
    matched: Columns = {name: [] for name in names}
    for row, row_id in enumerate(normalized["id"]):
        found = by_row.get(row, [])
        outcome, error, passed_cases = _verdict(found, normalized["outputs"][row], normalized["how"][row])
        shown = found[min(passed_cases, len(found) - 1)] if found else None  # the case the error names, else the last
        code = normalized["code"][row]
        values = (row_id, outcome == "passed", outcome, error,
                  round(sum(r.seconds for r in found), 3) if found else None,
                  safe_text(shown.stdout, KEPT_BYTES) if shown else "", shown.stderr if shown else "",
                  normalized["how"][row], params["sandbox"] if found else None,
                  [f"line {sign.line}: {sign.sign}" for sign in tampering_signs(code, "", "")] if code else [],
                  normalized["difficulty"][row], passed_cases, test_checks(found, None, normalized["outputs"][row]))
        for name, value in zip(names, values):
            matched[name].append(value)
    return matched, {"outcomes": dict(Counter(matched["outcome"])), "programs_run": len(runs),
                     "sandbox": params["sandbox"]}


def _verdict(results: list[RunResult], outputs: list[str], how: str) -> tuple[str, str, int]:
    """(outcome, first error, cases passed): passed when every case passed (a stdin case: ran and printed its output
    by LCB's rule); else the first case that did not, as LCB stops there."""
    if not results:
        return "no code", how, 0
    for number, (result, output) in enumerate(zip(results, outputs), start=1):
        if result.matched is None and result.outcome == "passed" or result.outcome == "ran" and result.matched:
            continue
        passed_before = number - 1
        if result.outcome not in ("ran", "failed"):
            return result.outcome, f"case {number}: {result.error}", passed_before
        if result.outcome == "failed":
            return "failed", f"case {number}: {result.error}", passed_before
        shown = safe_text(result.stdout, 200).strip().splitlines()[:1]
        printed = repr(shown[0][:80]) if shown else "nothing"
        return "failed", f"case {number}: printed {printed} (expected {output.strip()[:80]!r})", passed_before
    return "passed", "", len(results)


def score_stats(matched: Columns) -> dict[str, Any]:
    """Per problem (id): its difficulty, programs and programs passed; outcome counts."""
    problems: dict[str, list] = {}
    for row_id, passed, difficulty in zip(matched["id"], matched["passed"], matched["difficulty"]):
        entry = problems.setdefault(str(row_id), [difficulty, 0, 0])
        entry[1] += 1
        entry[2] += bool(passed)
    return {"task": TASK, "rows": len(matched["id"]), "passed": sum(bool(p) for p in matched["passed"]),
            "outcomes": dict(Counter(matched["outcome"])), "problems": problems,
            "unsandboxed": unsandboxed_runs(matched.get("sandbox", [])),
            "unfinished_reasoning": sum(how == "unfinished reasoning" for how in matched["how"])}


def metrics_from_stats(stats: dict[str, Any]) -> dict[str, Any]:
    """pass@1 as codegen_metrics reports it (the mean over problems of estimate_pass_at_k), pass@k for each of its
    k_list every problem has k programs for, and pass@1 per difficulty."""
    counts = list(stats["problems"].values())

    def mean_pass(k: int, chosen: list) -> float | None:
        return sum(lcb_pass_at_k(n, c, k) for _, n, c in chosen) / len(chosen) if chosen else None

    fewest = min((n for _, n, _ in counts), default=0)
    per_difficulty = {}
    for difficulty in DIFFICULTIES:
        chosen = [entry for entry in counts if entry[0] == difficulty]
        if chosen:
            per_difficulty[difficulty] = {"problems": len(chosen), "pass_at_1": mean_pass(1, chosen)}
    return {"task": TASK, "rows": stats["rows"], "problems": len(counts), "pass_at_1": mean_pass(1, counts),
            "pass_at_k": {str(k): mean_pass(k, counts) for k in K_LIST if 1 <= k <= fewest},
            "programs_passed": share(stats["passed"], stats["rows"]), "per_difficulty": per_difficulty,
            "outcomes": dict(stats["outcomes"]), "unsandboxed": stats["unsandboxed"],
            "unfinished_reasoning": stats["unfinished_reasoning"]}


def render(report: dict[str, Any]) -> str:
    """The console table: pass@1 overall and per difficulty, problems, programs and their outcomes."""
    rows = []
    for model, metrics in report["models"].items():
        levels = metrics.get("per_difficulty", {})
        rows.append([model, str(metrics["problems"]), str(metrics["rows"]), percent(metrics["pass_at_1"]),
                     *(percent(levels[d]["pass_at_1"]) if d in levels else "-" for d in DIFFICULTIES),
                     ", ".join(f"{outcome} {count}" for outcome, count in sorted(metrics["outcomes"].items())),
                     str(metrics.get("unfinished_reasoning", 0))])
    return format_table(["model", "problems", "programs", "pass@1", *DIFFICULTIES, "outcomes", "unfinished"], rows)


class LiveCodeBenchTask(CodeTask):
    """`task = "livecodebench"`: B3–B5 and the text report as lcb_runner's scripts."""

    name, defaults = TASK, DEFAULTS
    normalize, match = staticmethod(normalize), staticmethod(match)
    score_stats, metrics_from_stats = staticmethod(score_stats), staticmethod(metrics_from_stats)
    render = staticmethod(render)


LIVECODEBENCH = register_task(LiveCodeBenchTask())
