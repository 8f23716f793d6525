"""A leaderboard's verdicts: the recorded ones first, only what they lack asked of the [judge], each (item, turn) the
mean of its judges' values; calls keyed per judge model and sample as the judge's own calls are."""
from stages.judge.config import read_judge_config
from stages.leaderboards.asking import TurnCall, asked_values, judged_turn_calls
from tests.stages.leaderboards.scoring_double import ScoringDouble

CALLS = [TurnCall("m", item, turn, "single-v1", None, f"rate {item}/{turn}") for item in ("1", "2") for turn in (1, 2)]


def _scoring(tmp_path, judge):
    return ScoringDouble("m", {"name": "mt_bench"}, {}, {}, tmp_path, judge=judge)


def test_recorded_verdicts_first_and_only_the_rest_asked(tmp_path):
    scoring = _scoring(tmp_path, lambda call: None if call.item == "2" and call.turn == 2 else "[[7]]")
    header, values, replied, failures = asked_values(scoring, CALLS, lambda text: float(text.strip("[]")),
                                                     {("1", 1): 9.0, ("1", 2): None, ("9", 1): 1.0})
    assert [(c.item, c.turn) for c in scoring.asked] == [("2", 1), ("2", 2)]
    assert values == {("1", 1): 9.0, ("2", 1): 7.0}
    assert replied == {("1", 1), ("1", 2), ("2", 1)} and failures == 1 and header == {"judge": {"asked": 2}}


def test_without_a_judge_only_the_recorded_verdicts_count(tmp_path):
    scoring = _scoring(tmp_path, None)
    _, values, replied, failures = asked_values(scoring, CALLS, float, {("2", 2): 4.0})
    assert (values, replied, failures, scoring.asked) == ({("2", 2): 4.0}, {("2", 2)}, 0, [])


def test_each_call_is_asked_of_every_judge_and_sample_under_its_own_key():
    config = read_judge_config({"url": "http://127.0.0.1:1", "models": ["j1", "j2"], "samples": 2}, "d.toml",
                               leaderboard=True)
    calls = judged_turn_calls(CALLS[:1], config)
    assert [(c.judge, c.sample) for c in calls] == [("j1", 0), ("j1", 1), ("j2", 0), ("j2", 1)]
    assert len({c.key for c in calls}) == 4
