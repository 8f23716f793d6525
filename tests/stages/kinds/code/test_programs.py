"""The program a reply gives and the tests an item holds: HumanEval's completion after its prompt, a chat reply's
last fenced Python block, MBPP's asserts after its setup, stdin / stdout outputs compared line by line."""
import pytest

from stages.kinds.code.kind import _code_fields
from stages.kinds.code.programs import build_program, extract_code, same_output
from stages.kinds.detection import detect_kind

PROMPT = "from typing import List\n\n\ndef total(xs: List[int]) -> int:\n    \"\"\"Sum.\"\"\"\n"


def test_a_completion_goes_after_the_prompt():
    assert build_program("    return sum(xs)\n", PROMPT, "total") == (PROMPT + "    return sum(xs)\n",
                                                                         "whole reply after the prompt")


def test_a_chat_reply_gives_its_last_python_block_with_the_prompts_imports_when_it_defines_the_function():
    reply = ("Here is a first try:\n```python\ndef total(xs):\n    return 0\n```\nBetter:\n```python\n"
             "def total(xs: List[int]) -> int:\n    return sum(xs)\n```\nAnd a shell line:\n```bash\nls\n```\n")
    program, how = build_program(reply, PROMPT, "total")
    assert program == "from typing import List\ndef total(xs: List[int]) -> int:\n    return sum(xs)\n"
    assert how == "fenced block defining total"


def test_a_block_without_the_function_goes_after_the_prompt_and_mbpp_code_stands_alone():
    assert build_program("```\n    return sum(xs)\n```", PROMPT, "total")[0] == PROMPT + "    return sum(xs)\n"
    assert build_program("```py\ndef f(a):\n    return a\n```", "Write f.", None) == ("def f(a):\n    return a\n",
                                                                                      "fenced block")
    assert extract_code("print(1)") == ("print(1)", "whole reply")


def test_item_tests_from_humaneval_mbpp_and_stdin_problems():
    humaneval = _code_fields({"entry_point": "total", "test": "def check(candidate):\n    assert candidate([1]) == 1"},
                             PROMPT)
    assert humaneval["test"] == "def check(candidate):\n    assert candidate([1]) == 1\ncheck(total)\n"
    mbpp = _code_fields({"text": "Write f.", "test_list": ["assert f(1) == 1", "assert f(2) == 2"],
                         "test_setup_code": "import math"}, "Write f.")
    assert mbpp["test"] == "import math\nassert f(1) == 1\nassert f(2) == 2\n" and mbpp["entry_point"] is None
    stdio = _code_fields({"inputs": ["1 2\n"], "outputs": ["3\n"]}, "Add two numbers.")
    assert (stdio["test"], stdio["inputs"], stdio["outputs"]) == (None, ["1 2\n"], ["3\n"])
    with pytest.raises(ValueError, match="same length"):
        _code_fields({"inputs": ["1\n", "2\n"], "outputs": ["1\n"]}, None)


def test_outputs_compare_line_by_line_ignoring_trailing_spaces():
    assert same_output("3 \n4\n\n", "3\n4")
    assert same_output("3\r\n4\r\n", "3\n4\n")
    assert not same_output("3\n5\n", "3\n4\n")
    assert not same_output(" 3\n", "3\n")


def test_questions_with_entry_point_and_test_are_told_as_code(tmp_path, real_data):
    (tmp_path / "questions.jsonl").write_bytes((real_data / "code" / "example_problem.jsonl").read_bytes())
    assert detect_kind("anything", tmp_path / "questions.jsonl") == "code"


@pytest.mark.parametrize(("reply", "language"), [
    ("Here:\n```javascript\nfunction f() {}\n```\n", "javascript"),
    ("```js\nconsole.log(1)\n```", "javascript"),
    ("```c++\nint main() {}\n```", "cpp"),
    ("```python\ndef f(): pass\n```\n```js\nf()\n```", None),  # a python block is there: taken as before
    ("```\ndef f(): pass\n```", None),  # unlabelled
    ("def f(): pass", None),  # no fence
    ("```rust\nfn main() {}\n```", None),  # a language evalpipe does not run: as before
])
def test_a_reply_fenced_only_in_another_language_names_it(reply, language):
    from stages.kinds.code.programs import other_language
    from stages.sandbox.languages import LANGUAGES, get_language

    labels = {name: found.fences for name, found in LANGUAGES.items()}
    assert other_language(reply, get_language("python").fences, labels) == language


def test_such_a_row_has_no_program_and_says_why():
    from stages.kinds import get_kind

    kind = get_kind("code")
    joined = {"id": ["a"], "prediction": ["```javascript\nfunction f() {}\n```"], "question": ["def f():\n"],
              "entry_point": ["f"], "test": ["def check(f): pass"], "inputs": [None], "outputs": [None]}
    normalized, stats = kind.normalize(joined, {**kind.defaults, "language": "python"})
    assert normalized["program"] == [None]
    assert normalized["how"] == ["the reply's code is javascript; this dataset runs python"]


def test_fences_are_found_in_one_pass_over_a_reply_of_backticks():
    import time

    started = time.monotonic()
    assert extract_code("```" * 50_000) == ("```" * 50_000, "whole reply")  # 150 KB: 27 s with the old regex
    assert extract_code("```\n" * 50_000)[1] == "fenced block"
    assert time.monotonic() - started < 2.0
    assert extract_code("````py x\nprint(1)\n````") == ("print(1)\n", "fenced block")


@pytest.mark.parametrize("printed", ["3\u3000", "3\x1c\x1d\x1e\x1f\x85\x0b\x0c", "3\n\xa0\n\u2028\n", "3\u2028", "3\xa0"])
def test_unicode_spaces_and_separators_are_characters_not_whitespace(printed):
    assert not same_output(printed, "3")


def test_ascii_whitespace_at_a_lines_end_is_ignored_as_a_judge_reading_bytes_does():
    assert same_output("3\r", "3") and same_output("3\t\x0b\x0c \n\n", "3\n")
