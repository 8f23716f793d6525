"""Reasoning replies: the answer is what follows the last closing tag; a reasoning that never closes leaves no
answer."""
import pyarrow as pa
import pytest

from stages.core.errors import UsageError
from stages.text.reasoning import (
    CLOSED,
    UNFINISHED,
    ReasoningTags,
    answers_after_reasoning,
    cut_reasoning,
    read_reasoning_tags,
    split_reasoning,
)

CASES = [  # reply → (answer, state)
    ("<think>2+2 is 4</think>\n\nThe answer is 4.", ("The answer is 4.", CLOSED)),
    ("no reasoning shown", ("no reasoning shown", None)),
    ("<think>still thinking about 4", ("", UNFINISHED)),
    ("the prompt opened it</think> B", ("B", CLOSED)),
    ("<think>a</think> first <think>b</think> 7", ("7", CLOSED)),
    ("<think>a</think> 5 <think>reopened", ("", UNFINISHED)),
    ("<think>a</think>", ("", CLOSED)),
]


@pytest.mark.parametrize("reply, expected", CASES)
def test_split_reasoning(reply, expected):
    assert split_reasoning(reply) == expected


def test_the_column_cut_reads_as_the_row_cut():
    replies = pa.array([reply for reply, _ in CASES] + [None])
    answers, states = cut_reasoning(replies)
    assert answers.to_pylist() == [answer for _, (answer, _) in CASES] + [None]
    assert states.to_pylist() == [state for _, (_, state) in CASES] + [None]


def test_a_column_without_tags_is_left_as_it_is():
    assert cut_reasoning(pa.array(["4", None, "think about it"])) is None
    table = pa.table({"id": ["1"], "prediction": ["4"]})
    assert answers_after_reasoning(table) == (table, {"closed_reasoning": 0, "unfinished_reasoning": 0})


def test_other_tags_are_configurable():
    tags = ReasoningTags("[THINK]", "[/THINK]")
    assert split_reasoning("[THINK]x[/THINK] 12", tags) == ("12", CLOSED)
    assert split_reasoning("<think>x</think> 12", tags) == ("<think>x</think> 12", None)
    answers, states = cut_reasoning(pa.array(["[THINK]x[/THINK] 12", "[THINK]x"]), tags)
    assert answers.to_pylist() == ["12", ""] and states.to_pylist() == [CLOSED, UNFINISHED]


@pytest.mark.parametrize("as_table", [True, False])
def test_reasoning_returned_apart_counts_as_closed_only_when_an_answer_follows(as_table):
    rows = {"id": ["1", "2", "3", "4"], "prediction": ["<think>x</think> 5", "", "7", "8"],
            "reasoning_content": [None, "thought until max_tokens", "thought", None]}
    joined, counts = answers_after_reasoning(pa.table(rows) if as_table else rows)
    joined = joined.to_pydict() if as_table else joined
    assert joined["prediction"] == ["5", "", "7", "8"]
    assert joined["reasoning"] == [CLOSED, UNFINISHED, CLOSED, None]
    assert counts == {"closed_reasoning": 2, "unfinished_reasoning": 1}


def test_dataset_toml_reasoning_table():
    assert read_reasoning_tags({}, "d.toml") == ReasoningTags("<think>", "</think>")
    assert read_reasoning_tags({"close": "</reasoning>"}, "d.toml").close == "</reasoning>"
    with pytest.raises(UsageError, match="unknown key"):
        read_reasoning_tags({"end": "x"}, "d.toml")
    with pytest.raises(UsageError, match="non-blank string"):
        read_reasoning_tags({"open": ""}, "d.toml")
