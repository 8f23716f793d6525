"""Nightly history rows: flattened metrics, the previous night, trends."""
import pytest

from stages import (
    UsageError,
    flatten_metrics,
    history_rows,
    item_score_columns,
    parse_night,
    previous_night,
    primary_trends,
)


def test_flatten_metrics_keeps_numbers_and_drops_label_tables():
    metrics = {"accuracy": 0.5, "rows": 4, "labels": {"correct": 2}, "confusion_matrix": {"T": {"T": 1}},
               "micro": {"character_f1": 0.25, "by": {"x": 1.0}}, "name": "x", "ok": True, "missing": None}
    assert flatten_metrics(metrics) == {"accuracy": 0.5, "rows": 4.0, "micro.character_f1": 0.25, "micro.by.x": 1.0}


def test_history_rows_mark_the_primary_metric():
    report = {"dataset": "d", "kind": "qa", "comparison": {"primary_metric": "f1"},
              "models": {"m": {"f1": 0.5, "exact_match": 0.25}}}
    rows = history_rows("2026-11-01", [report], "abc")
    assert [(r["metric"], r["value"], r["primary"]) for r in rows] == [("f1", 0.5, True), ("exact_match", 0.25, False)]
    assert primary_trends(rows) == {"d": {"m": {"2026-11-01": 0.5}}}


def test_item_score_columns_name_their_test():
    columns = item_score_columns("d", "qa", "m", {"id": ["a", 2], "exact_match": [1.0, 0.0], "f1": [1.0, 0.5]})
    assert set(columns["dataset"]) == {"d"} and set(columns["model"]) == {"m"}
    assert set(zip(columns["metric"], columns["test"], columns["id"], columns["value"])) == {
        ("exact_match", "binary", "a", 1.0), ("exact_match", "binary", "2", 0.0),
        ("f1", "mean", "a", 1.0), ("f1", "mean", "2", 0.5)}


def test_previous_night_and_dates():
    assert previous_night(["2026-11-01", "2026-11-03", "2026-11-05"], "2026-11-04") == "2026-11-03"
    assert previous_night(["2026-11-04"], "2026-11-04") is None
    assert parse_night("2026-11-04") == "2026-11-04"
    with pytest.raises(UsageError, match="YYYY-MM-DD"):
        parse_night("04/11/2026")
