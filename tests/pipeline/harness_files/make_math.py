"""Writes the lm-eval math sample files the import tests read, by running lm-eval's own math tasks offline (not part
of the suite).

    python -m venv /tmp/hv && /tmp/hv/bin/pip install 'lm-eval[api]==0.4.13' torch==2.13.0 math-verify sympy \
        antlr4-python3-runtime==4.11
    /tmp/hv/bin/python tests/pipeline/harness_files/make_math.py

Each task is lm-eval's own YAML (`include:`), pointed at a local file with no few-shot examples: minerva_math500 and
hendrycks_math500 on 40 MATH-500 problems, leaderboard_math_algebra_hard on MATH-500's algebra problems written as
MATH-lighteval's rows (it keeps Level 5), gsm8k and gsm8k_cot on AMC 2023 (its answers written as GSM8K's `#### N`),
aime on AIME 2025 and aime24 on AIME 2024. lm-eval asks a server on 127.0.0.1 that answers every problem in one of six
styles in turn: reasoning closed then a boxed answer, Minerva's "Final Answer: … I hope it is correct.", the value in
another form (`27.0`, `a/b`), reasoning that never closes, another problem's answer, GSM8K's `#### N`. Then
aime24_repeats: aime24 with `repeats: 4`, the server taking the next style each time a problem is asked again
(`--repeats` runs only this one)."""
from __future__ import annotations

import json
import re
import sys
import tempfile
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

from make import ask_lm_eval, serve_replies

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[2].parent / "shared" / "data" / "real" / "math"
OUT = HERE / "lm_eval_math"
MATH_ROWS = 40


def read_lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (REAL / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def datasets() -> dict[str, tuple[str, list[dict]]]:
    """task → (the lm-eval YAML it includes, its rows in the fields that task reads)."""
    math500 = read_lines("math500.jsonl")
    algebra = [{"problem": row["problem"], "solution": row["solution"], "level": f"Level {row['level']}",
                "type": row["subject"]} for row in math500 if row["subject"] == "Algebra"]
    amc = [{"question": row["question"], "answer": f"#### {row['answer']}"} for row in read_lines("amc23.jsonl")]
    aime25 = [{"ID": row["id"], "Question": row["problem"], "Answer": row["answer"]}
              for row in read_lines("aime25.jsonl")]
    aime24 = [{"ID": row["id"], "Problem": row["problem"], "Solution": row["reference_solution"],
               "Answer": row["expected_answer"]} for row in read_lines("aime24.jsonl")]
    return {"minerva_math500": ("minerva_math/minerva_math500.yaml", math500[:MATH_ROWS]),
            "hendrycks_math500": ("hendrycks_math/hendrycks_math500.yaml", math500[:MATH_ROWS]),
            "leaderboard_math_algebra_hard": ("leaderboard/math/math_algebra.yaml", algebra),
            "gsm8k": ("gsm8k/gsm8k.yaml", amc), "gsm8k_cot": ("gsm8k/gsm8k-cot.yaml", amc),
            "aime": ("aime/aime.yaml", aime25), "aime24": ("aime/aime24.yaml", aime24)}


def problems(rows: dict[str, tuple[str, list[dict]]]) -> dict[str, tuple[str, str, str]]:
    """Each problem's text → (its gold answer, its worked solution or a line, another problem's answer)."""
    found: dict[str, tuple[str, str]] = {}
    for _, task_rows in rows.values():
        for row in task_rows:
            text = row.get("problem") or row.get("question") or row.get("Question") or row.get("Problem")
            gold = str(row.get("answer") or row.get("Answer") or "")
            if not gold:
                gold = last_boxed(row["solution"])
            gold = gold.split("####")[-1].strip()
            found[text] = (gold, row.get("solution") or row.get("Solution") or "")
    texts = list(found)
    return {text: (*found[text], found[texts[(i + 7) % len(texts)]][0]) for i, text in enumerate(texts)}


def last_boxed(solution: str) -> str:
    start = solution.rindex("\\boxed{") + len("\\boxed{")
    depth, end = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(solution[end], 0)
        end += 1
    return solution[start:end - 1]


def other_form(gold: str) -> str:
    """The gold's value written another way: an integer as a decimal, \\frac{a}{b} as a/b."""
    if re.fullmatch(r"-?\d+", gold):
        return f"{gold}.0"
    fraction = re.fullmatch(r"\\d?frac\{?(\d+)\}?\{?(\d+)\}?", gold)
    return f"{fraction[1]}/{fraction[2]}" if fraction else gold


def reply(gold: str, solution: str, wrong: str, style: int) -> str:
    working = solution or f"Working through the problem step by step gives {gold}."
    return [
        f"<think>\nLet me work it out.\n{working}\n</think>\n\nThe final answer is $\\boxed{{{gold}}}$.",
        f"{working}\nFinal Answer: The final answer is ${gold}$. I hope it is correct.",
        f"Computing carefully, the value is $\\boxed{{{other_form(gold)}}}$.",
        f"<think>\nFirst try: the answer might be \\boxed{{{gold}}}, but let me check that again",
        f"Final Answer: The final answer is ${wrong}$. I hope it is correct.",
        f"So the total is {gold}.\n#### {gold}",
    ][style % 6]


def serve(known: dict[str, tuple[str, str, str]], vary: bool = False) -> ThreadingHTTPServer:
    """An OpenAI-compatible chat server on 127.0.0.1 answering each known problem, in turn through the styles (with
    `vary`, the next style each time the same problem is asked again)."""
    order = {text: index for index, text in enumerate(known)}
    asked: dict[str, int] = {}
    lock = threading.Lock()

    def answer(prompt: str) -> str:
        text = max((text for text in known if text in prompt), key=len)
        with lock:
            again = asked[text] = asked.get(text, -1) + 1
        return reply(*known[text], order[text] + (again if vary else 0))

    return serve_replies(lambda prompt, model: answer(prompt))


def run_lm_eval(rows: dict[str, tuple[str, list[dict]]], extra: str = "", vary: bool = False) -> None:
    """lm-eval's tasks on their local rows, asking a fresh server (`extra`: more YAML lines for every task)."""
    import lm_eval

    builtin = Path(lm_eval.__file__).parent / "tasks"
    server = serve(problems(rows), vary)
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for task, (included, task_rows) in rows.items():
            data = work / f"{task}.jsonl"
            data.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in task_rows))
            (work / f"{task}.yaml").write_text(
                f"include: {builtin / included}\ntask: {task}\ndataset_path: json\ndataset_name: null\n"
                f"dataset_kwargs:\n  data_files:\n    test: {data}\ntest_split: test\ntraining_split: null\n"
                f"fewshot_split: null\nnum_fewshot: 0\n{extra}")
        ask_lm_eval(work, OUT, list(rows), "reasoner", url)
    server.shutdown()


def main() -> None:
    rows = datasets()
    if "--repeats" not in sys.argv:
        run_lm_eval(rows)
    run_lm_eval({"aime24_repeats": rows["aime24"]}, "repeats: 4\n", vary=True)


if __name__ == "__main__":
    main()
