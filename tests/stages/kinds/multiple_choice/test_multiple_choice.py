import logging

import pytest

from stages import check_answer_match, extract_choice, find_options, options_from_text
from stages.kinds.multiple_choice.extraction import ChoiceExtraction

OPTIONS = {"A": "London", "B": "Paris", "C": "Berlin", "D": "Rome"}


# Seed 000's five documented examples.
def test_seed_example_1_bare_letter():
    assert check_answer_match("<RESPONSE>The answer is C.</RESPONSE>", "C") is True


def test_seed_example_2_letter_with_description():
    assert check_answer_match("<RESPONSE>The answer is C.</RESPONSE>", "(c) observing a meteor shower") is True


def test_seed_example_3_text_matched_to_options():
    question = "What is the context? (a) casual chat (b) project meeting (c) phone call (d) classroom"
    prediction = "It sounds like a project meeting among colleagues."
    assert check_answer_match("<RESPONSE>The answer is B.</RESPONSE>", prediction, question) is True


def test_seed_example_4_number_words():
    question = "How many speakers? (a) three (b) four (c) five (d) six"
    golden = "<RESPONSE>C. There are five distinct voices...</RESPONSE>"
    assert check_answer_match(golden, "There are five speakers in the conversation.", question) is True


def test_seed_example_5_threshold():
    question = "What is the context? (a) casual chat between friends (b) formal meeting"
    golden = "<RESPONSE>The answer is A.</RESPONSE>"
    prediction = "An informal conversation between friends."
    assert check_answer_match(golden, prediction, question, similarity_threshold=0.5) is True
    assert check_answer_match(golden, prediction, question) is False  # Indel ratio 0.687 < 0.7


def test_no_letter_and_no_question_is_false_with_a_logged_reason(caplog):
    with caplog.at_level(logging.WARNING):
        assert check_answer_match("<RESPONSE>The answer is B.</RESPONSE>", "a project meeting") is False
    assert "no question with options" in caplog.text


def test_wrong_letter_is_false():
    assert check_answer_match("<RESPONSE>C. five</RESPONSE>", "B) four") is False


@pytest.mark.parametrize(
    "reply, letter, rule",
    [
        ("C", "C", "bare_letter"), ("c", "C", "bare_letter"), ("(c)", "C", "bare_letter"),
        ("c)", "C", "bare_letter"), ("C.", "C", "bare_letter"), ("C:", "C", "bare_letter"),
        ("Ｃ", "C", "bare_letter"), ("（C）", "C", "bare_letter"), ("**B**", "B", "bare_letter"),
        ("(C) Berlin", "C", "leading_letter"), ("C、Berlin", "C", "leading_letter"),
        ("C. Berlin is the capital", "C", "leading_letter"),
        ("The answer is C", "C", "answer_statement"), ("Answer: **B**", "B", "answer_statement"),
        ("ANSWER: **B**", "B", "answer_statement"), ("The correct answer is (b).", "B", "answer_statement"),
        ("I choose D", "D", "answer_statement"),
        ("$\\boxed{B}$", "B", "boxed"),
        ("答案是C", "C", "answer_statement"), ("答案：Ｃ", "C", "answer_statement"), ("选C", "C", "answer_statement"),
        ("故选C", "C", "answer_statement"), ("正确答案为C", "C", "answer_statement"),
        ("应选C项", "C", "answer_statement"), ("综上所述，答案为 (B)。", "B", "answer_statement"),
        ("B Paris", "B", "leading_letter_with_text"),
        ("A和B都不对，只有选项C是对的", "C", "positive_mention"),
        ("D和A都不对，只有选项C是对的", "C", "positive_mention"),
        ("Only C is correct.", "C", "positive_mention"),
        ("A is wrong because London is in England, D is wrong too, so the answer is C.", "C", "answer_statement"),
        ("The answer is (A) not C", "A", "answer_statement"),
        ("Let's see: Berlin is in Germany. So C.", "C", "option_text_contained"),
        ("Let's see: it is in Germany. So C.", "C", "lone_letter"),
        ("Paris", "B", "option_text"),
        ("巴黎", None, "option_text_below_threshold"),
    ],
)
def test_reply_forms(reply, letter, rule):
    result = extract_choice(reply, OPTIONS)
    assert (result.letter, result.rule) == (letter, rule)


@pytest.mark.parametrize(
    "reply, rule",
    [
        ("Answer: A or C", "ambiguous_answer_statement"),
        ("答案是A，不对，答案是C", "ambiguous_answer_statement"),
        ("A和B都不对", "ambiguous_lone_letter"),
        ("A good question, hard to say.", "option_text_below_threshold"),  # the article is not an answer
        ("Let's think about it.", "option_text_below_threshold"),  # no letter inside a word
        ("", "empty"),
        ("<think>It is B</think>", "empty"),
    ],
)
def test_abstentions(reply, rule):
    result = extract_choice(reply, OPTIONS)
    assert result.letter is None and result.rule == rule


def test_missing_reply():
    assert extract_choice(None, OPTIONS).rule == "missing"


def test_option_text_needs_a_clear_lead():
    options = {"A": "red apple", "B": "red apples", "C": "blue sky"}
    result = extract_choice("red apple", options)
    assert result.letter == "A" and result.score == 1.0
    tie = extract_choice("five", {"A": "five apples", "B": "five pears", "C": "six"})
    assert tie.letter is None and tie.score == 0.9  # A and B both contain every word: neither clearly ahead


def test_an_option_of_only_punctuation_is_never_searched_for():
    """An option such as "。" or "..." is empty once trailing punctuation is off: it names nothing (it used to stop
    B4 with an IndexError)."""
    assert extract_choice("我选。", ["。", "x"]).letter is None
    assert extract_choice("x", ["...", "x"]) == ChoiceExtraction("B", "option_text", 1.0)
    assert extract_choice("B", ["。", "x"]).letter == "B"


def test_letters_outside_the_options_are_ignored():
    assert extract_choice("E", {"A": "x", "B": "y"}).letter is None
    assert extract_choice("The answer is E", ["x", "y", "z", "w", "v"]).letter == "E"


def test_chinese_option_text():
    options = ["土地", "劳动力", "资金", "农业生产工具"]
    result = extract_choice("最主要的基本生产资料是土地。", options)
    assert result.letter == "A" and result.rule == "option_text_contained"


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What? (a) casual chat (b) project meeting (c) phone call", ["casual chat", "project meeting", "phone call"]),
        ("Pick one:\nA. red\nB. green\nC. blue", ["red", "green", "blue"]),
        ("哪个正确？A、甲 B、乙 C、丙", ["甲", "乙", "丙"]),
        ("哪个正确？（A）甲（B）乙", ["甲", "乙"]),
        ("No options here.", None),
    ],
)
def test_options_from_question_text(question, expected):
    assert options_from_text(question) == expected


def test_options_from_fields_and_columns():
    assert find_options({"options": {"b": "y", "a": "x"}}, None) == ["x", "y"]
    assert find_options({"choices": ["x", "y", "z"]}, None) == ["x", "y", "z"]
    assert find_options({"A": "土地", "B": "资金", "C": "", "Question": "q"}, "q") == ["土地", "资金"]
    with pytest.raises(ValueError, match="option letters must run"):
        find_options({"options": {"A": "x", "C": "y"}}, None)
