"""Verdict reading, table-driven: public vocabularies, replies in English and Chinese, graded verdicts left unparsed."""
import pytest

from stages import normalize_verdict, read_verdict, strip_think
from stages.text.verdict import VerdictReader, label_map_problem

VOCABULARIES = [  # (label as the dataset writes it, verdict)
    # FEVER, FEVEROUS, VitaminC
    ("SUPPORTS", "T"), ("REFUTES", "F"), ("NOT ENOUGH INFO", "uncertain"),
    # HoVer, with its underscore and as people retype it
    ("SUPPORTED", "T"), ("NOT_SUPPORTED", "F"), ("not_supported", "F"), ("NOT-SUPPORTED", "F"), ("Not Supported", "F"),
    # ExFEVER, SciFact
    ("SUPPORT", "T"), ("REFUTE", "F"), ("NEI", "uncertain"), ("NOT_ENOUGH_INFO", "uncertain"), ("CONTRADICT", "F"),
    # AVeriTeC
    ("Supported", "T"), ("Refuted", "F"), ("Not Enough Evidence", "uncertain"),
    # seed 002's letters and words, and their Chinese forms
    ("T", "T"), ("F", "F"), ("U", "uncertain"), ("t", "T"), ("True", "T"), ("false", "F"), ("Yes", "T"), ("No", "F"),
    ("uncertain", "uncertain"), ("成立", "T"), ("不成立", "F"), ("证据不足", "uncertain"), ("无法判断", "uncertain"),
    ("不确定", "uncertain"), ("正确", "T"), ("错误", "F"), ("支持", "T"), ("不支持", "F"), ("属实", "T"),
    ("不属实", "F"), ("證據不足", "uncertain"), ("錯誤", "F"), ("Ｔ", "T"),
]

REPLIES = [  # (a model's reply, verdict, rule)
    ("**True**", "T", "exact"),
    ("答案：F", "F", "labeled_exact"),
    ("Verdict: uncertain", "uncertain", "labeled_exact"),
    ("Final answer: NOT_SUPPORTED", "F", "labeled_exact"),
    ("结论：证据不足。", "uncertain", "labeled_exact"),
    ("Answer: t", "T", "labeled_exact"),
    ("The claim is not supported by the evidence.", "F", "keyword_reply"),
    ("The claim is not true.", "F", "keyword_reply"),
    ("It is incorrect.", "F", "keyword_reply"),
    ("There is not enough information.", "uncertain", "keyword_reply"),
    ("无法判断是否成立", "uncertain", "keyword_reply"),
    ("该主张成立", "T", "keyword_reply"),
    ("该主张不成立", "F", "keyword_reply"),
    ("One source calls it false. Overall, the claim is true.", "T", "keyword_final_sentence"),
    ("<think>也许不成立？再想想……</think> 综合以上分析，该主张成立。", "T", "keyword_reply"),
    ("The evidence is mixed. Overall, the claim is supported.", "T", "keyword_final_sentence"),
    ("<think>SUPPORTS?</think>REFUTES", "F", "exact"),
    ("基本事实表明，该主张成立。", "T", "keyword_reply"),
]

UNPARSED = [  # (reply, rule): graded verdicts, other vocabularies, silence — never T or F
    ("half-true", "graded"), ("Half True", "graded"), ("mostly true", "graded"), ("mostly-false", "graded"),
    ("barely-true", "graded"), ("partly", "graded"), ("MIXTURE", "graded"), ("partially correct", "graded"),
    ("The claim is mostly true.", "graded"), ("It is not entirely accurate.", "graded"),
    ("Verdict: mostly true", "graded"), ("部分成立", "graded"), ("基本属实", "graded"), ("部分正确", "graded"),
    ("该说法的大部分内容成立", "graded"), ("半真半假", "graded"), ("不完全正确", "graded"),
    ("Conflicting Evidence/Cherrypicking", "graded"),
    ("entailment", "no_verdict"), ("neutral", "no_verdict"), ("pants-fire", "no_verdict"),
    ("I would rather not say.", "no_verdict"), ("42", "no_verdict"), ("<think>成立</think>", "empty"),
    ("", "empty"), ("   ", "empty"), (None, "missing"),
]


@pytest.mark.parametrize("label, expected", VOCABULARIES)
def test_public_vocabularies_read_without_configuration(label, expected):
    assert read_verdict(label) == read_verdict(label)  # remembered readings are stable
    assert (normalize_verdict(label), read_verdict(label).rule) == (expected, "exact")


@pytest.mark.parametrize("reply, expected, rule", REPLIES)
def test_replies(reply, expected, rule):
    reading = read_verdict(reply)
    assert (reading.label, reading.rule) == (expected, rule)


@pytest.mark.parametrize("reply, rule", UNPARSED)
def test_graded_and_unknown_verdicts_are_unparsed_not_guessed(reply, rule):
    reading = read_verdict(reply)
    assert (reading.label, reading.rule) == ("unparsed", rule)


def test_think_blocks_are_stripped():
    assert strip_think("<think>unfinished reasoning").strip() == ""


def test_label_map_onto_the_three_verdicts():
    nli = {"entailment": "SUPPORTS", "contradiction": "F", "neutral": "NOT ENOUGH INFO"}
    reader = VerdictReader(nli)
    assert reader.classes == ("T", "F", "uncertain")
    assert [reader.label(x) for x in ("Entailment", "CONTRADICTION", "neutral", "SUPPORTS", "成立")] == [
        "T", "F", "uncertain", "T", "T"]
    assert read_verdict("Answer: neutral", nli).rule == "labeled_label_map"


def test_label_map_with_classes_of_its_own():
    liar = {name: name for name in ("true", "mostly-true", "half-true", "barely-true", "false", "pants-fire")}
    reader = VerdictReader(liar)
    # a class spelled as a built-in verdict is that verdict; the others are classes of their own, in map order
    assert reader.classes == ("T", "mostly-true", "half-true", "barely-true", "F", "pants-fire")
    assert reader.label("Mostly True") == "mostly-true"
    assert reader.label("pants_fire") == "pants-fire"
    assert reader.label("T") == "T"
    # a built-in reading outside the dataset's classes is unparsed, not a class the dataset does not have
    two = VerdictReader({"SUPPORTED": "SUPPORTED", "NOT_SUPPORTED": "not supported", "yes": "ok"})
    assert two.classes == ("T", "F", "ok")
    assert two.read("NOT ENOUGH INFO").label == "unparsed"
    assert two.read("NOT ENOUGH INFO").rule == "not_a_class (uncertain)"


def test_a_graded_label_reads_only_through_the_label_map():
    assert normalize_verdict("half-true") == "unparsed"
    assert normalize_verdict("half-true", {"half-true": "F"}) == "F"


@pytest.mark.parametrize("value, problem", [
    ({"entailment": "T"}, None),
    ({}, None),
    ("T", "must be a table"),
    ({"entailment": 1}, "must be a table"),
    ({"entailment": ""}, "must be a table"),
    ({"NOT_SUPPORTED": "F", "not supported": "T"}, "read alike"),
])
def test_label_map_is_checked(value, problem):
    found = label_map_problem(value)
    assert (found is None) if problem is None else (problem in found)
