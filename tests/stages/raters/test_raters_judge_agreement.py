"""The judge against raters: on ordinal criteria Spearman, Kendall τ-b and Pearson between the judge's 1–5 values and
the raters' mean, per (model, item) and per model, equal to scipy on the same numbers; a raters' file read by id or by
a dialogue's scene and index, rows of other models or items set aside with their line."""
import random

import pytest
from scipy.stats import kendalltau, pearsonr, spearmanr

from stages.judge.criteria import BUILT_IN, resolve_criteria
from stages.raters.judge_agreement import agreement_with_raters, judge_agreement, ordinal_correlations


def test_item_and_system_correlations_equal_scipy():
    rng = random.Random(4)
    units = [(model, str(i)) for model in ("m1", "m2", "m3", "m4") for i in range(30)]
    judge = {u: str(rng.randint(1, 5)) for u in units}
    raters = {"r1": {u: str(rng.randint(1, 5)) for u in units},
              "r2": {u: str(rng.randint(1, 5)) for u in units[:100]}}
    found = ordinal_correlations(judge, raters, "1-5")
    mean = {u: sum(int(r[u]) for r in raters.values() if u in r) / sum(u in r for r in raters.values()) for u in units}
    ours, theirs = [int(judge[u]) for u in units], [mean[u] for u in units]
    assert found["items"]["n"] == 120
    assert found["items"]["spearman"] == pytest.approx(spearmanr(ours, theirs).statistic)
    assert found["items"]["kendall"] == pytest.approx(kendalltau(ours, theirs).statistic)
    assert found["items"]["pearson"] == pytest.approx(pearsonr(ours, theirs).statistic)
    systems = [(sum(int(judge[u]) for u in units if u[0] == m) / 30, sum(mean[u] for u in units if u[0] == m) / 30)
               for m in ("m1", "m2", "m3", "m4")]
    assert found["systems"]["n"] == 4
    assert found["systems"]["pearson"] == pytest.approx(pearsonr(*zip(*systems)).statistic)


def test_only_ordinal_criteria_get_correlations():
    criteria = resolve_criteria(["score_1_5", "correct"], {}, "dataset.toml")
    assert criteria["correct"] is BUILT_IN["correct"]
    units = [("m", str(i)) for i in range(5)]
    judge = {"score_1_5": {u: str(1 + i) for i, u in enumerate(units)},
             "correct": {u: "CORRECT" for u in units}}
    raters = {"r": {"score_1_5": {u: str(5 - i) for i, u in enumerate(units)}, "correct": {u: "CORRECT" for u in units}}}
    found = judge_agreement(judge, raters, {name: c.scale for name, c in criteria.items()})
    assert found["score_1_5"]["correlations"]["items"]["spearman"] == pytest.approx(-1.0)
    assert found["correct"]["correlations"] is None


def test_the_judge_against_a_raters_file_keyed_by_id_or_by_scene_and_dialogue_index():
    judged = {"content_correct": {("m", "s#0"): ("1", "fine"), ("m", "s#1"): ("0", "off"), ("m", "s#2"): (None, None)}}
    labels = ("model,scene,dialogue_index,content_correct\nm,s,0,yes\nm,s,1,yes\nm,s,2,no\nother,s,0,yes\n"
              "m,t,9,no\n").encode()
    questions = {"id": ["s#0", "s#1", "s#2"], "scene": ["s", "s", "s"], "dialogue_index": [0, 1, 2]}
    found, raters, rejects = agreement_with_raters(judged, {"alice": ("alice.csv", labels)},
                                                   {"content_correct": "binary"}, {"m"}, questions)
    assert raters == {"alice": {"content_correct": {("m", "s#0"): "1", ("m", "s#1"): "1", ("m", "s#2"): "0"}}}
    assert [(r.line, r.reason) for r in rejects] == [(5, "no model other among the dataset's"),
                                                     (6, "no item (no id) among the dataset's questions")]
    against = found["content_correct"]["overall"]["against"]["alice"]
    assert (against["n"], against["agreement"]) == (2, 0.5)  # the judge gave no label on s#2
    preferences_only = {"bob": ("bob.csv", b"id,model_a,model_b,winner\n")}
    assert agreement_with_raters(judged, preferences_only, {"content_correct": "binary"}, {"m"}, questions) == \
        ({}, {}, [])
