"""The final answer a math reply gives, and how it was taken: boxed, after an answer cue, or its last expression."""
import pytest

from stages.kinds.math.final_answer import (
    ANSWER_CUE,
    BOXED,
    LAST_EXPRESSION,
    NO_FINAL_ANSWER,
    extract_final_answer,
    last_boxed,
    math_text,
)


@pytest.mark.parametrize("reply, text, how", [
    ("so $\\boxed{\\frac12}$.", "\\frac12", BOXED),
    ("first \\boxed{1}, then \\boxed{\\frac{a}{\\sqrt{b}}} at last", "\\frac{a}{\\sqrt{b}}", BOXED),
    ("\\fbox{42}", "42", BOXED),
    ("The final answer is $3\\sqrt{2}$. I hope it is correct.", "3\\sqrt{2}", ANSWER_CUE),
    ("The answer is 5.", "5", ANSWER_CUE),
    ("The answer is 18 dollars.", "18", ANSWER_CUE),
    ("ANSWER: 50%", "50\\%", ANSWER_CUE),
    ("Natalia sold 48 clips.\n#### 1,234", "1,234", ANSWER_CUE),
    ("The answer is x = 5", "x = 5", ANSWER_CUE),
    ("The answer is \\frac{1}{2}, since it halves", "\\frac{1}{2}", ANSWER_CUE),
    ("The answer is 1.5e3 apples", "1.5\\times 10^{3}", ANSWER_CUE),
    ("所以答案是 ３分之１。", "\\frac{1}{3}", ANSWER_CUE),
    ("最终答案：三分之二", "\\frac{2}{3}", ANSWER_CUE),
    ("答案是十二分之五", "\\frac{5}{12}", ANSWER_CUE),
    ("答案：１２０", "120", ANSWER_CUE),
    ("The final answer is $\\$32,\\!348$. I hope it is correct.", "\\$32,\\!348", ANSWER_CUE),
    ("it costs $\\$5$ in all", "\\$5", LAST_EXPRESSION),
    ("x = 2 and then y = 7.", "7", LAST_EXPRESSION),
    ("we get $x=5$.", "x=5", LAST_EXPRESSION),
    ("the value is 3.14.", "3.14", LAST_EXPRESSION),
    ("with $a = 1$ the total is 12", "12", LAST_EXPRESSION),
])
def test_each_surface_form_is_taken_with_its_rule(reply, text, how):
    found = extract_final_answer(reply)
    assert (found.text, found.how) == (text, how)


@pytest.mark.parametrize("reply", [None, "", "   ", "I do not know how to solve this."])
def test_a_reply_without_an_answer_has_none(reply):
    assert extract_final_answer(reply).text is None
    assert extract_final_answer(reply).how == NO_FINAL_ANSWER


def test_the_box_wins_over_a_later_cue_and_expression():
    assert extract_final_answer("\\boxed{7}. The answer is 8, or 9").text == "7"


def test_an_unclosed_or_empty_box_falls_back_to_the_cue():
    assert extract_final_answer("The answer is 4. \\boxed{5").text == "4"
    assert extract_final_answer("\\boxed{} The answer is 4.").text == "4"


def test_last_boxed_counts_nested_braces():
    assert last_boxed("\\boxed{\\left\\{1, \\{2\\}\\right\\}}") == "\\left\\{1, \\{2\\}\\right\\}"
    assert last_boxed("no box") is None


def test_math_text_reads_full_width_chinese_fractions_and_scientific_notation():
    assert math_text("－３．５") == "-3.5"
    assert math_text("三分之一") == "\\frac{1}{3}"
    assert math_text("2.5E-3") == "2.5\\times 10^{-3}"
    assert math_text("$12$.") == "12"
    assert math_text("\\frac{1}{2}") == "\\frac{1}{2}"
    assert math_text("5\\%") == "5\\%"
