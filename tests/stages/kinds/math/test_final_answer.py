"""The final answer a math reply gives, and how it was taken: boxed, after an answer cue, or its last expression."""
import pytest

from stages.kinds.math.final_answer import (
    ANSWER_CUE,
    BOXED,
    LAST_EXPRESSION,
    NO_FINAL_ANSWER,
    extract_final_answer,
    gold_answer,
    gold_problem,
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
    ("1 000", "1000", LAST_EXPRESSION),  # the rules below follow math-verify's on its own test cases
    ("1000,99", "1000.99", LAST_EXPRESSION),
    ("Soucis : 2,74 $ a..", "2.74", LAST_EXPRESSION),
    ("the number is not 10 which is 1,000.99€", "1,000.99", LAST_EXPRESSION),
    ("-\\frac{10}{9}", "-\\frac{10}{9}", LAST_EXPRESSION),
    ("so the roots are $1$ and $-2$.", "1, -2", LAST_EXPRESSION),
    ("Final Answer: The largest $n$ is 34.", "34", ANSWER_CUE),
    ("Final Answer: Jane started growing 3 hours ago. I hope it is correct.", "3", ANSWER_CUE),
    ("Final Answer: The final answer is \\\"$12 $ and $13 $\\\". I hope it is correct.", "12, 13", ANSWER_CUE),
    ("The answer is 5. Let me check the answer: it holds.", "5", ANSWER_CUE),
    ("\\[ \\boxed{-2} \\quad \\text{and} \\quad \\boxed{1}. \\]", "-2, 1", BOXED),
    ("$\\boxed{3}$, $\\boxed{4}$ and $\\boxed{5}$", "3, 4, 5", BOXED),
    ("Final Answer: \\boxed{5}", "5", BOXED),
    ("so $\\boxed{255}$ in interest, $10,455 in all. Final Answer: The final answer is $10,455$. I hope it is correct.",
     "10,455", ANSWER_CUE),
])
def test_each_surface_form_is_taken_with_its_rule(reply, text, how):
    found = extract_final_answer(reply)
    assert (found.text, found.how) == (text, how)


@pytest.mark.parametrize("reply", [None, "", "   ", "I do not know how to solve this.", "AZYUK2A", "x^2"])
def test_a_reply_without_an_answer_has_none(reply):
    assert extract_final_answer(reply).text is None
    assert extract_final_answer(reply).how == NO_FINAL_ANSWER


def test_the_box_wins_over_a_later_cue_and_expression():
    assert extract_final_answer("\\boxed{7}. The answer is 8, or 9").text == "7"


def test_an_unclosed_or_empty_box_falls_back_to_the_cue():
    assert extract_final_answer("The answer is 4. \\boxed{5").text == "4"
    assert extract_final_answer("\\boxed{} The answer is 4.").text == "4"


def test_a_final_answer_statement_wins_over_an_earlier_box_but_not_a_later_one():
    assert extract_final_answer("\\boxed{7}. The final answer is 8.").text == "8"
    assert extract_final_answer("The final answer is 8. \\boxed{7}").text == "7"
    assert extract_final_answer("\\boxed{7}. I trust this final answer.").text == "7"


@pytest.mark.parametrize("gold, text", [
    ("\\frac{1}{2}", "\\frac{1}{2}"), ("-2,1", "-2,1"), ("\\text{Evelyn}", "\\text{Evelyn}"), ("70", "70"),
    ("\\left( 3, \\frac{\\pi}{2} \\right)", "\\left( 3, \\frac{\\pi}{2} \\right)"), ("$28\\%$", "28\\%"),
    ("The answer is 5.", "5"), ("The sum is $\\frac{1}{2}$ hours", "\\frac{1}{2}"),
    ("Natalia sold 48/2 = 24 clips in May.\n#### 72", "72"), ("so the answer is $\\boxed{1,-2}$.", "1,-2"),
    ("8 \\sqrt{2} cm", "8 \\sqrt{2}"), ("5 square inches", "5"),  # the math before the units, not the last number
    ("Evelyn", "Evelyn"), ("The answer is no solution.", "no solution"),  # a word answer: compared as text
])
def test_a_gold_is_read_as_written_when_it_is_math_and_by_the_replys_cues_when_it_is_prose(gold, text):
    assert gold_answer(gold) == text


@pytest.mark.parametrize("gold, problem", [
    ("five", "gold 'five' is a number in words: write it in digits"),
    ("The answer is twenty-one.", "gold 'The answer is twenty-one.' is a number in words: write it in digits"),
    ("five cm", "gold 'five cm' is a number in words: write it in digits"),
    ("The sum is large and odd", "gold 'The sum is large and odd' has no answer to compare (no box, answer cue, math, "
                                 "number or word answer)"),
    ("", "gold '' has no answer to compare (no box, answer cue, math, number or word answer)"),
])
def test_a_gold_with_a_number_in_words_or_a_sentence_alone_has_no_answer_and_says_why(gold, problem):
    assert gold_answer(gold) is None
    assert gold_problem(gold) == problem


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
