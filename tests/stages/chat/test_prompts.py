"""Prompt templates: only the allowed placeholders, the required ones present, options lettered A, B, C."""
import pytest

from stages.chat.prompts import check_template, render_prompt
from stages.core.errors import UsageError


def test_a_question_is_filled_in_with_its_options_lettered():
    assert render_prompt("Q: {question}\n{options}\nAnswer:", "2+2?", ["3", "4"]) == "Q: 2+2?\nA. 3\nB. 4\nAnswer:"
    assert render_prompt("{question} {{literal}}", "hi", None) == "hi {literal}"


def test_a_template_names_only_what_it_may_and_what_it_must():
    check_template("{question} {options}", "dataset.toml")
    with pytest.raises(UsageError, match=r"dataset.toml: prompt template names \{answer\}; it may use \{question\}"):
        check_template("{question} {answer}", "dataset.toml")
    with pytest.raises(UsageError, match=r"must use \{question\} \(else every item is asked the same thing\)"):
        check_template("Answer briefly.", "dataset.toml", required=("question",))
    with pytest.raises(UsageError, match="is malformed"):
        check_template("{question", "dataset.toml")
