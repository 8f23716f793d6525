import pytest

from stages import classification_report


def test_seed_002_example_matrix_and_metrics():
    # The 10-sample example of seed 002: rows = predicted, columns = true.
    pairs = [("T", "T")] * 2 + [("T", "F"), ("T", "uncertain"), ("F", "T")] + [("F", "F")] * 2
    pairs += [("uncertain", "F")] + [("uncertain", "uncertain")] * 2
    predicted, gold = zip(*pairs)
    report = classification_report(list(gold), list(predicted), ("T", "F", "uncertain"))
    assert report["confusion_matrix"]["T"] == {"T": 2, "F": 1, "uncertain": 1}
    assert report["confusion_matrix"]["F"] == {"T": 1, "F": 2, "uncertain": 0}
    assert report["confusion_matrix"]["uncertain"] == {"T": 0, "F": 1, "uncertain": 2}
    per = report["per_class"]
    assert per["T"]["precision"] == pytest.approx(0.5) and per["T"]["recall"] == pytest.approx(2 / 3)
    assert per["T"]["f1"] == pytest.approx(0.5714, abs=1e-4)
    assert per["F"]["precision"] == pytest.approx(2 / 3) and per["F"]["recall"] == pytest.approx(0.5)
    assert per["uncertain"]["f1"] == pytest.approx(2 / 3)
    assert [per[c]["support"] for c in ("T", "F", "uncertain")] == [3, 4, 3]
    assert report["accuracy"] == pytest.approx(0.6)


def test_unparsed_is_its_own_class_and_matches_sklearn():
    sklearn = pytest.importorskip("sklearn.metrics")
    gold = ["T", "F", "F", "uncertain", "T", "F"]
    predicted = ["T", "unparsed", "F", "T", "T", "uncertain"]
    report = classification_report(gold, predicted, ("T", "F", "uncertain", "unparsed"))
    assert report["labels"] == ["T", "F", "uncertain", "unparsed"]
    assert report["macro_avg"]["f1"] == pytest.approx(sklearn.f1_score(gold, predicted, average="macro", zero_division=0))
    assert report["weighted_avg"]["f1"] == pytest.approx(
        sklearn.f1_score(gold, predicted, average="weighted", zero_division=0)
    )
    assert report["accuracy"] == pytest.approx(3 / 6)


def test_empty_input_has_undefined_accuracy():
    assert classification_report([], [])["accuracy"] is None
