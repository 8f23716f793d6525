"""Samples files on B2's Arrow path: the same rows as record by record, and record by record whenever a record or a
reply would be set aside."""
from functools import partial

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from stages import get_kind
from stages.core.records import as_columns
from stages.io.columnar_samples import load_samples_columnar
from stages.io.loading import _prediction_row
from stages.io.samples import load_samples

FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}


def _both(path, fields=FIELDS, rows=None, repeats=False):
    kind = get_kind("qa")
    types = kind.prediction_types()
    columnar = load_samples_columnar(path, fields, rows, types, kind.prediction_readers, repeats)
    by_record = load_samples(path, fields, rows, types, partial(_prediction_row, fields=fields, kind=kind), repeats)
    return columnar, by_record


def _rows(loaded):
    columns = as_columns(loaded.columns)
    return list(zip(columns["id"], columns["sample"], columns["prediction"], columns["line"], columns["confidence"]))


def test_lists_of_replies_become_one_row_per_reply(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "samples": ["x", "y"], "confidence": 0.5, "prediction": "ignored"}\n'
                    '{"id": "b", "samples": ["z"]}\n{"id": "c", "samples": ["u", "v", "w"]}\n')
    columnar, by_record = _both(path)
    assert _rows(columnar) == [("a", 0, "x", 1, 0.5), ("a", 1, "y", 1, 0.5), ("b", 0, "z", 2, None),
                               ("c", 0, "u", 3, None), ("c", 1, "v", 3, None), ("c", 2, "w", 3, None)]
    assert columnar.columns.equals(by_record.columns) and columnar.counts() == by_record.counts()
    assert columnar.counts() == {"input_rows": 3, "accepted": 6, "rejected": 0}
    part, by_record = _both(path, rows=range(1, 3))
    assert [row[:2] for row in _rows(part)] == [("b", 0), ("c", 0), ("c", 1), ("c", 2)]
    assert part.columns.equals(by_record.columns)


def test_a_named_samples_field_and_a_named_prediction_field(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "outputs": ["x", "y"], "answer": "not this"}\n')
    fields = {**FIELDS, "samples_field": "outputs", "prediction_field": "answer"}
    columnar, by_record = _both(path, fields)
    assert as_columns(columnar.columns)["prediction"] == ["x", "y"]
    assert columnar.columns.equals(by_record.columns)


def test_sample_numbers_and_repeated_ids(tmp_path):
    numbered = tmp_path / "numbered.jsonl"
    numbered.write_text('{"id": "a", "sample": 1, "prediction": "y"}\n{"id": "a", "sample": 0, "prediction": "x"}\n')
    columnar, by_record = _both(numbered)
    assert [row[:3] for row in _rows(columnar)] == [("a", 1, "y"), ("a", 0, "x")]
    assert columnar.columns.equals(by_record.columns)
    repeated = tmp_path / "repeated.jsonl"
    repeated.write_text('{"id": "a", "prediction": "1"}\n{"id": "b", "prediction": "2"}\n'
                        '{"id": "a", "prediction": "3"}\n{"id": "a", "prediction": "4"}\n')
    columnar, by_record = _both(repeated, repeats=True)
    assert [row[:3] for row in _rows(columnar)] == [("a", 0, "1"), ("b", 0, "2"), ("a", 1, "3"), ("a", 2, "4")]
    assert columnar.columns.equals(by_record.columns)


def test_parquet_lists(tmp_path):
    pq.write_table(pa.table({"id": ["a", "b"], "Samples": [["x", "y"], ["z"]]}), tmp_path / "p.parquet")
    columnar, by_record = _both(tmp_path / "p.parquet")
    assert [row[:4] for row in _rows(columnar)] == [("a", 0, "x", 1), ("a", 1, "y", 1), ("b", 0, "z", 2)]
    assert columnar.columns.equals(by_record.columns)


@pytest.mark.parametrize("text", [
    '{"id": "a", "samples": ["1", null]}\n',  # a reply to set aside
    '{"id": "a", "samples": []}\n',  # a record to set aside
    '{"id": "a", "samples": ["x"]}\n{"id": "a", "samples": ["y"]}\n',  # (a, 0) twice
    '{"id": "a", "sample": -1, "prediction": "y"}\n',
    '{"id": "a", "samples": ["x"]}\n{"samples": ["y"]}\n',  # no id
])
def test_what_would_be_set_aside_goes_record_by_record(tmp_path, text):
    path = tmp_path / "p.jsonl"
    path.write_text(text)
    columnar, by_record = _both(path)
    assert columnar is None and by_record.rejects


def test_numbered_records_beside_unnumbered_ones_go_record_by_record(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "sample": 1, "prediction": "y"}\n{"id": "b", "prediction": "x"}\n')
    columnar, by_record = _both(path)
    assert columnar is None and [row[:2] for row in _rows(by_record)] == [("a", 1), ("b", 0)]


def test_braces_inside_replies_do_not_count_as_nesting(tmp_path):
    """A LaTeX reply holds hundreds of braces in its text: the block still takes the Arrow path (only brackets
    outside strings nest), while a record that does nest too deep goes record by record and is set aside."""
    reply = "\\\\frac{1}{2}" * 300
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "samples": ["' + reply + '", "x"]}\n')
    columnar, by_record = _both(path)
    assert columnar is not None and columnar.columns.equals(by_record.columns)
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"id": "a", "samples": ["x"], "extra": ' + "[" * 600 + "]" * 600 + "}\n")
    columnar, by_record = _both(deep)
    assert columnar is None and "deeper than" in by_record.rejects[0].reason
