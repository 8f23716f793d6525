"""Runs MMLU-Pro's own extract_answer and save_res (evaluate_from_local.py, from a checkout given as argv[1]) over
written replies and over the five published files in ../shared/data/real/mmlu_pro (argv[2]), as its main() does,
and its generate_cot_prompt over written validation rows and questions (fixtures/mmlu_pro_live/)."""
from __future__ import annotations

import ast
import json
import os
import random
import re
import sys
import tempfile
import zipfile
from pathlib import Path

REPLIES = [
    "Let's think step by step. The answer is (C).", "the answer is D", "The Answer is (E)", "answer is (a)",
    "Answer: F\nmore text", "First answer: A then\nfinal answer: B", "answer:\nG", "answer: G",
    "I pick H. Or maybe I", "no letter here", "A.\n\nB", "it is J's turn", "the answer is (K) so Answer: C",
    "Option B is right\nanswer is (A) and answer is (B)", "Answer:C", "ANSWER: D", "x answer is  (B)",
    "Answer: Answer: B", "answer: C and answer:   \n\n D\nanswer: E", "no\nline two Answer: x answer: F\nAnswer: G",
    "éA and Aé and _B_ and (C)", "A\nB\nthe end", "letters A, B.\nnone after", "Ω Bβ ΓC D",
]
FIXTURE = Path(__file__).parent / "fixtures" / "mmlu_pro_reference_letters.json"
PUBLISHED = Path(__file__).parent / "fixtures" / "mmlu_pro_published_files.json"
LIVE = Path(__file__).parent / "fixtures" / "mmlu_pro_live"
COT = "A: Let's think step by step. {} The answer is ({})."
VALIDATION = [  # math has six (the sixth unused), law two (fewer than five: all of them), one option "N/A"
    *({"question_id": n, "question": f"What is {n} + {n}?", "options": [str(n), str(2 * n), "N/A", str(3 * n)],
       "answer": "B", "answer_index": 1, "cot_content": COT.format(f"{n} + {n} = {2 * n}.", "B"),
       "category": "math", "src": "written"} for n in range(1, 7)),
    {"question_id": 10, "question": "Is a verbal contract binding?", "options": ["Never", "Often", "Always"],
     "answer": "B", "answer_index": 1, "cot_content": COT.format("Many are, some need writing.", "B"),
     "category": "law", "src": "written"},
    {"question_id": 11, "question": "Who decides a jury trial's facts?", "options": ["The judge", "The jury"],
     "answer": "B", "answer_index": 1, "cot_content": COT.format("The jury finds facts.", "B"),
     "category": "law", "src": "written"},
]
QUESTIONS = [
    {"id": "m1", "question": "What is 7 × 6?\nShow it.", "options": [str(n) for n in range(40, 50)], "answer": "C",
     "category": "math"},
    {"id": "l1", "question": "May a minor sign a lease?", "options": ["Yes", "No", "Only with a guardian"],
     "answer": "C", "category": "law"},
]


def reference_functions(script: Path) -> dict:
    """The script's extract functions, save_res and prompt functions, defined alone (the script imports torch and
    vllm at the top)."""
    tree = ast.parse(script.read_text())
    names = {"extract_answer", "extract_again", "extract_final", "save_res", "preprocess", "select_by_category",
             "format_cot_example", "generate_cot_prompt"}
    module = ast.Module([node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names
                         or isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "choices"], [])
    space: dict = {"re": re, "json": json, "random": random, "print": lambda *args: None}
    exec(compile(module, str(script), "exec"), space)
    return space


def scored_file(functions: dict, path: Path, scratch: Path) -> dict:
    """One published file as main() scores it: pred = extract_answer(reply), then per category in sorted order
    eval_cot's two save_res calls from one random.seed(12345) stream; every letter read ('-' for none)."""
    with zipfile.ZipFile(path) as archive:
        items = json.loads(archive.read(archive.namelist()[0]))
    letters = [functions["extract_answer"](item["generated_text"]) for item in items]
    random.seed(12345)
    per_category = {}
    for subject in sorted({item["category"] for item in items}):
        res = [{**item, "pred": letter} for item, letter in zip(items, letters) if item["category"] == subject]
        functions["save_res"](res, str(scratch))
        per_category[subject] = functions["save_res"](res, str(scratch))[1:]
    corr, wrong = (sum(counts[i] for counts in per_category.values()) for i in (0, 1))
    return {"letters": "".join(letter or "-" for letter in letters), "per_category": per_category,
            "accuracy": corr / (corr + wrong + 0.000001)}


def live_prompts(functions: dict, checkout: Path) -> dict:
    """Each written question's prompt as main() builds it: the validation rows preprocessed, the category's five."""
    validation = functions["preprocess"]([dict(row) for row in VALIDATION])
    here = Path.cwd()
    os.chdir(checkout)  # generate_cot_prompt opens cot_prompt_lib/initial_prompt.txt from the working folder
    try:
        return {question["id"]: functions["generate_cot_prompt"](
            functions["select_by_category"](validation, question["category"]), question, 5) for question in QUESTIONS}
    finally:
        os.chdir(here)


if __name__ == "__main__":
    functions = reference_functions(Path(sys.argv[1]) / "evaluate_from_local.py")
    FIXTURE.write_text(json.dumps([[reply, functions["extract_answer"](reply)] for reply in REPLIES], indent=1) + "\n")
    LIVE.mkdir(exist_ok=True)
    (LIVE / "validation.jsonl").write_text("".join(json.dumps(row) + "\n" for row in VALIDATION))
    (LIVE / "questions.jsonl").write_text("".join(json.dumps(row) + "\n" for row in QUESTIONS))
    (LIVE / "prompts.json").write_text(json.dumps(live_prompts(functions, Path(sys.argv[1])), indent=1) + "\n")
    with tempfile.TemporaryDirectory() as scratch:
        published = {path.name: scored_file(functions, path, Path(scratch) / "res.json")
                     for path in sorted(Path(sys.argv[2]).glob("model_outputs_*.zip"))}
    PUBLISHED.write_text(json.dumps(published, indent=1) + "\n")
