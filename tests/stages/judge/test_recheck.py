"""Rechecking the verdict store: a share drawn by the night, and a judge distrusted when its fresh replies come from
another model or fingerprint, or when too many rechecked verdicts flipped."""
from types import SimpleNamespace

from stages.judge import read_judge_config
from stages.judge.asking import distrusted_judges, recheck_sample

CONFIG = read_judge_config({"url": "http://127.0.0.1:1", "model": "j", "criteria": ["correct"],
                            "recheck": 0.5, "recheck_max_flips": 0.2}, "t")


def test_the_recheck_share_is_drawn_by_the_night_and_never_empty():
    keys = [f"k{i}" for i in range(40)]
    first = recheck_sample(keys, 0.25, "nightly/2026-11-01")
    assert len(first) == 10 and first == recheck_sample(keys, 0.25, "nightly/2026-11-01")
    assert first != recheck_sample(keys, 0.25, "nightly/2026-11-02")
    assert recheck_sample(keys, 0.001, "n") != [] and recheck_sample(keys, 0.0, "n") == []


def _calls(n: int) -> dict:
    return {f"k{i}": SimpleNamespace(judge="j", criterion="correct") for i in range(n)}


def test_flips_beyond_the_share_distrust_the_judge_and_a_steady_one_is_kept():
    calls = _calls(10)
    reused = {key: {"prediction": "Verdict: CORRECT", "system_fingerprint": "fp"} for key in calls}
    recheck = {f"k{i}" for i in range(5)}

    def made(flipped: int) -> dict:
        return {key: {"prediction": "Verdict: INCORRECT" if i < flipped else "Verdict: CORRECT  ",
                      "system_fingerprint": "fp"} for i, key in enumerate(sorted(recheck))}

    def read(call, text):
        return text.split()[-1]

    assert distrusted_judges(calls, reused, made(1), recheck, CONFIG, read) == ({}, 1)  # 20%: not above
    found, flips = distrusted_judges(calls, reused, made(2), recheck, CONFIG, read)
    assert flips == 2 and "2 of 5 rechecked verdicts flipped (40%, above recheck_max_flips 20%)" in found["j"]


def test_a_server_that_says_nothing_of_itself_is_judged_by_its_verdicts_alone():
    calls = _calls(4)
    reused = {key: {"prediction": "Verdict: CORRECT"} for key in calls}
    made = {"k0": {"prediction": "Verdict: CORRECT", "system_fingerprint": "new"}}
    assert distrusted_judges(calls, reused, made, {"k0"}, CONFIG, None) == ({}, 0)
