"""LiveCodeBench rows and replies as a careless dataset or a hostile model writes them: each bad row set aside at B1
with its line and reason, each bad reply a program that fails in the sandbox — never a failed stage."""
import json

import pytest

from stages.kinds.code.kind import Code
from stages.kinds.code.livecodebench import lcb_same_output, stdin_program
from stages.kinds.code.tasks.livecodebench import normalize

DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON that json.loads cannot read (RecursionError)


def _row(number: int, **changes) -> dict:
    row = {"question_id": f"q{number}", "question_content": "Print A+B.", "platform": "atcoder", "difficulty": "easy",
           "contest_date": "2024-09-01T00:00:00", "starter_code": "", "metadata": "{}", "private_test_cases": "[]",
           "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}])}
    return {**row, **changes}


def _load(tmp_path, rows: list[dict], **params):
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return Code().load_gold(tmp_path / "questions.jsonl", {"question_field": "question_content"},
                            params={"task": "livecodebench", "start_date": "", "end_date": "", **params})


def test_rows_json_cannot_read_are_set_aside_with_their_reason(tmp_path):
    functional = json.dumps([{"input": DEEP, "output": "1", "testtype": "functional"}])
    loaded = _load(tmp_path, [_row(1), _row(2, public_test_cases=DEEP), _row(3, private_test_cases=DEEP),
                              _row(4, metadata=DEEP), _row(5, metadata='{"func_name": "f"}',
                                                          public_test_cases=functional), _row(6)])
    assert [(reject.line, reject.reason) for reject in loaded.rejects] == [
        (2, "public_test_cases nests too deep to read as JSON"),
        (3, "private_test_cases nests too deep to read as JSON"),
        (4, "metadata nests too deep to read as JSON"),
        (5, "functional case 1 nests too deep to read as JSON")]
    assert loaded.counts() == {"input_rows": 6, "accepted": 2, "rejected": 4}


@pytest.mark.parametrize("window", [{}, {"start_date": "2024-01-01"}, {"end_date": "2025-01-01"}])
def test_a_contest_date_with_a_utc_offset_is_set_aside_not_compared_with_a_naive_day(tmp_path, window):
    loaded = _load(tmp_path, [_row(1, contest_date="2024-09-01T00:00:00+00:00"), _row(2, contest_date="2024-09-01"),
                              _row(3, contest_date="2024-09-01T00:00:00Z"), _row(4, contest_date=1725148800),
                              _row(5, contest_date="01/09/2024")], **window)
    assert [(reject.line, reject.reason.split(": ", 1)[-1]) for reject in loaded.rejects] == [
        (1, "contest_date '2024-09-01T00:00:00+00:00' has a UTC offset; lcb_runner compares days without one"),
        (3, "contest_date '2024-09-01T00:00:00Z' has a UTC offset; lcb_runner compares days without one"),
        (4, "contest_date 1725148800 is not an ISO date"), (5, "contest_date '01/09/2024' is not an ISO date")]
    assert loaded.counts()["accepted"] == 1


@pytest.mark.parametrize("code", ["x = " + "-" * 200_000 + "1", "x = " + "+".join(["1"] * 100_000),
                                  "x = " + "not " * 100_000 + "1"], ids=["minus", "plus", "not"])
def test_a_reply_the_host_cannot_parse_is_run_as_it_is_not_a_failed_b3(code):
    assert stdin_program(code) == code  # run as it stands: the sandbox's interpreter reports it
    joined = {"id": ["q1"], "prediction": [f"```python\n{code}\n```"], "reasoning": [None], "entry_point": [None],
              "inputs": [["1 2\n"]], "outputs": [["3\n"]], "difficulty": ["easy"]}
    normalized, _ = normalize(joined, {})
    assert normalized["program"] == [code] and normalized["how"] == ["fenced block"]


def test_a_row_without_its_problem_or_without_a_case_is_set_aside(tmp_path):
    no_content = {key: value for key, value in _row(1).items() if key != "question_content"}
    loaded = _load(tmp_path, [no_content, _row(2, question_content="  "), _row(3, public_test_cases="[]"), _row(4)])
    assert [(reject.line, reject.reason) for reject in loaded.rejects] == [
        (1, "question_content is not a problem's text"),
        (2, "question_content is not a problem's text"),
        (3, "no test cases (public_test_cases and private_test_cases are empty)")]
    assert loaded.counts() == {"input_rows": 4, "accepted": 1, "rejected": 3}


@pytest.mark.parametrize("printed, expected, same", [
    ("sNaN", "3", False), ("3", "sNaN", False), ("1 sNaN", "1 2", False),  # Decimal's == raised InvalidOperation
    ("sNaN", "sNaN", True), ("NaN", "NaN", True), ("3.0", "3", True)])  # equal as text first, as grade_stdio
def test_a_printed_signalling_nan_is_a_wrong_line_not_a_failed_b4(printed, expected, same):
    assert lcb_same_output(printed, expected) is same


def test_a_humaneval_mbpp_or_io_row_in_a_livecodebench_dataset_is_set_aside_not_a_failed_b4(tmp_path):
    humaneval = {"task_id": "he1", "prompt": "def add(a, b):\n", "entry_point": "add",
                 "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n"}
    mbpp = {"task_id": "mb1", "text": "Write add.", "test_list": ["assert add(1, 2) == 3"]}
    stdin = {"id": "io1", "question": "Read two ints", "inputs": ["1 2\n"], "outputs": ["3\n"]}
    loaded = _load(tmp_path, [_row(1), humaneval, mbpp, stdin])
    reason = 'not a LiveCodeBench row (no public_test_cases): task = "livecodebench" reads only those'
    assert [(reject.line, reject.reason) for reject in loaded.rejects] == [(2, reason), (3, reason), (4, reason)]
    assert loaded.counts() == {"input_rows": 4, "accepted": 1, "rejected": 3}
