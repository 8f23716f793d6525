"""count_records as sharding asks it: exact above the shard size, not counted at or below it."""
import pytest

from stages.io import shards
from stages.io.shards import count_records, shard_count


@pytest.mark.parametrize(("content", "records"), [
    (b'{"a": 1}\n' * 6, 6), (b'{"a": 1}\n' * 6 + b'{"a": 1}', 7), (b'{"a": 1}\n\n  \n' * 3, 3),
    (b'\n'.join([b'{"a": 1}'] * 5), 5), (b"", 0),
])
def test_records_are_counted_exactly_without_a_threshold(tmp_path, content, records):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(content)
    assert count_records(path) == records


def test_a_file_with_no_more_lines_than_the_threshold_is_not_counted(tmp_path, monkeypatch):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"question": "what is it?"}\n' * 4)
    monkeypatch.setattr(shards, "_count", lambda path, suffix: pytest.fail("counted"))
    assert count_records(path, at_least=4) == 0
    path.write_bytes(b'{"question": "what is it?"}\n' * 3 + b'{"question": "and this?"}')
    assert count_records(path, at_least=4) == 0


def test_more_lines_than_the_threshold_are_counted_as_records(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"question": "what is it?"}\n\n \n' * 3)  # 9 lines, 3 records
    assert count_records(path, at_least=4) == 3 and shard_count(3, 4) == 1
    path.write_bytes(b'{"question": "what is it?"}\n' * 5)
    assert count_records(path, at_least=4) == 5 and shard_count(5, 4) == 2


def test_the_line_count_is_remembered_for_this_version_of_the_file(tmp_path, monkeypatch):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"question": "what is it?"}\n' * 4)
    assert count_records(path, at_least=4) == 0
    monkeypatch.setattr(shards, "_more_lines_than", lambda path, limit: pytest.fail("read again"))
    assert count_records(path, at_least=4) == 0
