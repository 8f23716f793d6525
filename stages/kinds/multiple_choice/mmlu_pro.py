"""MMLU-Pro's own answer reading (TIGER-AI-Lab/MMLU-Pro evaluate_from_local.py extract_answer / save_res), quirks kept,
in linear time: the script's second and third regexes rescan the text from every position."""
from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass

_ANSWER_IS = re.compile(r"answer is \(?([A-J])\)?")  # extract_answer: no flags, case-sensitive
_ANSWER_COLON = re.compile(r"[aA]nswer:\s*([A-J])")  # extract_again's pattern without its leading '.*'
_LINE_ANSWER_COLON = re.compile(r".*[aA]nswer:\s*([A-J])")  # extract_again: greedy, no DOTALL (one line's last)
_LAST_LETTER = re.compile(r".*\b([A-J])\b", re.DOTALL)  # extract_final's \b[A-J]\b(?!.*\b[A-J]\b): the last one
_THINK_CLOSE = "</think>"
SEED = 12345  # random.seed(12345) at the script's import
CASCADE_RULES = ("answer is", "answer:", "last letter")  # extract_answer, extract_again, extract_final


def reference_rule(text: str, level: str = "l2") -> tuple[str | None, str | None]:
    """(letter, rule) as the reference reads them: 'l1' is extract_answer's first regex alone, 'l2' its cascade."""
    match = _ANSWER_IS.search(text)
    if match or level == "l1":
        return (match.group(1), CASCADE_RULES[0]) if match else (None, None)
    first = _ANSWER_COLON.search(text)
    if first:  # re.search(r'.*[aA]nswer:...') first succeeds at the start of the first line holding one
        return _LINE_ANSWER_COLON.match(text, text.rfind("\n", 0, first.start()) + 1).group(1), CASCADE_RULES[1]
    last = _LAST_LETTER.match(text)
    return (last.group(1), CASCADE_RULES[2]) if last else (None, None)


def reference_letter(text: str, level: str = "l2") -> str | None:
    """The letter the reference reads ('l1': extract_answer's first regex alone, 'l2': its whole cascade)."""
    return reference_rule(text, level)[0]


def mmlu_pro_rule(reply: str) -> tuple[str | None, str | None]:
    """(letter, rule) read after a reply's last </think>; reasoning opened and never closed gives (None, None)."""
    if _THINK_CLOSE in reply:
        reply = reply.rsplit(_THINK_CLOSE, 1)[1]
    elif "<think>" in reply:
        return None, None
    return reference_rule(reply)


def mmlu_pro_letter(reply: str) -> str | None:
    """The reference's letter read after a reply's last </think>; reasoning opened and never closed gives None."""
    return mmlu_pro_rule(reply)[0]


def script_guesses(categories: list[str], option_counts: list[int], unread: list[bool],
                   seed: int = SEED) -> dict[int, int]:
    """Row → option index guessed for each unread row, drawn as evaluate_from_local.py draws: one seeded stream, the
    categories in sorted order, save_res called twice per category (the first call's draws are discarded), each call
    one random.randint(0, len(options) - 1) per unread row in file order."""
    by_category: dict[str, list[int]] = defaultdict(list)
    for row, category in enumerate(categories):
        if unread[row]:
            by_category[category].append(row)
    draw, guesses = random.Random(seed), {}
    for category in sorted(by_category):
        rows = by_category[category]
        for row in rows:
            draw.randint(0, option_counts[row] - 1)
        guesses.update((row, draw.randint(0, option_counts[row] - 1)) for row in rows)
    return guesses


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
    """save_res over the items: an unread letter is a seeded random option index against answer_index."""
    guesses = script_guesses(categories, option_counts, [not letter for letter in letters], seed)
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    correct = guessed_correct = 0
    for i, letter in enumerate(letters):
        hit = guesses[i] == answer_indexes[i] if i in guesses else letter == answers[i]
        correct += hit
        guessed_correct += hit and i in guesses
        per_category[categories[i]][0] += 1
        per_category[categories[i]][1] += hit
    return MmluProAccuracy(len(letters), correct, len(guesses), guessed_correct,
                           {name: (n, c) for name, (n, c) in sorted(per_category.items())})
