"""Code kind: each reply's program run against its item's tests inside the sandbox (stages/sandbox); pass@1, and
pass@k with several samples per item."""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from ...core.param_rules import at_least, one_of
from ...core.records import Columns
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...sandbox.backends import known_backend, unsandboxed_runs
from ...sandbox.languages import LANGUAGES, get_language
from ...sandbox.limits import Limits
from ...sandbox.outcome import safe_text
from ...sandbox.pool import run_programs
from ...sandbox.run import KEPT_BYTES, Program, RunResult
from ...text.reasoning import UNFINISHED
from ..base import Kind, Recognition, every_record_has, rank_models, register_kind
from .checks import test_checks
from .livecodebench import lcb_fields, outside_window
from .livecodebench_prompt import SYSTEM_MESSAGE, lcb_user_prompt
from .programs import (
    OTHER_LANGUAGE,
    build_program,
    humaneval_test,
    mbpp_test,
    other_language,
    same_output,
    texts,
)
from .tampering import tampering_signs
from .tasks import CODE_TASKS
from .tasks.livecodebench import LIVECODEBENCH

OUTCOMES = ("passed", "failed", "timed out", "crashed", "syntax error", "no code", "out of memory")
LIMIT_PARAMS = tuple(Limits.__dataclass_fields__)
TASK_COLUMNS = ("difficulty", "platform", "contest_date", "starter_code")  # a task's item columns (null in other code datasets)


def _code_fields(record: dict, question: str | None) -> dict[str, Any]:
    """The item's entry point, its test code (HumanEval's check, MBPP's asserts) and its stdin / stdout cases."""
    entry_point = record.get("entry_point")
    entry_point = entry_point.strip() if isinstance(entry_point, str) and entry_point.strip() else None
    test = record.get("test")
    asserts = texts(record.get("test_list"), "test_list")
    if isinstance(test, str) and test.strip() and entry_point:
        test = humaneval_test(test, entry_point)
    elif asserts:
        setup = record.get("test_setup_code")
        imports = texts(record.get("test_imports"), "test_imports") or []
        test = mbpp_test(asserts, "\n".join([*imports, setup if isinstance(setup, str) else ""]))
    else:
        test = None
    inputs, outputs = texts(record.get("inputs"), "inputs"), texts(record.get("outputs"), "outputs")
    if (inputs is None) != (outputs is None) or (inputs is not None and len(inputs) != len(outputs)):
        raise ValueError("inputs and outputs are not lists of the same length")
    return {"entry_point": entry_point, "test": test, "inputs": inputs, "outputs": outputs}


def a_day(value: str) -> str | None:
    """None for "" or a YYYY-MM-DD day, else why not."""
    try:
        if value:
            datetime.strptime(value, "%Y-%m-%d")
    except ValueError:
        return "is not a day as YYYY-MM-DD"
    return None


def known_language(value: Any) -> str | None:
    """None for a registered language's name, else why not."""
    names = LANGUAGES.names()
    return None if value in names else f"must be one of {', '.join(map(repr, names))}"


