import pytest

from stages.io import jsonl_blocks
from stages.io.jsonl_blocks import iter_line_blocks

CONTENT = (b'\xef\xbb\xbf{"a": 1}\n\n   \n{"a": 2}\r\n \t{"a": 3}\n\x0c\n' + b"".join(b'{"a": %d}\n' % i for i in range(4, 40))
           + b'{"a": 40}')


def _by_lines(data: bytes) -> list[tuple[int, int, bytes]]:
    """What a plain line-by-line reading numbers: (line, record position, raw) of each non-blank line."""
    found, position = [], 0
    for number, raw in enumerate(data.splitlines(keepends=True), start=1):
        raw = raw[3:] if number == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
        if raw.strip():
            found.append((number, position, raw))
            position += 1
    return found


@pytest.mark.parametrize("block_bytes", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize("rows", [None, range(0, 3), range(2, 9), range(30, 100), range(41, 50)])
def test_blocks_number_lines_and_records_as_a_line_by_line_reading(tmp_path, monkeypatch, block_bytes, rows):
    monkeypatch.setattr(jsonl_blocks, "FIRST_BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(jsonl_blocks, "BLOCK_BYTES", block_bytes)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(CONTENT)
    blocks = list(iter_line_blocks(path, rows))
    read = [line for block in blocks for line in block.lines()]
    expected = [item for item in _by_lines(CONTENT) if rows is None or item[1] in rows]
    assert read == expected
    assert sum(block.records for block in blocks) == len(expected)
    assert all(block.first_line == block_lines[0][0] and block.first_position == block_lines[0][1]
               for block in blocks if (block_lines := list(block.lines())))
    assert all(block.blank == any(not raw.strip() for raw in block.data.splitlines()) for block in blocks)


def test_an_empty_file_has_no_blocks(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    assert list(iter_line_blocks(path)) == []


@pytest.mark.parametrize("rows", [range(0, 3), range(2, 9), range(10, 20), range(30, 100), range(35, 45)])
def test_a_range_read_from_a_remembered_record_start_equals_one_read_from_the_top(tmp_path, monkeypatch, rows):
    from stages.io.readers import iter_records
    from stages.io.shards import shard_digests

    monkeypatch.setattr(jsonl_blocks, "FIRST_BLOCK_BYTES", 16)
    monkeypatch.setattr(jsonl_blocks, "BLOCK_BYTES", 16)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(CONTENT)
    top = ([line for block in iter_line_blocks(path, rows) for line in block.lines()], list(iter_records(path, rows)))
    monkeypatch.setattr(jsonl_blocks, "_STARTS", {})
    shard_digests(path, 10, 4)
    assert [start.position for start in jsonl_blocks._STARTS[str(path)]] == [0, 10, 20, 30]
    assert all(CONTENT[start.byte:].split(b"\n", 1)[0].strip()
               == _by_lines(CONTENT)[start.position][2].strip() for start in jsonl_blocks._STARTS[str(path)][1:])
    seeked = ([line for block in iter_line_blocks(path, rows) for line in block.lines()], list(iter_records(path, rows)))
    assert seeked == top and top[0]
