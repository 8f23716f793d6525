"""LiveCodeBench's replies run in the sandbox give lcb_runner's own verdicts (reference.json, from check_correctness on
the same replies): stdin programs and Solution methods, right and wrong, a timeout, a runtime error, a missing method;
pass@k per problem as compute_metrics_from_results; a reply whose reasoning never closes has no code, and is counted."""
import json
from pathlib import Path

import pytest

from stages.kinds.code.kind import Code
from stages.text.reasoning import split_reasoning

HERE = Path(__file__).parent / "livecodebench"
REFERENCE = json.loads((HERE / "reference.json").read_text())


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    questions = tmp_path_factory.mktemp("lcb") / "questions.jsonl"
    questions.write_bytes((HERE / "questions.jsonl").read_bytes())
    code = Code()
    params = {**code.defaults, **code.task_defaults["livecodebench"], "task": "livecodebench", "parallel": 2,
              "start_date": "2024-08-01"}
    items = code.load_gold(questions, {"question_field": "question_content"}, params=params).columns.to_pydict()
    replies = [json.loads(line) for line in (HERE / "predictions.jsonl").read_text().splitlines()]
    row_of = {item_id: row for row, item_id in enumerate(items["id"])}
    joined = {name: [items[name][row_of[reply["id"]]] for reply in replies]
              for name in ("id", "question", "entry_point", "inputs", "outputs", "difficulty")}
    answers = [split_reasoning(reply["prediction"]) for reply in replies]
    joined.update(prediction=[answer for answer, _ in answers], reasoning=[state for _, state in answers])
    normalized, taken = code.normalize(joined, params)
    matched, _ = code.match(normalized, params)
    rows, metrics = code.score(matched, params)
    return replies, taken, matched, metrics


def test_each_program_gets_lcb_runners_verdict(scored, bwrap):
    replies, _, matched, _ = scored
    for reply, passed, outcome, error in zip(replies, matched["passed"], matched["outcome"], matched["error"]):
        if "</think>" not in reply["prediction"]:
            continue  # reasoning never closed: the next test
        assert passed is REFERENCE["verdicts"][reply["id"]][str(reply["sample"])]["passed"], (reply, outcome, error)
    outcomes = dict(zip([(r["id"], r["sample"]) for r in replies], zip(matched["outcome"], matched["error"])))
    assert outcomes[("abc001_a", 3)] == ("timed out", "case 1: still running at the time limit")  # LCB: -3
    assert outcomes[("lc300", 3)][0] == "failed" and "ValueError: no" in outcomes[("lc300", 3)][1]  # LCB: -4
    assert outcomes[("lc300", 4)] == (  # LCB: "Error during testing" (its get_function found no method)
        "failed", "case 1: AttributeError: 'Solution' object has no attribute 'addPair'")
    assert outcomes[("cf100_b", 1)] == ("failed", "case 1: printed '0.500000001' (expected '0.5')")


def test_unclosed_reasoning_is_no_code_and_counted(scored, bwrap):
    replies, taken, matched, metrics = scored
    row = next(i for i, r in enumerate(replies) if "</think>" not in r["prediction"])
    assert (matched["outcome"][row], matched["how"][row]) == ("no code", "unfinished reasoning")
    assert taken["unfinished_reasoning"] == 1 and metrics["unfinished_reasoning"] == 1


def test_pass_at_k_and_per_difficulty_as_lcb_computes_them(scored, bwrap):
    *_, metrics = scored
    assert metrics["problems"] == 3 and metrics["rows"] == 13
    assert metrics["pass_at_1"] == pytest.approx(REFERENCE["pass_at_k"]["pass@1"], abs=1e-12)
    for k in ("1",):  # codegen_metrics reports a k only when every problem has k programs (3 here)
        assert metrics["pass_at_k"][k] == pytest.approx(REFERENCE["pass_at_k"][f"pass@{k}"], abs=1e-12)
    assert set(metrics["pass_at_k"]) == {"1"}  # LCB's k_list: 1, 5, 10, …
    detail = REFERENCE["detail"]["pass@1"]
    assert {level: figures["pass_at_1"] for level, figures in metrics["per_difficulty"].items()} == pytest.approx(
        {"easy": detail["abc001_a"], "medium": detail["cf100_b"], "hard": detail["lc300"]}, abs=1e-12)


def test_a_failed_programs_stdout_is_the_failing_cases_the_error_names(bwrap):
    """The B4 row's stdout and stderr are those of the case its error names, not of the last case run."""
    code = Code()
    params = {**code.defaults, **code.task_defaults["livecodebench"], "task": "livecodebench", "parallel": 2}
    fence = "```"
    wrong_on_2 = f"{fence}python\nn = int(input())\nprint(5 if n == 2 else n)\n{fence}"
    right = f"{fence}python\nprint(int(input()))\n{fence}"
    joined = {"id": ["p", "p"], "question": ["echo n"] * 2, "entry_point": [None, None],
              "inputs": [["1\n", "2\n", "3\n"]] * 2, "outputs": [["1\n", "2\n", "3\n"]] * 2,
              "difficulty": ["easy"] * 2}
    answers = [split_reasoning(reply) for reply in (wrong_on_2, right)]
    joined.update(prediction=[answer for answer, _ in answers], reasoning=[state for _, state in answers])
    normalized, _ = code.normalize(joined, params)
    matched, _ = code.match(normalized, params)
    assert (matched["error"][0], matched["stdout"][0], matched["cases_passed"][0]) == (
        "case 2: printed '5' (expected '2')", "5\n", 1)
    assert (matched["outcome"][1], matched["stdout"][1], matched["cases_passed"][1]) == ("passed", "3\n", 3)


def test_each_case_is_kept_as_a_check_with_its_outcome(scored, bwrap):
    replies, _, matched, _ = scored
    checks = dict(zip([(r["id"], r["sample"]) for r in replies], matched["checks"]))
    for reply, passed, found in zip(replies, matched["passed"], matched["checks"]):
        if passed:  # every case of a passed program held, one check per case
            assert found and all((c["held"], c["failed"]) == (1, 0) for c in found), reply
    assert checks[("cf100_b", 1)][0] == {"test": "case 1", "held": 0, "failed": 1,
                                         "error": "printed '0.500000001', expected '0.5'"}
    failed = [c for c in checks[("lc300", 3)] if c["failed"]]
    assert failed and "ValueError: no" in failed[0]["error"]
    assert checks[("abc001_a", 3)][0]["error"] == "still running at the time limit"
