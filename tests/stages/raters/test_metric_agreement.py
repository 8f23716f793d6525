"""Raters' yes / no labels against the automatic metrics: ROC AUC and the best threshold by hand, and rows that
name no test case set aside without counting as rated."""
from pathlib import Path

import pytest

from stages.core.records import Reject
from stages.raters.metric_agreement import best_threshold, labels_against_metrics, render_metric_agreement, roc_auc


def test_roc_auc_and_best_threshold_by_hand():
    labels, scores = [True, True, False, False], [0.9, 0.4, 0.5, 0.1]
    assert roc_auc(labels, scores) == pytest.approx(3 / 4)  # 3 of 4 positive–negative pairs ordered
    assert roc_auc([True, True], [0.1, 0.2]) is None
    assert best_threshold(labels, scores) == {"threshold": 0.4, "agreeing": 3, "accuracy": 0.75}


def test_labels_against_metrics_counts_the_rows_compared():
    scores = {("s", str(i)): {"exact_match": float(i % 2), "combined_score": i / 10} for i in range(4)}
    rows = [{"line": 2 + i, "model": "m", "scene": "s", "dialogue_index": str(i), "content_correct": bool(i % 2),
             "style_consistent": None} for i in range(4)]
    rows.append({"line": 6, "model": "m", "scene": "s", "dialogue_index": "9", "content_correct": True,
                 "style_consistent": None})
    unreadable = [Reject("sheet.csv", 7, "cannot read 'perhaps' as a yes/no label")]
    asked = []
    found = labels_against_metrics(rows, unreadable, Path("sheet.csv"), "peppa", lambda m: asked.append(m) or scores)
    assert asked == ["m"] and found["rated_rows"] == 4
    assert [(r["line"], r["reason"]) for r in found["rejects"]] == [
        (7, "cannot read 'perhaps' as a yes/no label"), (6, "no such test case in the model's B5 artifact")]
    correct = found["labels"]["content_correct"]
    assert (correct["labelled"], correct["positive"]) == (4, 2)
    assert correct["metrics"]["exact_match"]["roc_auc"] == pytest.approx(1.0)
    assert found["labels"]["style_consistent"]["labelled"] == 0
    text = render_metric_agreement(found)
    assert "content_correct: 4 labelled, 2 yes" in text and "2 row(s) set aside: line 7" in text
