"""LiveCodeBench's rows read as lcb_runner reads them (benchmarks/code_generation.py), without unpickling anything but
plain data; its date window, its code extraction, grade_stdio's comparison and pass_k_utils' estimator, checked against
reference.json (written by livecodebench/reference_verdicts.py running lcb_runner itself)."""
import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

from stages.kinds.code.kind import Code
from stages.kinds.code.livecodebench import extract_lcb_code, lcb_fields, lcb_same_output
from stages.kinds.code.plain_pickle import NotPlainData, base64_zlib_pickle_text, inflate, plain_pickle
from stages.kinds.code.tasks.livecodebench import lcb_pass_at_k

HERE = Path(__file__).parent / "livecodebench"
REFERENCE = json.loads((HERE / "reference.json").read_text())
ROWS = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines()]


def _load(tmp_path, **params):
    questions = tmp_path / "questions.jsonl"
    questions.write_bytes((HERE / "questions.jsonl").read_bytes())
    code = Code()
    return code.load_gold(questions, {"question_field": "question_content"},
                          params={"task": "livecodebench", "start_date": "", "end_date": "", **params})


def _ids(loaded) -> list:
    return loaded.columns.column("id").to_pylist() if hasattr(loaded.columns, "column") else _ids(loaded)


def test_private_cases_decode_base64_zlib_pickle_to_the_published_cases():
    row = lcb_fields(ROWS[0])
    assert row["inputs"] == ["1 2\n", "10 20\n", "-5 5\n"] and row["outputs"] == ["3\n", "30\n", "0\n"]
    assert (row["entry_point"], row["difficulty"], row["platform"]) == (None, "easy", "atcoder")
    functional = lcb_fields(ROWS[2])
    assert functional["entry_point"] == "addPair" and functional["inputs"][1] == "[5]\n[7]"


def test_a_pickle_naming_a_global_is_refused_before_anything_runs(tmp_path):
    marker = tmp_path / "ran"
    evil = pickle.dumps(0).replace(b"K\x00", b"")  # a protocol header only, then a GLOBAL call to os.system
    for data in (f"cos\nsystem\n(S'touch {marker}'\ntR.".encode(),
                 evil[:2] + f"cos\nsystem\n(S'touch {marker}'\ntR.".encode()):
        with pytest.raises(NotPlainData, match=r"names a global \(os\.system\)"):
            plain_pickle(data)
    with pytest.raises(NotPlainData, match=r"names a global \(builtins\.eval\)"):
        plain_pickle(pickle.dumps(eval))
    assert not marker.exists()
    assert plain_pickle(pickle.dumps({"a": [1, 2.5, None, True, b"x", ("t",)], "s": {1}})) == {
        "a": [1, 2.5, None, True, b"x", ("t",)], "s": {1}}


def test_encodings_that_are_not_a_plain_text_pickle_are_refused_with_the_reason():
    with pytest.raises(NotPlainData, match="not base64"):
        base64_zlib_pickle_text("abc")  # incorrect padding
    with pytest.raises(NotPlainData, match="stops before its end"):
        base64_zlib_pickle_text("@@@")  # no base64 characters at all: no bytes, as b64decode reads it
    with pytest.raises(NotPlainData, match="not zlib"):
        base64_zlib_pickle_text(base64.b64encode(b"plain").decode())
    with pytest.raises(NotPlainData, match="holds a list"):
        base64_zlib_pickle_text(base64.b64encode(zlib.compress(pickle.dumps([1]))).decode())
    with pytest.raises(NotPlainData, match="inflates past 1 MiB"):
        inflate(zlib.compress(b"\0" * (3 << 20)), 1 << 20)


def test_b1_sets_the_malicious_row_aside_with_its_line_and_reason(tmp_path):
    loaded = _load(tmp_path)
    assert _ids(loaded) == ["abc001_a", "cf100_b", "lc300", "abc000_old"]
    [reject] = loaded.rejects
    assert reject.line == 5 and "private_test_cases: the pickle names a global (os.system)" in reject.reason
    assert loaded.counts() == {"input_rows": 5, "accepted": 4, "rejected": 1}


