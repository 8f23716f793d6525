"""B6's sections from the judge: what a stage took with its recheck's flip rate, a judge without url, criteria only
when something was judged."""
import pytest

from stages.judge.report_sections import cost_section, criteria_section, stage_usage

USAGE = {"asked": 4, "reused": 1, "failed": 0, "not_judged": 0, "tokens_in": 1000, "tokens_out": 100}


def test_a_stages_usage_carries_its_flip_rate_with_the_wilson_interval():
    found = stage_usage({"judge_usage": {**USAGE, "rechecked": 4, "flips": 1}, "run_token": "r1"})
    # Wilson 95% for 1 of 4: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.96
    assert found["flip_rate"] == 0.25 and found["run_token"] == "r1"
    assert found["flip_rate_low"] == pytest.approx(0.0456, abs=1e-3)
    assert found["flip_rate_high"] == pytest.approx(0.6994, abs=1e-3)
    assert stage_usage({"run_token": "r1"}) is None
    assert "flip_rate" not in stage_usage({"judge_usage": USAGE})


def test_the_cost_section_says_a_judge_without_url_and_sums_the_stages_that_asked():
    judge = {"url": "", "price": {"input": 1.0, "output": 2.0}}
    assert cost_section(judge, {"m": None}) == {"judge_without_url": True}
    section = cost_section({**judge, "url": "http://127.0.0.1:1"}, {"m": USAGE, "n": None, "(pairwise)": USAGE})
    assert list(section) == ["judge_cost"] and list(section["judge_cost"]["stages"]) == ["m", "(pairwise)"]
    assert section["judge_cost"]["total"]["asked"] == 8
    assert section["judge_cost"]["total"]["cost"] == pytest.approx((2000 * 1.0 + 200 * 2.0) / 1e6)
    assert cost_section(None, {}) == {}


def test_criteria_are_reported_only_when_a_model_was_judged():
    judge = {"models": ["j1", "j2"]}
    assert criteria_section(judge, {}) == {}
    assert criteria_section(judge, {"m": {"correct": {"mean": 1.0}}}) == {
        "judge": {"judges": ["j1", "j2"], "models": {"m": {"correct": {"mean": 1.0}}}}}
