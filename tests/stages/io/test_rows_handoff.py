"""rows_handoff: a rows file this process wrote is read back as the table it wrote, never once the file changed."""
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from stages.io import artifacts, rows_handoff
from stages.io.artifacts import (
    INLINE_ROW_LIMIT,
    artifact_path,
    read_artifact_json,
    read_rows_at,
    read_rows_with_ids,
    read_table,
    write_artifact,
)
from stages.io.rows_handoff import forget, hand_off, handed_off

ROWS = INLINE_ROW_LIMIT + 10


def _table(offset=0):
    return pa.table({"id": [f"q{i}" for i in range(ROWS)], "f1": [(i + offset) / ROWS for i in range(ROWS)],
                     "golds": [["a", f"b{i + offset}"] for i in range(ROWS)]})


def _written(tmp_path, table, fingerprint="ab"):
    path = artifact_path(tmp_path, "B4", "d", "m")
    write_artifact(path, {"stage": "B4", "fingerprint": fingerprint * 32}, table, {})
    return path, path.with_name(read_artifact_json(path)["rows_file"])


@pytest.fixture(autouse=True)
def _nothing_kept():
    rows_handoff._KEPT.clear()
    yield
    rows_handoff._KEPT.clear()


def test_a_rows_file_just_written_is_read_back_without_decoding_it(tmp_path, monkeypatch):
    table = _table()
    path, _ = _written(tmp_path, table)
    monkeypatch.setattr(artifacts, "_whole_file", lambda *_: pytest.fail("the rows file was decoded again"))
    assert read_table(path).equals(table)
    assert read_table(path, ["golds", "id"]).equals(table.select(["golds", "id"]))
    assert read_rows_at(path, [1, ROWS - 1], ["id", "f1"]) == {"id": ["q1", f"q{ROWS - 1}"],
                                                               "f1": [1 / ROWS, (ROWS - 1) / ROWS]}
    assert read_rows_with_ids(path, ["q3", "q0"], ["id", "golds"]).to_pylist() == [
        {"id": "q0", "golds": ["a", "b0"]}, {"id": "q3", "golds": ["a", "b3"]}]


def test_a_rows_file_replaced_since_is_read_from_disk(tmp_path):
    path, rows_file = _written(tmp_path, _table())
    replacement = _table(offset=7)
    pq.write_table(replacement, rows_file)  # another process wrote the same name (a new file moved into place)
    assert read_table(path).column("f1").to_pylist() == replacement.column("f1").to_pylist()


def _parquet(rows_file, table):
    """The table written to `rows_file` as Parquet; its bytes."""
    pq.write_table(table, rows_file)
    return rows_file.read_bytes()


def test_a_rows_file_rewritten_in_place_at_its_size_and_mtime_is_read_from_disk(tmp_path):
    rows_file = tmp_path / "rows.parquet"
    data = _parquet(rows_file, _table())
    before = os.stat(rows_file)
    hand_off(rows_file, _table(), data)
    assert handed_off(rows_file) is not None
    with open(rows_file, "r+b") as handle:  # same inode, same size, then its mtime put back
        handle.write(bytes(reversed(data)))
    os.utime(rows_file, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert handed_off(rows_file) is None


def test_a_file_that_does_not_hold_the_bytes_written_is_not_handed_off(tmp_path):
    rows_file = tmp_path / "rows.parquet"
    _parquet(rows_file, _table(offset=1))
    other = tmp_path / "other.parquet"
    hand_off(rows_file, _table(), _parquet(other, _table()))  # another table's bytes: another footer
    assert handed_off(rows_file) is None
    rows_file.write_bytes(b"not parquet")
    hand_off(rows_file, _table(), b"not parquet")
    assert handed_off(rows_file) is None


def test_a_removed_rows_file_is_not_handed_off(tmp_path):
    rows_file = tmp_path / "rows.parquet"
    hand_off(rows_file, _table(), _parquet(rows_file, _table()))
    assert handed_off(rows_file) is not None
    rows_file.unlink()
    assert handed_off(rows_file) is None


def test_a_table_whose_file_reads_back_otherwise_is_not_kept(tmp_path):
    rows_file = tmp_path / "rows.parquet"
    table = _table()
    written = table.cast(pa.schema([("id", pa.large_string()), ("f1", pa.float64()), ("golds", pa.list_(pa.string()))]))
    hand_off(rows_file, table, _parquet(rows_file, written))
    assert handed_off(rows_file) is None


def test_columns_missing_or_named_twice_are_left_to_the_file(tmp_path):
    rows_file = tmp_path / "rows.parquet"
    hand_off(rows_file, _table(), _parquet(rows_file, _table()))
    assert handed_off(rows_file, ["f1", "id"]).column_names == ["f1", "id"]
    assert handed_off(rows_file, ["id", "nope"]) is None
    assert handed_off(rows_file, ["id", "id"]) is None


def test_the_oldest_tables_go_when_the_kept_bytes_pass_the_limit(tmp_path, monkeypatch):
    table = _table()
    monkeypatch.setattr(rows_handoff, "HANDOFF_BYTES", int(table.nbytes * 2.5))
    files = [tmp_path / f"rows{i}.parquet" for i in range(3)]
    for rows_file in files:
        hand_off(rows_file, table, _parquet(rows_file, table))
    assert [handed_off(rows_file) is not None for rows_file in files] == [False, True, True]


def test_a_stale_rows_file_removed_by_a_new_write_is_forgotten(tmp_path):
    _, first = _written(tmp_path, _table(), fingerprint="ab")
    _, second = _written(tmp_path, _table(offset=3), fingerprint="cd")
    assert not first.exists() and handed_off(first) is None and handed_off(second) is not None
    forget(second)
    assert handed_off(second) is None
