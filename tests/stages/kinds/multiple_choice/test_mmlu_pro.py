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


def test_unread_items_are_guessed_as_main_draws_per_sorted_category_twice() -> None:
    draw = random.Random(12345)
    draw.randint(0, 3), draw.randint(0, 9)  # category "a" (row 2: 4 options, then row 3) — eval_cot's first save_res
    a_first, a_second = draw.randint(0, 3), draw.randint(0, 9)  # the second save_res, the one counted
    draw.randint(0, 9)  # category "b": row 0, drawn after "a" although it comes first in the file
    b_first = draw.randint(0, 9)
    score = mmlu_pro_accuracy([None, "A", None, None], ["J", "A", "B", "C"], [b_first, 0, a_first, a_second + 1],
                              [10, 10, 4, 10], ["b", "b", "a", "a"])
    assert (score.correct, score.guessed, score.guessed_correct) == (3, 3, 2)
    assert score.accuracy_without_guesses == pytest.approx(1 / 4)
    assert score.per_category == {"a": (2, 1), "b": (2, 2)}


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


def test_a_category_of_mixed_types_is_read_row_by_row_not_lost(tmp_path: Path) -> None:
    from stages.core.records import as_columns
    from stages.kinds.base import get_kind

    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps({"id": str(n), "question": "q", "options": ["a", "b"], "answer": "A",
                                        "category": category}) + "\n" for n, category in enumerate([7, "law", None])))
    loaded = get_kind("multiple_choice").load_gold(path, {"id_field": "id", "gold_field": "answer"}, None,
                                                   {"task": "mmlu_pro", "fewshot_file": ""})
    assert as_columns(loaded.columns)["category"] == ["7", "law", None]
