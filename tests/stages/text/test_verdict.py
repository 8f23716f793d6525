import pytest

from stages import normalize_verdict, strip_think


@pytest.mark.parametrize(
    "text, expected",
    [
        ("成立", "T"), ("不成立", "F"), ("该主张成立", "T"), ("该主张不成立", "F"), ("证据不足", "uncertain"),
        ("无法判断", "uncertain"), ("不确定", "uncertain"), ("正确", "T"), ("错误", "F"), ("支持", "T"),
        ("不支持", "F"), ("T", "T"), ("F", "F"), ("t", "T"), ("True", "T"), ("false", "F"), ("Yes", "T"),
        ("No", "F"), ("uncertain", "uncertain"), ("U", "uncertain"), ("SUPPORTS", "T"), ("REFUTES", "F"),
        ("NOT ENOUGH INFO", "uncertain"), ("Ｔ", "T"), ("**True**", "T"), ("答案：F", "F"),
        ("Verdict: uncertain", "uncertain"), ("The claim is not supported by the evidence.", "F"),
        ("The claim is not true.", "F"), ("It is incorrect.", "F"), ("There is not enough information.", "uncertain"),
        ("无法判断是否成立", "uncertain"),
    ],
)
def test_normalize_verdict(text, expected):
    assert normalize_verdict(text) == expected


def test_think_blocks_are_stripped():
    text = "<think>也许不成立？再想想……</think> 综合以上分析，该主张成立。"
    assert normalize_verdict(text) == "T"
    assert strip_think("<think>unfinished reasoning") .strip() == ""


def test_conclusion_sentence_wins_over_earlier_mentions():
    assert normalize_verdict("One source calls it false. Overall, the claim is true.") == "T"


@pytest.mark.parametrize("text", ["", "   ", None, "I would rather not say.", "<think>成立</think>", "42"])
def test_unrecognized_answers_are_unparsed_not_guessed(text):
    assert normalize_verdict(text) == "unparsed"
