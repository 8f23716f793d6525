"""LiveCodeBench asked live: the code kind's prompt and system message for its rows, byte-equal to the messages
lcb_runner's format_prompt_generation builds for a chat model (reference_prompts.json, written by
livecodebench/reference_prompts.py running lcb_runner itself)."""
import json
from pathlib import Path

import pytest

from stages.core.records import as_columns
from stages.kinds.code.kind import Code

HERE = Path(__file__).parent / "livecodebench"
REFERENCE = json.loads((HERE / "reference_prompts.json").read_text(encoding="utf-8"))


def _asked(tmp_path, rows: list[dict]) -> tuple[list[dict], str | None]:
    """The [generate] cases and the system prompt the code kind gives rows loaded by B1 (task = "livecodebench")."""
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code = Code()
    columns = as_columns(code.load_gold(questions, {"question_field": "question_content"},
                                        params={"task": "livecodebench", "start_date": "", "end_date": ""}).columns)
    cases = [{"id": qid, "conversation": qid, "prompt": code.generation_prompt(question, None)}
             for qid, question in zip(columns["id"], columns["question"])]
    return code.generation_cases(cases, columns), code.system_prompt(columns)


def _rows() -> list[dict]:
    rows = [json.loads(line) for name in ("questions.jsonl", "prompt_rows.jsonl")
            for line in (HERE / name).read_text(encoding="utf-8").splitlines()]
    return [row for row in rows if row["question_id"] in REFERENCE]


def test_each_row_is_asked_lcb_runners_messages_byte_for_byte(tmp_path):
    cases, system = _asked(tmp_path, _rows())
    assert len(cases) == len(REFERENCE) == 6
    for case in cases:
        assert [{"role": "system", "content": system}, {"role": "user", "content": case["prompt"]}] == \
            REFERENCE[case["id"]], case["id"]


@pytest.mark.parametrize("question_id, shown", [("lc901", "### Format: You will use the following starter code"),
                                                ("abc901_a", "### Format: Read the inputs from stdin")])
def test_starter_code_or_stdins_format_follows_the_question(tmp_path, question_id, shown):
    row = next(row for row in _rows() if row["question_id"] == question_id)
    cases, _ = _asked(tmp_path, [row])
    assert cases[0]["prompt"].startswith(f"### Question:\n{row['question_content']}\n\n{shown}")


def test_other_code_items_keep_the_kinds_prompt_and_no_system_message(tmp_path):
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"id": "h1", "question": "def f():\n", "entry_point": "f",
                                     "test": "def check(f):\n    assert f() == 1\n", "answer": "x"}) + "\n")
    code = Code()
    columns = as_columns(code.load_gold(questions, {}, params={"task": "", "start_date": "", "end_date": ""}).columns)
    case = {"id": "h1", "conversation": "h1", "prompt": code.generation_prompt("def f():\n", None)}
    assert code.generation_cases([case], columns) == [case] and code.system_prompt(columns) is None


def test_a_starter_code_that_is_not_text_sets_the_row_aside(tmp_path):
    row = {**_rows()[0], "starter_code": ["class Solution:"]}
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps(row) + "\n")
    loaded = Code().load_gold(questions, {"question_field": "question_content"},
                              params={"task": "livecodebench", "start_date": "", "end_date": ""})
    assert [(reject.line, reject.reason) for reject in loaded.rejects] == [(1, "starter_code is not text")]
