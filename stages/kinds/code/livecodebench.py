"""LiveCodeBench's code generation items and programs, as lcb_runner reads and runs them: a `code_generation_lite`
row's cases (benchmarks/code_generation.py), the code taken from a reply (utils/extraction_utils.py extract_code),
the program run (evaluation/testing_util.py grade_stdio / grade_call_based) and its stdout compared line by line."""
from __future__ import annotations

import ast
import json
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from .plain_pickle import NotPlainData, base64_zlib_pickle_text

DIFFICULTIES = ("easy", "medium", "hard")  # benchmarks/code_generation.py Difficulty
PLATFORMS = ("leetcode", "codeforces", "atcoder")  # Platform
TEST_TYPES = ("stdin", "functional")  # TestType
CALL_NAME = "lcb_call"  # the function the program adds and the tests call: the item's method on one Solution()
# testing_util.import_string: every program runs after these lines (stdin programs inside wrapped_function)
IMPORT_STRING = ("from string import *\nfrom re import *\nfrom datetime import *\nfrom collections import *\n"
                 "from heapq import *\nfrom bisect import *\nfrom copy import *\nfrom math import *\n"
                 "from random import *\nfrom statistics import *\nfrom itertools import *\nfrom functools import *\n"
                 "from operator import *\nfrom io import *\nfrom sys import *\nfrom json import *\n"
                 "from builtins import *\nfrom typing import *\nimport string\nimport re\nimport datetime\n"
                 "import collections\nimport heapq\nimport bisect\nimport copy\nimport math\nimport random\n"
                 "import statistics\nimport itertools\nimport functools\nimport operator\nimport io\nimport sys\n"
                 "import json\nsys.setrecursionlimit(50000)\n")
# compute_code_generation_metrics.py sets this in the process every program is forked from
DIGITS_LIMIT = "import sys as _lcb_sys\n_lcb_sys.set_int_max_str_digits(50000)\n"


def lcb_fields(record: dict) -> dict[str, Any]:
    """The code kind's columns for a code_generation_lite row: public then private cases as inputs / outputs, the
    method name (metadata's func_name: a functional item) as entry_point, and difficulty, platform, contest_date and
    starter_code (what the live prompt shows)."""
    difficulty, platform, date = record.get("difficulty"), record.get("platform"), record.get("contest_date")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty {difficulty!r} is none of {', '.join(DIFFICULTIES)}")
    if platform not in PLATFORMS:
        raise ValueError(f"platform {platform!r} is none of {', '.join(PLATFORMS)}")
    contest_date(date)
    content = record.get("question_content")
    if not (isinstance(content, str) and content.strip()):
        raise ValueError("question_content is not a problem's text")
    starter_code = record.get("starter_code", "")
    if not isinstance(starter_code, str):
        raise ValueError("starter_code is not text")
    cases = _cases(record.get("public_test_cases"), "public_test_cases") + _private_cases(
        record.get("private_test_cases"))
    if not cases:
        raise ValueError("no test cases (public_test_cases and private_test_cases are empty)")
    metadata = record.get("metadata", "{}")
    metadata = _json(metadata, "metadata") if isinstance(metadata, str) else metadata
    if not isinstance(metadata, dict):
        raise ValueError("metadata is not a JSON object")
    fn_name = metadata.get("func_name")
    if fn_name is not None and not (isinstance(fn_name, str) and fn_name.isidentifier()):
        raise ValueError(f"metadata's func_name {fn_name!r} is not a name")
    if fn_name is not None:
        for number, (given, expected) in enumerate(cases, start=1):
            for text in (*given.split("\n"), expected):
                _json(text, f"functional case {number}", "JSON lines")
    return {"entry_point": fn_name, "test": None, "inputs": [given for given, _ in cases],
            "outputs": [expected for _, expected in cases], "difficulty": difficulty, "platform": platform,
            "contest_date": date, "starter_code": starter_code}


def contest_date(value: Any) -> datetime:
    """A row's contest_date as lcb_runner reads it (datetime.fromisoformat), without a UTC offset (lcb_runner
    compares it with naive days, which an aware date cannot be)."""
    try:
        when = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ValueError(f"contest_date {value!r} is not an ISO date") from None
    if when.tzinfo is not None:
        raise ValueError(f"contest_date {value!r} has a UTC offset; lcb_runner compares days without one")
    return when


def outside_window(date: str, start_date: str, end_date: str) -> str | None:
    """Why a contest_date falls outside [start_date, end_date] (days, YYYY-MM-DD, each optional), as
    load_code_generation_dataset compares them: start_date <= contest_date <= end_date at 00:00."""
    when = contest_date(date)
    if start_date and when < datetime.strptime(start_date, "%Y-%m-%d"):
        return f"contest_date {date} is before start_date {start_date}"
    if end_date and when > datetime.strptime(end_date, "%Y-%m-%d"):
        return f"contest_date {date} is after end_date {end_date} (00:00)"
    return None


