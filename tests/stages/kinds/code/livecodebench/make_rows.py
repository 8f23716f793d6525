"""Writes questions.jsonl (LiveCodeBench code_generation_lite rows, the private cases base64 / zlib / pickle-encoded as
published, one with a pickle that names os.system) and predictions.jsonl (right and wrong replies, several per
problem). Run: python3 make_rows.py (from this folder)."""
import base64
import json
import pickle
import zlib
from pathlib import Path

HERE = Path(__file__).parent


def encoded(cases: list[dict]) -> str:
    """As the dataset publishes private_test_cases: base64(zlib(pickle(json text)))."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(cases)))).decode()


def stdin_cases(pairs):
    return [{"input": given, "output": output, "testtype": "stdin"} for given, output in pairs]


def functional_cases(pairs):
    return [{"input": given, "output": output, "testtype": "functional"} for given, output in pairs]


def row(question_id, title, platform, date, difficulty, public, private, starter="", func_name=None, private_text=None):
    return {"question_title": title, "question_content": f"{title}: see the cases.", "platform": platform,
            "question_id": question_id, "contest_id": "c1", "contest_date": date, "starter_code": starter,
            "difficulty": difficulty, "public_test_cases": json.dumps(public),
            "private_test_cases": private_text if private_text is not None else encoded(private),
            "metadata": json.dumps({"func_name": func_name} if func_name else {})}


GLOBAL_PICKLE = base64.b64encode(zlib.compress(b"cos\nsystem\n(S'touch /tmp/lcb-pwned'\ntR.")).decode()
ROWS = [
    row("abc001_a", "Add", "atcoder", "2024-08-03T00:00:00", "easy", stdin_cases([("1 2\n", "3\n")]),
        stdin_cases([("10 20\n", "30\n"), ("-5 5\n", "0\n")])),
    row("cf100_b", "Half", "codeforces", "2024-09-10T00:00:00", "medium", stdin_cases([("1\n", "0.5\n")]),
        stdin_cases([("3\n", "1.5\n"), ("4\n", "2\n")])),
    row("lc300", "Add and pair", "leetcode", "2024-10-01T00:00:00", "hard",
        functional_cases([("1\n2", "[3, -1]")]), functional_cases([("[5]\n[7]", "[[5], [7]]"), ("0\n0", "[0, 0]")]),
        starter="class Solution:\n    def addPair(self, a, b):\n        ", func_name="addPair"),
    row("abc000_old", "Old", "atcoder", "2023-01-07T00:00:00", "easy", stdin_cases([("1\n", "1\n")]), []),
    row("abc002_evil", "Evil", "atcoder", "2024-08-10T00:00:00", "easy", stdin_cases([("1\n", "1\n")]), [],
        private_text=GLOBAL_PICKLE),
]


def block(code: str, think: str = "<think>Let me think.</think>\n") -> str:
    return f"{think}Here is my solution.\n```python\n{code}```\n"


REPLIES = {
    "abc001_a": [
        block("a, b = map(int, input().split())\nprint(a + b)\n"),  # right
        block("import sys\ndef main():\n    a, b = map(int, sys.stdin.read().split())\n    print(f'  {a + b}  ')\n"
              "    sys.exit(1)\nif __name__ == '__main__':\n    main()\n"),  # right by LCB: stripped, SystemExit
        block("a, b = map(int, input().split())\nprint(a - b)\n"),  # wrong
        block("while True:\n    pass\n"),  # timed out
        "<think>I will print the sum ```python\nprint(3)\n``` and then", ],  # reasoning never closes: no answer
    "cf100_b": [
        block("n = int(input())\nprint('%.2f' % (n / 2))\n"),  # right by decimals: 0.50 is 0.5, 2.00 is 2
        block("n = int(input())\nprint(n / 2 + 1e-9)\n"),  # wrong: 0.500000001
        block("n = int(input())\nprint(n // 2)\n"),  # wrong
    ],
    "lc300": [
        block("class Solution:\n    def addPair(self, a, b):\n        if isinstance(a, list):\n"
              "            return [a, b]\n        return [a + b, a - b]\n"),  # right
        block("from typing import List\nclass Solution:\n    def addPair(self, a: Any, b: Any) -> List:\n"
              "        return (a, b) if isinstance(a, list) else (a + b, a - b)\n"),  # right: a tuple made a list
        block("class Solution:\n    def addPair(self, a, b):\n        return [a + b, a - b + 1]\n"),  # wrong
        block("class Solution:\n    def addPair(self, a, b):\n        raise ValueError('no')\n"),  # runtime error
        block("class Solution:\n    def other(self, a, b):\n        return [a + b, a - b]\n"),  # no such method
    ],
}


def main() -> None:
    with open(HERE / "questions.jsonl", "w") as out:
        for record in ROWS:
            out.write(json.dumps(record) + "\n")
    with open(HERE / "predictions.jsonl", "w") as out:
        for question_id, replies in REPLIES.items():
            for sample, reply in enumerate(replies):
                out.write(json.dumps({"id": question_id, "sample": sample, "prediction": reply}) + "\n")


if __name__ == "__main__":
    main()
