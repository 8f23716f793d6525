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


def test_the_interval_is_wilson_for_0_1_items_and_bootstrap_when_samples_or_a_split_panel_give_fractions():
    from stages.judge import item_verdicts, judge_summary, read_judge_config
    from stages.judge.asking import JudgeCall

    config = read_judge_config({"url": "http://127.0.0.1:1", "models": ["a", "b"], "criteria": ["content_correct"]},
                               "test")
    votes = {"i1": ("1", "1"), "i2": ("1", "0"), "i3": ("0", "0"), "i4": ("1", "1")}
    calls = [JudgeCall(item, "content_correct", judge, 0, "p", key=f"{item}{judge}")
             for item in votes for judge in ("a", "b")]
    records = {f"{item}{judge}": {"prediction": f'{{"score": {vote}}}'}
               for item, pair in votes.items() for judge, vote in zip(("a", "b"), pair)}
    summary = judge_summary(item_verdicts(calls, records, config), config)["content_correct"]
    assert summary["mean"] == pytest.approx((1 + 0.5 + 0 + 1) / 4)  # i2's split panel is a tie: 0.5
    assert summary["interval"]["method"].startswith("percentile bootstrap")
    agreed = {key: record for key, record in records.items() if not key.startswith("i2")}
    summary = judge_summary(item_verdicts([c for c in calls if c.item != "i2"], agreed, config), config)
    assert summary["content_correct"]["interval"]["method"] == "Wilson score"


@pytest.mark.parametrize("reply, label", [
    ("The answer is thorough.\n\nRating: [[8]]", "8"),
    ("Rating: [[7.5]]", "7.5"),
    ("first [6] then [[9]]", "9"),  # [[x]] wins over an earlier [x], as FastChat searches [[x]] first
    ("Rating: [[3]] and later [[10]]", "3"),  # FastChat takes the first match, not the last
    ("only single brackets [4]", "4"),
    ("Rating: 9 out of 10", None),  # no brackets: unparsed, never 0
    ("[[11]]", None),
    ("[[0]]", None),
    ('{"score": 8}', None),  # FastChat's rule reads no JSON
])
def test_one_to_ten_ratings_are_read_by_fastchats_rule(reply, label):
    verdict = parse_verdict(reply, "1-10")
    assert verdict.label == label
    assert verdict.value == (None if label is None else float(label))


def test_a_one_to_ten_rubric_is_accepted_and_a_one_to_five_one_reads_no_eight():
    from stages.judge import read_judge_config

    config = read_judge_config({"url": "http://127.0.0.1:1", "model": "j", "criteria": ["mt"], "rubrics": {
        "mt": {"template": "Q: {question}\nA: {prediction}\nRating: [[rating]]", "scale": "1-10"}}}, "t")
    assert config.criteria["mt"].scale == "1-10"
    assert parse_verdict("Rating: [[8]]", "1-5").label is None  # out of a 1–5 scale: unparsed, not dropped to a 5


@pytest.mark.parametrize("reply, label", [("[[A]]", "A"), ("[[B]]", "B"), ("[[TIE]]", "TIE"), ("[[C]]", "TIE")])
def test_fastchats_c_is_a_tie_on_the_preference_scale(reply, label):
    assert parse_verdict(reply, "preference").label == label
