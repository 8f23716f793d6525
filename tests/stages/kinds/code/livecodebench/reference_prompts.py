"""Writes prompt_rows.jsonl (code_generation_lite rows whose text tries the prompt: braces, backticks, blank lines and
spaces kept at both ends, non-ASCII, a starter code ending in spaces) and reference_prompts.json: for those rows and
questions.jsonl's, the chat messages lcb_runner's format_prompt_generation builds for LMStyle.OpenAIChat. Run with
LiveCodeBench's source on the path (commit 28fef95), in a venv with numpy:
  cd <LiveCodeBench checkout> && PYTHONPATH=. /work/venvs/lcb/bin/python <this folder>/reference_prompts.py
questions.jsonl's row whose pickle names os.system is never given to lcb_runner (its loader would run it)."""
import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).parent
sys.modules["datasets"] = types.ModuleType("datasets")  # lcb_runner imports load_dataset; nothing here loads one
sys.modules["datasets"].load_dataset = None
sys.modules["anthropic"] = types.ModuleType("anthropic")  # prompts/__init__ imports it for Claude's styles, unused here
sys.modules["anthropic"].HUMAN_PROMPT, sys.modules["anthropic"].AI_PROMPT = "\n\nHuman:", "\n\nAssistant:"

from lcb_runner.benchmarks.code_generation import CodeGenerationProblem  # noqa: E402
from lcb_runner.lm_styles import LMStyle  # noqa: E402
from lcb_runner.prompts.code_generation import format_prompt_generation  # noqa: E402


def row(question_id: str, content: str, starter: str, func_name: str | None, case: tuple[str, str]) -> dict:
    testtype = "functional" if func_name else "stdin"
    return {"question_title": question_id, "question_content": content, "platform": "atcoder" if not func_name
            else "leetcode", "question_id": question_id, "contest_id": "c9", "contest_date": "2024-09-01T00:00:00",
            "starter_code": starter, "difficulty": "medium",
            "public_test_cases": json.dumps([{"input": case[0], "output": case[1], "testtype": testtype}]),
            "private_test_cases": "[]", "metadata": json.dumps({"func_name": func_name} if func_name else {})}


PROMPT_ROWS = [
    row("abc901_a", "  Print {N} doubled — «twice».\n\n```\nN\n```\n\nConstraints: 1 ≤ N ≤ 10^9 {0} %s\n\n",
        "", None, ("4\n", "8\n")),
    row("lc901", "\nGiven nums, return their sum.\nExample: `nums = [1,2]` → 3  \n",
        "class Solution:\n    def total(self, nums: List[int]) -> int:\n        ", "total", ("[1, 2]", "3")),
]


def main() -> None:
    (HERE / "prompt_rows.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in PROMPT_ROWS),
                                            encoding="utf-8")
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["question_id"] != "abc002_evil"] + PROMPT_ROWS
    prompts = {r["question_id"]: format_prompt_generation(CodeGenerationProblem(**r), LMStyle.OpenAIChat)
               for r in rows}
    (HERE / "reference_prompts.json").write_text(json.dumps(prompts, indent=1, sort_keys=True, ensure_ascii=False)
                                                 + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
