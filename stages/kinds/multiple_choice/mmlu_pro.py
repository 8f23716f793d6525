"""MMLU-Pro's own answer reading (TIGER-AI-Lab/MMLU-Pro evaluate_from_local.py extract_answer / save_res), quirks kept."""
from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass

_ANSWER_IS = re.compile(r"answer is \(?([A-J])\)?")  # extract_answer: no flags, case-sensitive
_ANSWER_COLON = re.compile(r".*[aA]nswer:\s*([A-J])")  # extract_again: greedy, no DOTALL (the line of the last match)
_LAST_LETTER = re.compile(r"\b[A-J]\b(?!.*\b[A-J]\b)", re.DOTALL)  # extract_final: the last standalone letter
_THINK_CLOSE = "</think>"
SEED = 12345  # random.seed(12345) at the script's import, drawn once per unread item in file order


def reference_letter(text: str, level: str = "l2") -> str | None:
    """The letter the reference reads: 'l1' is extract_answer's first regex alone, 'l2' its whole cascade."""
    match = _ANSWER_IS.search(text)
    if match or level == "l1":
        return match.group(1) if match else None
    match = _ANSWER_COLON.search(text) or _LAST_LETTER.search(text)
    return match.group(1) if match and match.re is _ANSWER_COLON else (match.group(0) if match else None)


def mmlu_pro_letter(reply: str, level: str = "l2") -> str | None:
    """The reference's letter read after a reply's last </think>; reasoning opened and never closed gives None."""
    if _THINK_CLOSE in reply:
        reply = reply.rsplit(_THINK_CLOSE, 1)[1]
    elif "<think>" in reply:
        return None
    return reference_letter(reply, level)


def guessed_indexes(option_counts: list[int], seed: int = SEED) -> list[int]:
    """save_res's random.randint(0, len(options) - 1), one per unread item, in file order, from the seeded stream."""
    draw = random.Random(seed)
    return [draw.randint(0, count - 1) for count in option_counts]


@dataclass(frozen=True)
class MmluProAccuracy:
    """Accuracy as the reference counts it (a guess for each unread item) and without guesses, overall and per category."""

    items: int
    correct: int
    guessed: int
    guessed_correct: int
    per_category: dict[str, tuple[int, int]]  # category -> (items, correct with guesses)

    @property
    def accuracy(self) -> float:
        return self.correct / self.items if self.items else 0.0

    @property
    def accuracy_without_guesses(self) -> float:
        return (self.correct - self.guessed_correct) / self.items if self.items else 0.0


def mmlu_pro_accuracy(letters: list[str | None], answers: list[str], answer_indexes: list[int],
                      option_counts: list[int], categories: list[str], seed: int = SEED) -> MmluProAccuracy:
    """save_res over the items in file order: an unread letter is a seeded random option index against answer_index."""
    unread = [i for i, letter in enumerate(letters) if not letter]
    guesses = dict(zip(unread, guessed_indexes([option_counts[i] for i in unread], seed)))
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    correct = guessed_correct = 0
    for i, letter in enumerate(letters):
        hit = guesses[i] == answer_indexes[i] if i in guesses else letter == answers[i]
        correct += hit
        guessed_correct += hit and i in guesses
        per_category[categories[i]][0] += 1
        per_category[categories[i]][1] += hit
    return MmluProAccuracy(len(letters), correct, len(unread), guessed_correct,
                           {name: (n, c) for name, (n, c) in sorted(per_category.items())})
