"""GPQA as openai/simple-evals gpqa_eval.py scores it: the four choices shuffled per item and per repeat by the
permutations its GPQAEval draws, the answer read by common.ANSWER_PATTERN_MULTICHOICE, score 1 / 0 per reply."""
from __future__ import annotations

import random
import re

ANSWER_PATTERN_MULTICHOICE = re.compile(r"(?i)Answer[ \t]*:[ \t]*\$?([A-D])\$?")  # (?i): 'answer: b' reads 'b'
QUERY_TEMPLATE_MULTICHOICE = """
Answer the following multiple choice question. The last line of your response should be of the following format: \
'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before answering.

{Question}

A) {A}
B) {B}
C) {C}
D) {D}
""".strip()  # common.QUERY_TEMPLATE_MULTICHOICE, filled by format_multichoice_question
SEED = 0  # GPQAEval.__init__: rng = random.Random(0)
N_REPEATS = 4
_THINK_CLOSE = "</think>"


def permutations(items: int, repeats: int = N_REPEATS, seed: int = SEED) -> list[list[int]]:
    """GPQAEval's permutations: `examples * n_repeats` (every item, then every item again…), one rng.sample(range(4),
    4) each in that order, so the item at position i of repeat r takes the (r × items + i)-th."""
    draw = random.Random(seed)
    return [draw.sample(range(4), 4) for _ in range(items * repeats)]


def shuffled_choices(choices: list[str], correct: str, permutation: list[int]) -> tuple[list[str], str]:
    """The choices in the order the model saw them, and the letter of the first equal to the correct answer's text
    (fn's `choices.index(row["Correct Answer"])`)."""
    ordered = [choices[i] for i in permutation]
    return ordered, "ABCD"[ordered.index(correct)]


def repeat_prompts(questions: list[str], choices: list[list[str]], correct: list[str],
                   repeats: int = N_REPEATS) -> list[list[str]]:
    """Per item, the user message fn sends on each repeat: the template with the choices in that repeat's order."""
    drawn = permutations(len(questions), repeats)
    return [[QUERY_TEMPLATE_MULTICHOICE.format(Question=question, **dict(zip("ABCD", shuffled_choices(
        item_choices, right, drawn[repeat * len(questions) + position])[0]))) for repeat in range(repeats)]
        for position, (question, item_choices, right) in enumerate(zip(questions, choices, correct))]


def gpqa_letter(reply: str) -> str | None:
    """The letter ANSWER_PATTERN_MULTICHOICE's first match reads (lower case stays lower, as the script compares it),
    after a reply's last </think>; reasoning opened and never closed gives None."""
    if _THINK_CLOSE in reply:
        reply = reply.rsplit(_THINK_CLOSE, 1)[1]
    elif "<think>" in reply:
        return None
    match = ANSWER_PATTERN_MULTICHOICE.search(reply)
    return match.group(1) if match else None
