"""Runs MMLU-Pro's own extract_answer (evaluate_from_local.py, from a checkout given as argv[1]) over written replies."""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

REPLIES = [
    "Let's think step by step. The answer is (C).", "the answer is D", "The Answer is (E)", "answer is (a)",
    "Answer: F\nmore text", "First answer: A then\nfinal answer: B", "answer:\nG", "answer: G",
    "I pick H. Or maybe I", "no letter here", "A.\n\nB", "it is J's turn", "the answer is (K) so Answer: C",
    "Option B is right\nanswer is (A) and answer is (B)", "Answer:C", "ANSWER: D", "x answer is  (B)",
]
FIXTURE = Path(__file__).parent / "fixtures" / "mmlu_pro_reference_letters.json"


def reference_functions(script: Path) -> dict:
    """The script's three extract functions, defined alone (the script imports torch and vllm at the top)."""
    tree = ast.parse(script.read_text())
    names = {"extract_answer", "extract_again", "extract_final"}
    module = ast.Module([node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names], [])
    space: dict = {"re": re, "print": lambda *args: None}
    exec(compile(module, str(script), "exec"), space)
    return space


if __name__ == "__main__":
    functions = reference_functions(Path(sys.argv[1]) / "evaluate_from_local.py")
    FIXTURE.write_text(json.dumps([[reply, functions["extract_answer"](reply)] for reply in REPLIES], indent=1) + "\n")