def test_the_date_window_keeps_what_load_code_generation_dataset_keeps(tmp_path):
    loaded = _load(tmp_path, start_date="2024-08-01", end_date="2024-12-31")
    assert _ids(loaded) == REFERENCE["window_2024_08_01_to_2024_12_31"]
    assert sorted(r.reason for r in loaded.rejects)[0] == "contest_date 2023-01-07T00:00:00 is before start_date 2024-08-01"
    end_day = _load(tmp_path, end_date="2024-10-01")  # lc300's contest is at 00:00 of end_date: kept, as LCB does
    assert _ids(end_day) == ["abc001_a", "cf100_b", "lc300", "abc000_old"]
    assert _ids(_load(tmp_path, end_date="2024-09-09")) == ["abc001_a", "abc000_old"]


def test_rows_of_livecodebench_need_the_task(tmp_path):
    loaded = _load(tmp_path, task="")
    assert _ids(loaded) == [] and 'task = "livecodebench"' in loaded.rejects[0].reason


def test_code_is_taken_between_the_last_two_fence_lines_as_extract_code_does():
    assert extract_lcb_code("a\n```python\nx = 1\n```\nb\n```\ny = 2\n```\n") == "y = 2"
    assert extract_lcb_code("text ```python\nprint(3)\n``` more") == "print(3)"
    assert extract_lcb_code("```python\nprint(1)\n") == ""


@pytest.mark.parametrize(("printed", "expected", "same"), [
    ("3\n", "3", True), ("  3  \n\n\n", "3\n", True), (" 3\n", "3", True), ("0.50", "0.5", True),
    ("2.00\n", "2", True), ("1  2", "1 2", True), ("1e1", "10", True), ("3\u3000", "3", True),  # str.strip()
    ("0.500000001", "0.5", False), ("3\n4", "3", False), ("3\n\n4", "3\n4", False), ("abc", "abd", False),
    ("nan", "nan", True), ("NaN 1", "NaN 1", True), ("NaN 1", "nan 1", False),  # Decimal NaN is never equal
])
def test_stdout_compares_by_grade_stdios_rule(printed, expected, same):
    assert lcb_same_output(printed, expected) is same


def test_pass_at_k_equals_pass_k_utils_estimate_pass_at_k():
    for key, value in REFERENCE["estimate_pass_at_k"].items():
        n, c, k = map(int, key.split(","))
        assert lcb_pass_at_k(n, c, k) == pytest.approx(value, abs=1e-12), key


def test_the_task_sets_lcb_runners_timeout_which_dataset_toml_and_luigi_cfg_still_override(tmp_path):
    from stages.io.dataset_config import DatasetConfig
    from stages.kinds.dataset_kind import kind_params

    code = Code()
    assert kind_params(code, DatasetConfig(kind="code"), tmp_path, {})["timeout_seconds"] == 3.0
    assert kind_params(code, DatasetConfig(kind="code", task="livecodebench"), tmp_path, {})["timeout_seconds"] == 6.0
    assert kind_params(code, DatasetConfig(kind="code", params={"task": "livecodebench"}), tmp_path,
                       {})["timeout_seconds"] == 6.0
    assert kind_params(code, DatasetConfig(kind="code", task="livecodebench"), tmp_path,
                       {"timeout_seconds": "9"})["timeout_seconds"] == 9.0
    assert kind_params(code, DatasetConfig(kind="code", task="livecodebench", params={"timeout_seconds": 2}),
                       tmp_path, {"timeout_seconds": "9"})["timeout_seconds"] == 2.0
    with pytest.raises(Exception, match="start_date = '2024/08/01' is not a day"):
        kind_params(code, DatasetConfig(kind="code", task="livecodebench", params={"start_date": "2024/08/01"}),
                    tmp_path, {})
    with pytest.raises(Exception, match="task = 'lcb'"):
        kind_params(code, DatasetConfig(kind="code", task="lcb"), tmp_path, {})
