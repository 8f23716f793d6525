"""Reading judge replies: every form the judge issue names, and what must stay unparsed."""
import pytest

from stages.judge import parse_verdict
from stages.judge.scores import combine


@pytest.mark.parametrize(("reply", "scale", "label", "reason"), [
    ('{"reason": "says Paris", "score": 1}', "binary", "1", "says Paris"),
    ('Some thoughts first.\n{"verdict": "incorrect", "explanation": "wrong city"}', "correct", "INCORRECT",
     "wrong city"),
    ("Good answer overall. [[4]]", "1-5", "4", "Good answer overall."),
    ("First [[2]] then on reflection [[3]]", "1-5", "3", "First [[2]] then on reflection"),
    ("Rating: 5", "1-5", "5", None),
    ("Verdict: NOT ATTEMPTED", "correct", "NOT_ATTEMPTED", None),
    ("Verdict: CORRECT because the city matches", "correct", "CORRECT", None),
    ("CORRECT", "correct", "CORRECT", None),
    (" 0 ", "binary", "0", None),
    ('{"score": 4.0}', "1-5", "4", None),
    ("评分：3", "1-5", "3", None),
])
def test_verdict_forms(reply, scale, label, reason):
    verdict = parse_verdict(reply, scale)
    assert (verdict.label, verdict.reason) == (label, reason)


@pytest.mark.parametrize(("reply", "scale"), [
    ("It is hard to say.", "binary"),
    ("Rating: 7", "1-5"),  # off the scale
    ('{"score": 2}', "binary"),
    ('{"score": true}', "binary"),
    ("[[maybe]]", "correct"),
    ("", "1-5"),
])
def test_replies_without_a_verdict_on_the_scale_stay_unparsed(reply, scale):
    verdict = parse_verdict(reply, scale)
    assert verdict.label is None and verdict.value is None


def test_a_panel_combines_by_majority_on_categorical_scales_and_by_mean_on_ordinal_ones():
    assert combine({"a": [1.0], "b": [0.0], "c": [1.0]}, "binary") == 1.0
    assert combine({"a": [1.0], "b": [0.0]}, "binary") == 0.5  # a tie
    assert combine({"a": [1.0, 0.0, 1.0]}, "binary") == pytest.approx(2 / 3)  # one judge: the mean of its samples
    assert combine({"a": [4.0], "b": [2.0], "c": [5.0]}, "1-5") == pytest.approx(11 / 3)
    assert combine({"a": []}, "1-5") is None
