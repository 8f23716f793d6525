"""Predictions with several replies per item load as (id, sample) rows; what cannot be one is set aside with its line."""
import pyarrow as pa
import pyarrow.parquet as pq

from stages import get_kind, load_predictions
from stages.core.records import as_columns

FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}


def _load(tmp_path, text, fields=FIELDS, name="p.jsonl"):
    path = tmp_path / name
    path.write_text(text)
    return load_predictions(path, fields, None, get_kind("math"))


def test_a_list_of_replies_and_sample_numbers_become_rows(tmp_path):
    loaded = _load(tmp_path, '{"id": "a", "samples": ["1", "2", null]}\n'
                             '{"id": "b", "sample": 1, "prediction": "y"}\n'
                             '{"id": "b", "sample": "0", "prediction": "x"}\n'
                             '{"id": "b", "sample": 1, "prediction": "again"}\n'
                             '{"id": "c", "prediction": "no number: sample 0"}\n'
                             '{"id": "d", "samples": []}\n'
                             '{"id": "e", "sample": -1, "prediction": "z"}\n')
    columns = as_columns(loaded.columns)
    assert list(zip(columns["id"], columns["sample"], columns["prediction"], columns["line"])) == [
        ("a", 0, "1", 1), ("a", 1, "2", 1), ("b", 1, "y", 2), ("b", 0, "x", 3), ("c", 0, "no number: sample 0", 5)]
    assert [(r.line, r.reason) for r in loaded.rejects] == [
        (1, "sample 2: no prediction (looked for prediction, final_answer, predicted_label, response, output, answer, completion)"),
        (4, "sample 1: duplicate sample 1 of id 'b' (first seen at line 2)"),
        (6, "no replies ('samples' is an empty list)"),
        (7, "wrong type: sample -1 is not a whole number from 0")]
    assert loaded.counts() == {"input_rows": 7, "accepted": 5, "rejected": 4}


def test_samples_field_names_the_list_and_parquet_reads_too(tmp_path):
    loaded = _load(tmp_path, '{"id": "a", "outputs": ["x", "y"]}\n', {**FIELDS, "samples_field": "outputs"})
    assert as_columns(loaded.columns)["prediction"] == ["x", "y"]
    pq.write_table(pa.table({"id": ["a", "a"], "sample": [1, 0], "prediction": ["p1", "p0"]}), tmp_path / "p.parquet")
    loaded = load_predictions(tmp_path / "p.parquet", FIELDS, None, get_kind("math"))
    assert as_columns(loaded.columns)["sample"] == [1, 0] and not loaded.rejects
    pq.write_table(pa.table({"id": ["a"], "Samples": [["x", "y"]]}), tmp_path / "list.parquet")
    assert as_columns(load_predictions(tmp_path / "list.parquet", FIELDS, None, get_kind("math")).columns)[
        "prediction"] == ["x", "y"]
    pq.write_table(pa.table({"id": ["a", "b"], "prediction": ["p", "q"]}), tmp_path / "plain.parquet")
    assert "sample" not in load_predictions(tmp_path / "plain.parquet", FIELDS, None, get_kind("math")).columns.column_names


def test_a_file_without_samples_loads_as_before(tmp_path):
    loaded = _load(tmp_path, '{"id": "a", "prediction": "x"}\n{"id": "a", "prediction": "y"}\n')
    assert "sample" not in loaded.columns.column_names
    assert loaded.rejects[0].reason == "duplicate id 'a' (first seen at line 1)"
