"""SimpleQA as openai/simple-evals scores it (simpleqa_eval.py, SimpleQAEval.grade_sample and __call__): the grader
answers a letter — the first A, B or C anywhere in its reply, C (NOT_ATTEMPTED) when there is none — and the figures
are the shares of each grade, correct given attempted and the F-score of the two."""
from __future__ import annotations

import re
from typing import Any

from ...raters.scales import SCALES
from ..verdicts import Verdict
from . import JudgedTask, register_judged_task

GRADES = {"A": "CORRECT", "B": "INCORRECT", "C": "NOT_ATTEMPTED"}
LABELS = SCALES["simpleqa"]
_LETTER = re.compile(r"(A|B|C)")  # grade_sample's search: the first capital A, B or C, wherever it stands


def simpleqa_grade(reply: str) -> Verdict:
    """The grade grade_sample reads from the grader's reply: its first A / B / C ("INCORRECT" is a C), else C."""
    found = _LETTER.search(reply)
    letter = found.group(0) if found else "C"
    return Verdict(GRADES[letter], LABELS[GRADES[letter]], None, {"letter": letter, "defaulted": found is None})


def simpleqa_figures(details: list[dict[str, Any] | None], unanswered: int) -> dict[str, Any]:
    """SimpleQAEval.__call__'s aggregate over the graded items (an item without a grade — its judge call failed — is
    left out) and the items without an answer (counted NOT_ATTEMPTED): each grade's share, correct given attempted
    and its F-score with the share correct, each 0 where the script's denominator is 0."""
    letters = [found["letter"] for found in details if found is not None] + ["C"] * unanswered
    n = len(letters)
    if not n:
        return {"n": 0}
    figures: dict[str, Any] = {"n": n, "unanswered": unanswered,
                               "defaulted": sum(bool(found and found["defaulted"]) for found in details)}
    for letter, name in (("A", "is_correct"), ("B", "is_incorrect"), ("C", "is_not_attempted")):
        figures[name] = sum(grade == letter for grade in letters) / n
    figures["is_given_attempted"] = figures["is_correct"] + figures["is_incorrect"]
    figures["accuracy_given_attempted"] = (figures["is_correct"] / figures["is_given_attempted"]
                                           if figures["is_given_attempted"] > 0 else 0)
    both = figures["accuracy_given_attempted"] + figures["is_correct"]
    figures["f1"] = 2 * figures["accuracy_given_attempted"] * figures["is_correct"] / both if both > 0 else 0
    return figures


def simpleqa_line(figures: dict[str, Any]) -> str:
    """One line within 158 columns for SimpleQA's 4,326 questions: not attempted counts the replies without an
    answer (unanswered) and the grader's replies without a letter (graded C)."""
    if not figures["n"]:
        return "SimpleQA: no graded item"
    return (f"SimpleQA n={figures['n']}: correct {figures['is_correct']:.3f}, incorrect {figures['is_incorrect']:.3f}, "
            f"not attempted {figures['is_not_attempted']:.3f} ({figures['unanswered']} unanswered, "
            f"{figures['defaulted']} with no letter), correct given attempted "
            f"{figures['accuracy_given_attempted']:.3f}, F-score {figures['f1']:.3f}")


SIMPLEQA = register_judged_task(JudgedTask(
    name="simpleqa", reference="simple-evals simpleqa_eval.py (SimpleQAEval)",
    placeholders={"question": "question", "target": "expected", "predicted_answer": "prediction"},
    read_reply=simpleqa_grade, figures=simpleqa_figures, figures_line=simpleqa_line, headline="is_correct",
    headline_unit="rate"))
