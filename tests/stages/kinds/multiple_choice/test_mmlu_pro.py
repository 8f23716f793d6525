"""MMLU-Pro's reading against its own extract_answer's verdicts (fixture) and the five published files item by item."""
from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import pytest

from stages.kinds.multiple_choice.mmlu_pro import mmlu_pro_accuracy, mmlu_pro_letter, reference_letter

FIXTURE = Path(__file__).parent / "fixtures" / "mmlu_pro_reference_letters.json"
L1_FILES = ("Mixtral-8x7B-Instruct-v0.1", "Phi-3-mini-4k-instruct", "Qwen1.5-72B-Chat")  # pred: first regex only


def test_written_replies_read_as_the_reference_reads_them() -> None:
    for reply, expected in json.loads(FIXTURE.read_text()):
        assert reference_letter(reply) == expected, reply


def test_reasoning_is_read_after_think_and_an_unclosed_one_has_no_answer() -> None:
    assert mmlu_pro_letter("<think>the answer is A</think>The answer is (B)") == "B"
    assert mmlu_pro_letter("<think>the answer is A, so C") is None
    assert mmlu_pro_letter("no think, the answer is (D)") == "D"


def test_unread_items_take_seeded_letters_in_file_order() -> None:
    draw = random.Random(12345)
    first, second = draw.randint(0, 9), draw.randint(0, 3)
    score = mmlu_pro_accuracy([None, "A", None], ["J", "A", "B"], [first, 0, second], [10, 10, 4], ["x", "y", "x"])
    assert (score.correct, score.guessed, score.guessed_correct) == (3, 2, 2)
    assert score.accuracy_without_guesses == pytest.approx(1 / 3)
    assert score.per_category == {"x": (2, 2), "y": (1, 1)}


def _items(path: Path) -> list[dict]:
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read(archive.namelist()[0]))


@pytest.mark.parametrize("model", ["Meta-Llama-3_1-70B", "Meta-Llama-3_1-8B-Instruct", *L1_FILES])
def test_published_files_item_by_item(model: str, real_data: Path) -> None:
    items = _items(real_data / "mmlu_pro" / f"model_outputs_{model}_5shots.zip")
    assert len(items) == 12032
    level = "l1" if model in L1_FILES else "l2"
    letters = [reference_letter(item["generated_text"], level) for item in items]
    # the three older files stored the first regex's letter (None unread); the Llama-3.1 files the whole cascade's,
    # and a letter of unknown draw where the cascade reads none
    assert [letter for letter in letters if letter] == [item["pred"] for item, letter in zip(items, letters) if letter]
    assert all(item["pred"] is None for item, letter in zip(items, letters) if not letter) == (level == "l1")
