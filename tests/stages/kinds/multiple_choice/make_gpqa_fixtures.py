"""Runs openai/simple-evals' own GPQAEval (gpqa_eval.py, from a checkout given as argv[1]) over written items and
replies: writes fixtures/gpqa/ — questions.csv in GPQA's columns, predictions/written.jsonl (each item's four
replies, repeat by repeat) and expected.json (per item and repeat the prompt the script sent, its correct letter,
extracted answer and score, and its score and score:std). Run with the venv holding the script's dependencies (pandas, numpy, jinja2,
requests, tqdm): /work/venvs/simple-evals/bin/python make_gpqa_fixtures.py <simple-evals checkout>."""
from __future__ import annotations

import csv
import importlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "gpqa"
ITEMS = [
    ("rec1", "Which particle carries the electromagnetic force?", "photon", "gluon", "W boson", "graviton"),
    ("rec2", "A reaction has ΔG < 0.\nWhich statement holds?", "it is spontaneous", "it is at equilibrium",
     "it needs a catalyst", "it is endothermic"),
    ("rec3", "What is 7 × 8?", "56", "54", "58", "64"),
    ("rec4", "Which base pairs with adenine in DNA?", "thymine", "uracil", "cytosine", "guanine"),
    ("rec5", "The \"Hill\" coefficient measures…", "cooperativity, \"n\"", "affinity", "rate, k", "yield"),
]
# how each repeat's reply answers: with the letter the right text has in its prompt, or written as it stands
ANSWERS = [
    ["right", "Answer: A", "right lower", "**Answer:** B"],
    ["right", "Answer:$C$", "Answer : D", "The answer is B"],
    ["Reasoning first.\nanswer:\tC\nAnswer: A", "right", "Answer: E", "right"],
    ["ANSWER: d", "right", "right", "no letter"],
    ["right", "Answer: $\\boxed{A}$", "Answer:   B$", "right"],
]


def reply(kind: str, letter: str) -> str:
    """A written reply: 'right' answers with the correct letter, 'right lower' with it in lower case."""
    if kind == "right":
        return f"Let me think step by step.\nAnswer: {letter}"
    if kind == "right lower":
        return f"answer: {letter.lower()}"
    return kind


def main(checkout: Path) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    columns = ["Record ID", "Question", "Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2",
               "Incorrect Answer 3", "High-level domain"]
    with open(FIXTURES / "questions.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows([*item, "Physics"] for item in ITEMS)
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "simple_evals"
        package.mkdir()
        for name in ("common.py", "gpqa_eval.py", "types.py"):
            shutil.copy(checkout / name, package / name)
        (package / "__init__.py").write_text("")
        sys.path.insert(0, scratch)
        os.environ["debug"] = "1"  # map_with_progress: one example after another, in order
        import pandas

        read_csv = pandas.read_csv
        pandas.read_csv = lambda url: read_csv(FIXTURES / "questions.csv")  # the script downloads its CSV
        gpqa_eval = importlib.import_module("simple_evals.gpqa_eval")
        types = importlib.import_module("simple_evals.types")
        evaluation = gpqa_eval.GPQAEval(n_repeats=4)
        replies: dict[str, list[str]] = {item[0]: [] for item in ITEMS}
        expected: dict[str, list[dict]] = {item[0]: [] for item in ITEMS}

        class Sampler(types.SamplerBase):
            """Answers each prompt with the written reply of its item and repeat."""

            def __init__(self) -> None:
                self.asked = 0

            def _pack_message(self, content: str, role: str) -> dict:
                return {"role": role, "content": content}

            def __call__(self, message_list: list) -> types.SamplerResponse:
                example = evaluation.examples[self.asked]
                self.asked += 1
                row_id, repeat = example["Record ID"], len(replies[example["Record ID"]])
                prompt = message_list[0]["content"]
                letter = "ABCD"[[line[3:] for line in prompt.splitlines()[-4:]].index(example["Correct Answer"])]
                text = reply(ANSWERS[[item[0] for item in ITEMS].index(row_id)][repeat], letter)
                replies[row_id].append(text)
                expected[row_id].append({"permutation": example["permutation"], "correct": letter, "prompt": prompt})
                return types.SamplerResponse(response_text=text, actual_queried_message_list=message_list,
                                             response_metadata={})

        result = evaluation(Sampler())
        for index, (example, html) in enumerate(zip(evaluation.examples, result.htmls)):  # fn's own verdicts
            record = expected[example["Record ID"]][index // len(ITEMS)]
            shown = dict(re.findall(r"<p>(Correct Answer|Extracted Answer|Score): (.*?)</p>", html))
            assert shown["Correct Answer"] == record["correct"]
            record.update(extracted=None if shown["Extracted Answer"] == "None" else shown["Extracted Answer"],
                          score=float(shown["Score"]))
    (FIXTURES / "predictions").mkdir(exist_ok=True)
    with open(FIXTURES / "predictions" / "written.jsonl", "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps({"Record ID": row_id, "samples": texts}) + "\n"
                          for row_id, texts in replies.items())
    summary = {"score": result.score, "score:std": result.metrics["score:std"], "items": expected}
    (FIXTURES / "expected.json").write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
