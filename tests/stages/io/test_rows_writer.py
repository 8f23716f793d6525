"""A table a stage makes in slices is encoded to its rows file as the slices come: the same rows file's values and
row groups as encoding it after, a failed encoding fails the stage before anything counts as done, and no encoder
thread outlives the stage."""
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from stages.io import artifacts
from stages.io.artifacts import ROW_GROUP_ROWS, rows_file_encoding, write_artifact
from stages.io.rows_writer import encoded_rows, table_from_slices

ROWS = 3 * ROW_GROUP_ROWS + 5


def _encoders() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "rows-file-encoder"]


def _slices(rows: int = ROWS, step: int = ROW_GROUP_ROWS):
    for start in range(0, rows, step):
        ids = range(start, min(rows, start + step))
        yield pa.table({"id": [f"q{i}" for i in ids], "golds": [[f"a {i % 13}", "b"] for i in ids],
                        "f1": [i / rows for i in ids]})


def test_slices_encoded_alongside_make_the_rows_file_written_after():
    with rows_file_encoding():
        table = table_from_slices(_slices())
        data = encoded_rows(table)
    assert not _encoders()
    written = pq.ParquetFile(pa.BufferReader(data))
    after = pq.ParquetFile(pa.BufferReader(artifacts._parquet_bytes(table)))
    assert written.read().equals(pa.concat_tables(list(_slices())))
    assert written.schema_arrow.equals(after.schema_arrow)
    assert [written.metadata.row_group(g).num_rows for g in range(written.num_row_groups)] == \
        [after.metadata.row_group(g).num_rows for g in range(after.num_row_groups)] == [ROW_GROUP_ROWS] * 3 + [5]


def test_only_the_first_table_of_a_stage_and_only_within_it_is_encoded_alongside():
    outside = table_from_slices(_slices(10))
    assert encoded_rows(outside) is None and not _encoders()
    with rows_file_encoding():
        first = table_from_slices(_slices(10))
        second = table_from_slices(_slices(10))
        assert encoded_rows(second) is None
        assert pq.read_table(pa.BufferReader(encoded_rows(first))).equals(first)
        assert encoded_rows(first.slice(0)) is None  # another table object: encoded the usual way
    assert not _encoders()


def test_a_computation_failing_between_slices_leaves_no_encoder_running():
    def failing():
        yield from _slices(20, 10)
        raise ValueError("computation failed")

    with pytest.raises(ValueError, match="computation failed"), rows_file_encoding():
        table_from_slices(failing())
    assert not _encoders()


def test_a_failed_encoding_fails_the_write_and_nothing_counts_as_done(tmp_path, monkeypatch):
    def refuse(table):
        raise OSError("encoder refused")

    monkeypatch.setattr(artifacts, "_writer_options", refuse)
    path = tmp_path / "B3_normalized.json"
    with pytest.raises(OSError, match="encoder refused"), rows_file_encoding():
        table = table_from_slices(_slices())
        write_artifact(path, {"fingerprint": "f" * 64}, table, {})
    assert not _encoders()
    assert sorted(tmp_path.iterdir()) == []
