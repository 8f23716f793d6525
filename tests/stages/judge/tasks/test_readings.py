"""#80: how each judged task reads its judge's reply and takes its script's template from a file."""
import time

import pytest

from stages.core.errors import UsageError
from stages.judge import read_judge_reply
from stages.judge.tasks import judged_task
from stages.judge.tasks.hle import hle_figures


@pytest.mark.parametrize("reply, letter, label", [
    ("A", "A", "CORRECT"), ("B", "B", "INCORRECT"), ("C", "C", "NOT_ATTEMPTED"),
    ("CORRECT", "C", "NOT_ATTEMPTED"),  # grade_sample's first A / B / C is the C of CORRECT
    ("NOT_ATTEMPTED", "A", "CORRECT"),  # … and the A of ATTEMPTED
    ("Grade: B", "B", "INCORRECT"), ("b", "C", "NOT_ATTEMPTED"), ("", "C", "NOT_ATTEMPTED")])
def test_simpleqa_reads_the_first_capital_letter_as_simple_evals_does(reply, letter, label):
    verdict = read_judge_reply(reply, "simpleqa")
    assert (verdict.details["letter"], verdict.label) == (letter, label)


def test_hle_reads_the_structured_judgement_or_its_labelled_lines():
    found = read_judge_reply('{"extracted_final_answer": "42", "reasoning": "same number", "correct": "yes", '
                               '"confidence": 85.0, "strict": true}', "hle")
    assert (found.label, found.value, found.reason, found.details) == (
        "yes", 1.0, "same number", {"extracted_final_answer": "42", "correct": "yes", "confidence": 85})
    lines = read_judge_reply("**extracted_final_answer:** None\nreasoning: no answer given\ncorrect: no\n"
                               "confidence: 100%", "hle")
    assert lines.details == {"extracted_final_answer": "None", "correct": "no", "confidence": 100}


@pytest.mark.parametrize("reply", [
    '{"extracted_final_answer": "42", "reasoning": "r", "correct": "maybe", "confidence": 85}',
    '{"extracted_final_answer": "42", "reasoning": "r", "correct": "yes", "confidence": 85.5}',
    '{"extracted_final_answer": "42", "reasoning": "r", "correct": "yes", "confidence": true}',
    "The answer looks right to me.", "extracted_final_answer: 42\ncorrect: yes"])
def test_an_hle_judgement_the_script_could_not_parse_is_unparsed_not_wrong(reply):
    assert read_judge_reply(reply, "hle").label is None


def test_a_template_file_keeps_the_scripts_placeholders_and_braces():
    task = judged_task("hle")
    template = task.template("[question]: {question}\n[response]: {response}\n[correct_answer]: {correct_answer}\n"
                             "confidence: 0|\\%| to 100|\\%|, as {{json}}\n", "dataset.toml")
    assert template.format(question="Q", prediction="P", expected="E") == (
        "[question]: Q\n[response]: P\n[correct_answer]: E\nconfidence: 0|\\%| to 100|\\%|, as {json}")


@pytest.mark.parametrize("text, says", [
    ("Question: {question}\nAnswer: {answer}", "names {answer}; simple-evals simpleqa_eval.py"),
    ("Question: {question}\nGold: {target}", "never shows the answer ({predicted_answer})"),
    ("Question: {question", "malformed")])
def test_a_template_the_script_could_not_fill_is_one_line(text, says):
    with pytest.raises(UsageError, match=None) as error:
        judged_task("simpleqa").template(text, "inputs/s/dataset.toml")
    assert says in str(error.value)


@pytest.mark.parametrize("reply", [
    "extracted_final_answer: 42\ncorrect: yes\nconfidence: \u00b2",  # a digit to str.isdigit, not to int()
    "extracted_final_answer: 42\ncorrect: yes\nconfidence: " + "9" * 5000,  # past int()'s 4,300 digits
    '{"extracted_final_answer": "42", "correct": "yes", "confidence": ' + "9" * 5000 + "}",
    '{"extracted_final_answer": "42", "correct": "yes", "confidence": ' + "9" * 400 + "}",  # no float / 100
    '{"extracted_final_answer": "42", "correct": "yes", "confidence": ' + "9" * 16 + "}",  # calib_err: inf, inf²
    '{"extracted_final_answer": "42", "correct": "yes", "confidence": NaN}',
    '{"extracted_final_answer": "42", "correct": "yes", "confidence": Infinity}'])
def test_an_hle_confidence_that_is_no_readable_whole_number_is_unparsed_not_a_crash(reply):
    assert read_judge_reply(reply, "hle").label is None


@pytest.mark.parametrize("reply", ["{" * 200_000, "\n" * 200_000, " \n*" * 70_000,
                                   "confidence: 5" + " " * 100_000 + "x\n" * 2, "confidence" * 50_000])
def test_a_huge_hle_judge_reply_is_read_in_linear_time(reply):
    started = time.perf_counter()
    assert read_judge_reply(reply, "hle").label is None
    assert time.perf_counter() - started < 2.0  # the quadratic patterns took minutes on these


def test_hle_labelled_lines_keep_their_reading_across_blank_lines_and_marks():
    found = read_judge_reply("\n\n## **Extracted_Final_Answer** :\n\n  Paris  \nreasoning: r\n**correct**: 'YES'\n"
                             "confidence\n: 70 %\n", "hle")
    assert (found.label, found.reason, found.details) == (
        "yes", "r", {"extracted_final_answer": "Paris", "correct": "yes", "confidence": 70})


@pytest.mark.parametrize("text", [
    "{question} {predicted_answer:{target}}",  # a nested field the judge's render has no value for (KeyError)
    "{question} {predicted_answer!x}",  # no such conversion (ValueError when asked)
    "{question} {predicted_answer:d}",  # a number's format for a text
    "{question} {predicted_answer:>999999999}",  # a gigabyte of padding per item
    "{question} {predicted_answer!r}"])
def test_a_template_field_with_a_format_spec_or_conversion_is_one_line_not_a_failure_when_asked(text):
    with pytest.raises(UsageError) as error:
        judged_task("simpleqa").template(text, "inputs/s/dataset.toml")
    assert "{predicted_answer" in str(error.value) and "as it stands" in str(error.value)


def test_hle_figures_of_the_largest_confidence_read_stay_finite():
    reply = '{"extracted_final_answer": "42", "correct": "yes", "confidence": ' + "9" * 15 + "}"
    figures = hle_figures([read_judge_reply(reply, "hle").details] * 200, 0)
    gap = (10 ** 15 - 1) / 100 - 1  # mean confidence − accuracy in the one bin calib_err counts, of weight 100 / 200
    assert figures["calibration_error_unrounded"] == pytest.approx(100 * (0.5 * gap ** 2) ** 0.5)
