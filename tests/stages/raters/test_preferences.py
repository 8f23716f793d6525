"""People's preferences against the judge's pairwise outcomes, checked against scikit-learn and krippendorff on the
same labels; reading preferences from a rater's CSV (either orientation of a pair, winner in any case, rows set
aside with their line)."""
import random

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_recall_fscore_support

from stages.raters.files import is_preference_file
from stages.raters.judge_agreement import MAJORITY
from stages.raters.preferences import OUTCOMES, preference_agreement, read_preferences


def _labels(seed: int, keys: list, agree: float, base: dict) -> dict:
    rng = random.Random(seed)
    return {k: base[k] if rng.random() < agree else rng.choice(OUTCOMES) for k in keys}


def test_the_judge_against_raters_and_their_majority_equals_scikit_learn_and_krippendorff():
    keys = [("a", "b", str(i)) for i in range(120)]
    truth = _labels(1, keys, 0.0, {})
    raters = {name: _labels(seed, keys[:110 if name == "r3" else 120], 0.7, truth)
              for seed, name in enumerate(("r1", "r2", "r3"), start=2)}
    judge = _labels(9, keys, 0.6, truth)
    orders = (_labels(10, keys, 0.8, judge), _labels(11, keys, 0.8, judge))
    found = preference_agreement(judge, orders, raters)
    for name, labels in raters.items():
        got = found["against"][name]
        shared = [k for k in keys if k in labels]
        people, judged = [labels[k] for k in shared], [judge[k] for k in shared]
        assert got["n"] == len(shared) and got["accuracy"] == pytest.approx(np.mean([a == b for a, b in
                                                                                    zip(people, judged)]))
        assert got["kappa"] == pytest.approx(cohen_kappa_score(judged, people))
        precision, recall, f1, _ = precision_recall_fscore_support(people, judged, average="macro", zero_division=0)
        assert (got["precision"], got["recall"], got["f1"]) == pytest.approx((precision, recall, f1))
        assert got["confusion"]["counts"] == confusion_matrix(judged, people, labels=list(OUTCOMES)).tolist()
        decisive = [(j, p) for j, p in zip(judged, people) if "tie" not in (j, p)]
        assert got["without_ties"] == {"n": len(decisive),
                                       "agreement": pytest.approx(np.mean([j == p for j, p in decisive]))}
        first = np.mean([orders[0][k] == labels[k] for k in shared])
        second = np.mean([orders[1][k] == labels[k] for k in shared])
        assert got["orders"]["first_shown_first"]["accuracy"] == pytest.approx(first)
        assert got["orders"]["mean_accuracy"] == pytest.approx((first + second) / 2)
    majority = {}
    for k in keys:
        votes = [labels[k] for labels in raters.values() if k in labels]
        top = sorted({v: votes.count(v) for v in votes}.items(), key=lambda x: -x[1])
        if len(top) == 1 or top[0][1] > top[1][1]:
            majority[k] = top[0][0]
    among = found["among_raters"]
    assert among["no_majority"] == len(keys) - len(majority)
    assert among["majority"] == {o: list(majority.values()).count(o) for o in OUTCOMES}
    assert found["against"][MAJORITY]["n"] == len(majority)
    shared = [k for k in keys if k in raters["r3"]]
    assert among["kappa"]["r1 / r3"] == pytest.approx(
        cohen_kappa_score([raters["r1"][k] for k in shared], [raters["r3"][k] for k in shared]))
    data = np.array([[OUTCOMES.index(labels[k]) if k in labels else np.nan for k in keys]
                     for labels in raters.values()])
    assert among["alpha"]["alpha"] == pytest.approx(krippendorff.alpha(reliability_data=data,
                                                                        level_of_measurement="nominal",
                                                                        value_domain=[0, 1, 2]))


def test_a_raters_csv_of_preferences_reads_either_orientation_and_sets_bad_rows_aside():
    data = ("id,model_a,model_b,winner\n1,m,n,M\n2,n,m,n\n3,m,n,TIE\n4,m,x,m\n5,m,n,maybe\n99,m,n,m\n6,m,n,\n"
            ).encode()
    assert is_preference_file(data) and not is_preference_file(b"id,model,correct\n1,m,1\n")
    found, rejects = read_preferences(data, "labels/r.csv", {("m", "n")}, {str(i) for i in range(1, 7)})
    assert found == {("m", "n", "1"): "first", ("m", "n", "2"): "second", ("m", "n", "3"): "tie"}
    assert [(r.line, r.reason) for r in rejects] == [
        (5, "the judge compared no pair m / x"), (6, "winner 'maybe' is neither m, n nor tie"),
        (7, "no item 99 among the dataset's questions")]
