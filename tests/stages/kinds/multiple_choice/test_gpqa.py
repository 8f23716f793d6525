"""GPQA's reading against simple-evals' own GPQAEval run on written items and replies (fixture made by
make_gpqa_fixtures.py running it): the permutation of every item and repeat, the letter read, the score."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from stages.kinds.multiple_choice.gpqa import gpqa_letter, permutations, repeat_prompts, shuffled_choices

FIXTURES = Path(__file__).parent / "fixtures" / "gpqa"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))["items"]


def _items() -> list[dict]:
    with open(FIXTURES / "questions.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_each_item_and_repeat_is_shuffled_and_scored_as_the_script_did() -> None:
    items = _items()
    replies = {row["Record ID"]: row["samples"] for row in map(json.loads, (FIXTURES / "predictions" / "written.jsonl")
                                                         .read_text(encoding="utf-8").splitlines())}
    drawn = permutations(len(items), 4)
    for position, item in enumerate(items):
        choices = [item["Correct Answer"], *(item[f"Incorrect Answer {n}"] for n in (1, 2, 3))]
        for repeat, expected in enumerate(EXPECTED[item["Record ID"]]):
            permutation = drawn[repeat * len(items) + position]
            assert permutation == expected["permutation"]
            assert shuffled_choices(choices, item["Correct Answer"], permutation)[1] == expected["correct"]
            letter = gpqa_letter(replies[item["Record ID"]][repeat])
            assert letter == expected["extracted"]
            assert (letter == expected["correct"]) == bool(expected["score"])


def test_each_repeat_is_asked_the_message_the_script_sent() -> None:
    items = _items()
    choices = [[item["Correct Answer"], *(item[f"Incorrect Answer {n}"] for n in (1, 2, 3))] for item in items]
    prompts = repeat_prompts([item["Question"] for item in items], choices, [item["Correct Answer"] for item in items])
    assert prompts == [[found["prompt"] for found in EXPECTED[item["Record ID"]]] for item in items]


def test_reasoning_is_read_after_think_and_an_unclosed_one_has_no_answer() -> None:
    assert gpqa_letter("<think>Answer: A</think>\nAnswer: B") == "B"  # the script itself would read A
    assert gpqa_letter("<think>so Answer: C and then") is None
    assert gpqa_letter("answer: $d$") == "d"  # (?i) reads a lower-case letter, which the script scores wrong