@register_kind("code")
class Code(Kind):
    """Programs run in bubblewrap against their tests: passed only when the tests ran to their end."""

    paired_metrics = {"pass_at_1": "binary"}
    repeated_ids_are_samples = True
    question_columns = ("entry_point", "test", "inputs", "outputs", *TASK_COLUMNS)
    defaults = {**{name: field.default for name, field in Limits.__dataclass_fields__.items()},
                "sandbox": "bwrap", "interpreter": "", "parallel": 0, "language": "python", "task": "",
                "start_date": "", "end_date": ""}
    task_defaults = {name: task.defaults for name, task in CODE_TASKS.items()}
    stage_params = {"B1": ("task", "start_date", "end_date"), "B3": ("language", "task"),
                    "B4": (*LIMIT_PARAMS, "sandbox", "interpreter", "parallel", "language", "task"), "B5": ("task",)}
    param_rules = {"timeout_seconds": at_least(0.1), "cpu_seconds": at_least(1, integer=True),
                   "memory_mb": at_least(64, integer=True), "processes": at_least(1, integer=True),
                   "file_size_mb": at_least(1, integer=True), "open_files": at_least(16, integer=True),
                   "output_kb": at_least(1, integer=True), "tmp_mb": at_least(1, integer=True),
                   "build_seconds": at_least(0.1),
                   "sandbox": known_backend, "parallel": at_least(0, integer=True),
                   "language": known_language, "task": one_of("", *CODE_TASKS.names()), "start_date": a_day,
                   "end_date": a_day}
    prompt_templates = {
        "en": "Complete the following Python code. Reply with the whole function in one ```python block.\n\n{question}",
        "zh": "请补全下面的 Python 代码，把完整的函数写在一个 ```python 代码块中。\n\n{question}",
    }

    def generation_cases(self, cases: list[dict[str, Any]], questions: Columns) -> list[dict[str, Any]]:
        """A LiveCodeBench item (one with a contest_date) is asked lcb_runner's prompt: its question and starter code."""
        dates = questions.get("contest_date") or [None] * len(cases)
        starters = questions.get("starter_code") or [None] * len(cases)
        return [{**case, "prompt": lcb_user_prompt(question or "", starter or "")} if date is not None else case
                for case, question, date, starter in zip(cases, questions["question"], dates, starters)]

    def system_prompt(self, questions: Columns) -> str | None:
        """lcb_runner's system message when the items are LiveCodeBench's."""
        return SYSTEM_MESSAGE if any(date is not None for date in questions.get("contest_date") or ()) else None

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        if "public_test_cases" in record:
            return lcb_fields(record)
        return {**_code_fields(record, question), **dict.fromkeys(TASK_COLUMNS)}

    def question_types(self) -> dict[str, Any]:
        import pyarrow as pa

        return {"entry_point": pa.string(), "test": pa.string(), "inputs": pa.list_(pa.string()),
                "outputs": pa.list_(pa.string()), **dict.fromkeys(TASK_COLUMNS, pa.string())}

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """HumanEval's items: every record carries `entry_point` and `test`."""
        return Recognition.FIELDS if every_record_has(records, "entry_point", "test") else Recognition.NO

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if fields.get("contest_date") is not None:
            if params.get("task") != LIVECODEBENCH.name:
                return 'a LiveCodeBench row (public_test_cases): dataset.toml needs task = "livecodebench"'
            return outside_window(fields["contest_date"], params["start_date"], params["end_date"])
        if params.get("task") == LIVECODEBENCH.name:
            return 'not a LiveCodeBench row (no public_test_cases): task = "livecodebench" reads only those'
        if fields.get("test") or fields.get("inputs"):
            return None
        return "no tests (HumanEval's test with entry_point, MBPP's test_list, or inputs / outputs)"

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B3: the program each reply gives (its code, after the prompt when the prompt is the function's head)."""
        if params.get("task"):
            return CODE_TASKS.get(params["task"]).normalize(joined, params)
        rows = len(joined["id"])
        states = joined.get("reasoning") or [None] * rows
        programs, how = [], []
        fences = get_language(params["language"]).fences
        labels = {name: language.fences for name, language in LANGUAGES.items()}
        for reply, prompt, entry_point, state in zip(joined["prediction"], joined["question"], joined["entry_point"],
                                                     states):
            if reply is None or state == UNFINISHED or not reply.strip():
                programs.append(None)
                how.append("no reply" if reply is None else "unfinished reasoning" if state == UNFINISHED
                           else "empty reply")
                continue
            elsewhere = other_language(reply, fences, labels)
            if elsewhere is not None:
                programs.append(None)
                how.append(f"{OTHER_LANGUAGE} {elsewhere}; this dataset runs {params['language']}")
                continue
            program, taken = build_program(reply, prompt, entry_point, fences)
            programs.append(program if program.strip() else None)
            how.append(taken if program.strip() else "no code in the reply")
        preludes = [prompt if entry_point and test else "" for prompt, entry_point, test
                    in zip(joined["question"], joined["entry_point"], joined["test"])]
        normalized = {"id": joined["id"], "program": programs, "how": how, "prelude": preludes,
                      **{name: joined[name] for name in ("entry_point", "test", "inputs", "outputs")}}
        return normalized, {"taken": dict(Counter(how))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B4: every program run in the sandbox, against its tests or on each stdin case."""
        if params.get("task"):
            return CODE_TASKS.get(params["task"]).match(normalized, params)
        limits = Limits.from_params(params)
        runs: list[Program] = []
        owners: list[int] = []
        for row, (program, test, inputs) in enumerate(zip(normalized["program"], normalized["test"],
                                                         normalized["inputs"])):
            if program is None:
                continue
            cases = [Program(program, stdin=stdin, language=params["language"], expected=output)
                     for stdin, output in zip(inputs, normalized["outputs"][row])] if inputs else [
                Program(program, test or "", prelude=normalized["prelude"][row] or "",
                        entry_point=normalized["entry_point"][row] or "", language=params["language"])]
            runs.extend(cases)
            owners.extend([row] * len(cases))

        results = run_programs(runs, limits, params["sandbox"], params["interpreter"], params["parallel"])
        by_row: dict[int, list[RunResult]] = {}
        for row, result in zip(owners, results):
            by_row.setdefault(row, []).append(result)
        matched: Columns = {name: [] for name in ("id", "passed", "outcome", "error", "seconds", "stdout", "stderr",
                                                  "how", "sandbox", "tampering", "checks")}
        for row, row_id in enumerate(normalized["id"]):
            outputs = normalized["outputs"][row]
            outcome, error, found = _verdict(by_row.get(row), outputs, normalized["how"][row])
            matched["id"].append(row_id)
            matched["passed"].append(outcome == "passed")
            matched["outcome"].append(outcome)
            matched["error"].append(error)
            matched["seconds"].append(round(sum(r.seconds for r in found), 3) if found else None)
            matched["stdout"].append(safe_text(found[-1].stdout, KEPT_BYTES) if found else "")
            matched["stderr"].append(found[-1].stderr if found else "")
            matched["how"].append(normalized["how"][row])
            matched["sandbox"].append(params["sandbox"] if found else None)
            program = normalized["program"][row]
            signs = tampering_signs(program, normalized["prelude"][row] or "", normalized["entry_point"][row] or "") \
                if program else []
            matched["tampering"].append([f"line {sign.line}: {sign.sign}" for sign in signs])
            matched["checks"].append(test_checks(found, normalized["test"][row], outputs))
        info = {"outcomes": dict(Counter(matched["outcome"])), "programs_run": len(runs),
                "sandbox": params["sandbox"]}
        return matched, info

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        scored = {"id": matched["id"], "pass_at_1": [1.0 if passed else 0.0 for passed in matched["passed"]],
                  "outcome": matched["outcome"]}
        if params.get("task"):
            task = CODE_TASKS.get(params["task"])
            return scored, task.metrics_from_stats(task.score_stats(matched))
        return scored, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        return {"rows": len(matched["id"]), "passed": sum(bool(p) for p in matched["passed"]),
                "outcomes": dict(Counter(matched["outcome"])),
                "unsandboxed": unsandboxed_runs(matched.get("sandbox", [])),
                "tampering": tampering_summary(matched["id"], matched.get("tampering") or [[]] * len(matched["id"]),
                                               matched["passed"])}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        return {"rows": stats["rows"], "pass_at_1": share(stats["passed"], stats["rows"]),
                "outcomes": dict(stats["outcomes"]), "unsandboxed": stats["unsandboxed"],
                "tampering": stats.get("tampering", {"programs": 0, "passed": 0, "signs": {}})}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        outcome = matched.get("outcome", "no code")
        status = "correct" if outcome == "passed" else "unparsed" if outcome in ("no code", "other language") else "wrong"
        return status, f"{outcome}: {matched.get('error')}" if matched.get("error") else outcome

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "pass_at_1")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        tasks = {metrics.get("task") for metrics in report["models"].values()} - {None}
        if tasks:
            return CODE_TASKS.get(tasks.pop()).render(report)
        rows = [[model, str(m["rows"]), percent(m["pass_at_1"]),
                 ", ".join(f"{outcome} {m['outcomes'][outcome]}" for outcome in OUTCOMES if m["outcomes"].get(outcome)),
                 str(m.get("tampering", {}).get("programs", 0))]
                for model, m in report["models"].items()]
        return format_table(["model", "programs", "pass@1", "outcomes", "tampering"], rows)


def tampering_summary(ids: list, signs: list[list[str]], passed: list[bool]) -> dict[str, Any]:
    """Programs with a sign of tampering, how many of them passed, and each sign's count with a first example."""
    summary: dict[str, Any] = {"programs": 0, "passed": 0, "signs": {}}
    for row_id, found, ok in zip(ids, signs, passed):
        if not found:
            continue
        summary["programs"] += 1
        summary["passed"] += bool(ok)
        for sign in {entry.split(": ", 1)[-1] for entry in found}:
            kind = sign.split(" (")[0].split(",")[0]
            entry = summary["signs"].setdefault(kind, {"count": 0, "example": str(row_id)})
            entry["count"] += 1
    return summary


def _verdict(results: list[RunResult] | None, outputs: list[str] | None, how: str) -> tuple[str, str, list]:
    """A row's outcome and first error line from its runs: no code; the test run's outcome; or, for stdin cases,
    passed when every case ran to its end and printed its expected output."""
    if not results:
        return ("other language" if how.startswith(OTHER_LANGUAGE) else "no code"), how, []
    if outputs is None:
        result = results[0]
        return result.outcome, result.error, results
    for number, (result, expected) in enumerate(zip(results, outputs), start=1):
        if result.outcome != "ran":
            return result.outcome, f"case {number}: {result.error}", results
        if not (result.matched if result.matched is not None else same_output(result.stdout, expected)):
            shown = safe_text(result.stdout, 200).strip().splitlines()[:1]
            whole = f"; all it printed has SHA-256 {result.digest[:16]}…" if result.digest and len(
                result.stdout.encode()) >= KEPT_BYTES else ""  # only its start was kept
            return "failed", (f"case {number}: printed {shown[0][:80]!r}…" if shown else f"case {number}: printed "
                              "nothing") + f" (expected {expected.strip()[:80]!r}{whole})", results
    return "passed", "", results
