"""MMLU-Pro's 5-shot prompt against the script's own generate_cot_prompt on written validation rows and questions
(fixture made by make_mmlu_pro_fixtures.py running it): six examples of one category (five used), two of another,
an "N/A" option dropped."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.kinds.multiple_choice.mmlu_pro_prompt import cot_prompt, fewshot_examples, with_prompts

LIVE = Path(__file__).parent / "fixtures" / "mmlu_pro_live"


def _questions() -> list[dict]:
    return [json.loads(line) for line in (LIVE / "questions.jsonl").read_text(encoding="utf-8").splitlines()]


def test_each_question_is_asked_with_the_scripts_prompt() -> None:
    examples = fewshot_examples(LIVE / "validation.jsonl")
    expected = json.loads((LIVE / "prompts.json").read_text(encoding="utf-8"))
    assert [len(examples["math"]), len(examples["law"])] == [5, 2]
    for question in _questions():
        assert cot_prompt(question["category"], question["question"], question["options"],
                          examples[question["category"]]) == expected[question["id"]]


def test_a_category_without_examples_is_named() -> None:
    examples = fewshot_examples(LIVE / "validation.jsonl")
    rows = {"id": ["x"], "question": ["q"], "options": [["a", "b"]], "category": ["physics"]}
    with pytest.raises(ValueError, match="no example of category 'physics'"):
        with_prompts(rows, examples)


def test_a_row_that_is_not_a_validation_row_is_named_by_its_line(tmp_path) -> None:
    path = tmp_path / "validation.jsonl"
    path.write_text('{"question": "q", "options": ["a"], "cot_content": "c", "category": "math"}\n{"question": 1}\n')
    with pytest.raises(ValueError, match="line 2 is not a validation row"):
        fewshot_examples(path)
