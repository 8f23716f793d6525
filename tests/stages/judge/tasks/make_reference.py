"""Makes reference.json: the figures openai/simple-evals' SimpleQAEval and HLE's dump_metrics / calib_err give on
grader replies and judgements written for the purpose, run from the reference scripts themselves (never copied in).

    /work/venvs/simple-evals/bin/python tests/stages/judge/tasks/make_reference.py SIMPLE_EVALS_PARENT HLE_JUDGE_FILE

SIMPLE_EVALS_PARENT holds the simple-evals repository as a package folder named simple_evals (commit ee3b0318,
`git archive` of openai/simple-evals); HLE_JUDGE_FILE is hle_eval/run_judge_results.py of centerforaisafety/hle at
87c92ea (its last upstream commit, kept in the kflu/hle fork). The venv needs numpy, pandas, jinja2, requests, tqdm."""
from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

HERE = Path(__file__).parent


def simpleqa_cases() -> list[list[str]]:
    """Grader replies: plain letters, the script's quirks (the C of "CORRECT", no letter at all), none attempted, and
    a seeded mix."""
    rng = random.Random(80)
    mixed = [rng.choice(["A", "B", "C", "CORRECT", "INCORRECT", "NOT_ATTEMPTED", "b", "", "Grade: B", "A: CORRECT",
                         "I'd say C", "the answer is correct"]) for _ in range(300)]
    return [["A", "B", "C", "A", "A"],
            ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "The answer is B", "", "b", "A: CORRECT", "I'd say C", "Grade: B"],
            ["C", "C", "NOT_ATTEMPTED"], ["B", "B"], mixed]


def run_simpleqa(replies: list[str]) -> dict:
    """SimpleQAEval.__call__ on one example per reply, its grader answering that reply; its aggregate_metrics and
    output_d read from the call's locals as it returns, and each example's grade from its results."""
    from simple_evals.simpleqa_eval import SimpleQAEval
    from simple_evals.types import SamplerResponse

    class Scripted:
        def __init__(self, answer):
            self.answer = answer

        def _pack_message(self, content, role):
            return {"role": role, "content": content}

        def __call__(self, messages):
            return SamplerResponse(self.answer(messages[-1]["content"]), messages, {})

    evaluation = SimpleQAEval.__new__(SimpleQAEval)  # __init__ downloads the test set: these examples instead
    evaluation.examples = [{"problem": f"question {i}", "answer": f"gold {i}", "metadata": "{}"}
                           for i in range(len(replies))]
    evaluation.grader_model = Scripted(lambda prompt: replies[int(prompt.split("Question: question ")[1].split("\n")[0])])
    captured: dict = {}

    def keep_locals(frame, event, arg):
        if event == "return" and frame.f_code is SimpleQAEval.__call__.__code__:
            captured.update(frame.f_locals)

    sys.setprofile(keep_locals)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        evaluation(Scripted(lambda prompt: "some answer"))
    sys.setprofile(None)
    grades = ["A" if r.metrics["is_correct"] else "B" if r.metrics["is_incorrect"] else "C"
              for r in captured["results"]]
    return {"replies": replies, "grades": grades, "aggregate_metrics": captured["aggregate_metrics"],
            **captured["output_d"]}


def hle_functions(path: Path) -> SimpleNamespace:
    """calib_err and dump_metrics as the script defines them (its module asks OpenAI on import: only these two
    functions' own source is run, with the numpy and math they use)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wanted = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in
              ("calib_err", "dump_metrics")]
    namespace = {"np": np, "math": math}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), str(path), "exec"), namespace)
    return SimpleNamespace(calib_err=namespace["calib_err"], dump_metrics=namespace["dump_metrics"])


def hle_cases() -> list[dict]:
    """(correct, confidence) per judged answer and how many questions had no judge response: many tied confidences,
    exactly one bin, the 100–199 answers whose only bin the script skips, too few for a bin, and missing responses."""
    rng = random.Random(80)

    def draw(count: int, step: int) -> list[list]:
        return [[rng.random() < 0.4, rng.randrange(0, 101, step)] for _ in range(count)]

    return [{"judged": draw(250, 5), "missing": 0}, {"judged": draw(1000, 1), "missing": 0},
            {"judged": draw(150, 10), "missing": 0}, {"judged": draw(100, 25), "missing": 0},
            {"judged": draw(420, 20), "missing": 17}, {"judged": draw(40, 5), "missing": 2}]


def run_hle(functions: SimpleNamespace, case: dict) -> dict:
    """dump_metrics' printed accuracy, half-width and calibration error (or the error it fails with), and calib_err's
    unrounded value, on predictions holding these judge responses and `missing` questions without one."""
    predictions = {f"q{i}": {"judge_response": {"correct": "yes" if right else "no", "confidence": confidence}}
                   for i, (right, confidence) in enumerate(case["judged"])}
    n = len(predictions) + case["missing"]
    out = io.StringIO()
    found = {**case}
    try:
        with contextlib.redirect_stdout(out):
            functions.dump_metrics(predictions, n)
    except Exception as exc:  # the script's own failure (no bin below β answers) is part of its rule
        found["fails"] = type(exc).__name__
        return found
    lines = dict(line.split(": ", 1) for line in out.getvalue().splitlines() if ": " in line)
    accuracy, rest = lines["Accuracy"].split("% +/- ")
    found.update(accuracy=float(accuracy), half_width=float(rest.split("%")[0]),
                 calibration_error=float(lines["Calibration Error"]))
    correct = np.array([right for right, _ in case["judged"]])
    confidence = np.array([c for _, c in case["judged"]]) / 100
    found["calib_err"] = float(functions.calib_err(confidence, correct, p="2", beta=100))
    return found


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    functions = hle_functions(Path(sys.argv[2]))
    reference = {"simpleqa": [run_simpleqa(replies) for replies in simpleqa_cases()],
                 "hle": [run_hle(functions, case) for case in hle_cases()],
                 "made_with": {"numpy": np.__version__, "python": sys.version.split()[0]}}
    (HERE / "reference.json").write_text(json.dumps(reference, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