def _cases(text: Any, name: str) -> list[tuple[str, str]]:
    """(input, output) of each case in a JSON list of {input, output, testtype}."""
    if not isinstance(text, str):
        raise ValueError(f"{name} is not text")
    cases = _json(text, name)
    if not isinstance(cases, list):
        raise ValueError(f"{name} is not a list of cases")
    found = []
    for number, case in enumerate(cases, start=1):
        if not (isinstance(case, dict) and isinstance(case.get("input"), str) and isinstance(case.get("output"), str)
                and case.get("testtype") in TEST_TYPES):
            raise ValueError(f"{name} case {number} is not an object with input, output and testtype texts")
        found.append((case["input"], case["output"]))
    return found


def _private_cases(text: Any) -> list[tuple[str, str]]:
    """The private cases: JSON as they are, else base64 → zlib → a pickle of their JSON text (read as plain data)."""
    if isinstance(text, str):
        try:
            json.loads(text)
        except RecursionError:
            raise ValueError("private_test_cases nests too deep to read as JSON") from None
        except json.JSONDecodeError:
            try:
                text = base64_zlib_pickle_text(text)
            except NotPlainData as exc:
                raise ValueError(f"private_test_cases: {exc}") from None
    return _cases(text, "private_test_cases")


def _json(text: str, name: str, what: str = "JSON") -> Any:
    """json.loads of a row's field; a ValueError naming the field when it is not JSON or nests too deep to read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{name} nests too deep to read as JSON") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} is not {what} ({exc.msg})") from None


def extract_lcb_code(reply: str) -> str:
    """extract_code for chat models: the lines between the last two lines holding ```, else "" (no code)."""
    lines = reply.split("\n")
    fences = [index for index, line in enumerate(lines) if "```" in line]
    return "\n".join(lines[fences[-2] + 1:fences[-1]]) if len(fences) >= 2 else ""


def _clean_if_name(code: str) -> str:
    """clean_if_name: a last top-level `if __name__ == '__main__':` replaced by its body."""
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            return ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except Exception:  # noqa: BLE001 — as the reference: code it cannot read is kept as it is
        pass
    return code


def _make_function(code: str) -> str | None:
    """make_function: the imports kept at the top, every other statement the body of wrapped_function (None when the
    code does not parse: the reference then finds no wrapped_function and counts the program failed)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the parser's nesting limits
        return None
    imports = [stmt for stmt in tree.body if isinstance(stmt, (ast.Import, ast.ImportFrom))]
    body = [stmt for stmt in tree.body if not isinstance(stmt, (ast.Import, ast.ImportFrom))]
    function = ast.FunctionDef(name="wrapped_function", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                               kw_defaults=[], defaults=[]), body=body or [ast.Pass()], decorator_list=[], lineno=-1)
    try:
        return IMPORT_STRING + "\n" + ast.unparse(imports) + "\n" + ast.unparse(function)
    except (ValueError, RecursionError):
        return None


def stdin_program(code: str) -> str:
    """grade_stdio's program: the code made wrapped_function and called once per case, SystemExit ending it quietly
    (call_method); code that does not parse is run as it is, so its outcome is a syntax error."""
    wrapped = _make_function(_clean_if_name(code))
    if wrapped is None:
        return code
    return f"{DIGITS_LIMIT}{wrapped}\ntry:\n    wrapped_function()\nexcept SystemExit:\n    pass\n"


def call_program(code: str, fn_name: str) -> str:
    """grade_call_based's program: the import lines, the code, then the method taken once, from Solution() when the
    code holds "class Solution" (compile_code's test), else the module's function; `lcb_call` calls it."""
    owner = "Solution()" if "class Solution" in code else "_lcb_sys.modules[__name__]"
    return (f"{DIGITS_LIMIT}{IMPORT_STRING}\n\n{code}\n\n_lcb_method = getattr({owner}, {fn_name!r})\n\n\n"
            f"def {CALL_NAME}(*args):\n    return _lcb_method(*args)\n")


def call_test(given: str, expected: str) -> str:
    """The tests of one functional case: each input line a JSON argument, the result (a tuple made a list) equal to
    the JSON output."""
    return (f"import json\n_args = [json.loads(line) for line in {given!r}.split('\\n')]\n"
            f"_expected = json.loads({expected!r})\n_got = {CALL_NAME}(*_args)\n"
            "if isinstance(_got, tuple):\n    _got = list(_got)\n"
            "assert _got == _expected, 'returned ' + repr(_got)[:80] + ' (expected ' + repr(_expected)[:80] + ')'\n")


def _stripped_lines(text: str) -> list[str]:
    """get_stripped_lines: the text stripped, split at \\n, each line stripped."""
    return [line.strip() for line in text.strip().split("\n")]


def _decimals(line: str) -> list[Decimal] | None:
    try:
        return [Decimal(part) for part in line.split()]
    except (InvalidOperation, ValueError):
        return None


def lcb_same_output(printed: str, expected: str) -> bool:
    """grade_stdio's rule: as many stripped lines, each equal as text or as a line of decimals."""
    got, wanted = _stripped_lines(printed), _stripped_lines(expected)
    if len(got) != len(wanted):
        return False
    for line, target in zip(got, wanted):
        if line == target:
            continue
        numbers, target_numbers = _decimals(line), _decimals(target)
        try:
            if numbers is None or target_numbers is None or numbers != target_numbers:
                return False
        except InvalidOperation:  # a signalling NaN ("sNaN") compared: not equal, never a failed B4
            return False
    return True
