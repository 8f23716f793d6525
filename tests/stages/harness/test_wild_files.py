"""Harness files as found in the wild, read by content: gzip and zstd, JSON lines, arrays and runs of pretty-printed
objects, NaN as Python reads it, a Git LFS pointer named for what it is, broken parts set aside with their line."""
import gzip
import math

import pyarrow as pa
import pytest

from stages.harness.wild_files import (
    LFS_REASON,
    LfsPointer,
    UnreadableFile,
    load_wild_json,
    plain_name,
    read_wild_bytes,
    wild_records,
)

LINES = b'{"doc_id": 0, "acc": 1.0}\n{"doc_id": 1, "acc": NaN}\n'


def _zstd(data: bytes) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as stream:
        stream.write(data)
    return sink.getvalue().to_pybytes()


def test_compressed_files_are_told_by_their_bytes_not_their_names(tmp_path):
    for name, data in (("a.jsonl", LINES), ("b.jsonl", gzip.compress(LINES)), ("c.json", _zstd(LINES))):
        (tmp_path / name).write_bytes(data)
        assert read_wild_bytes(tmp_path / name) == LINES
    assert [plain_name(tmp_path / n) for n in ("x.jsonl.gz", "x.jsonl.ZST", "x.json")] == ["x.jsonl", "x.jsonl", "x.json"]
    (tmp_path / "broken.gz").write_bytes(gzip.compress(LINES)[:20])
    with pytest.raises(UnreadableFile, match="a broken compressed file"):
        read_wild_bytes(tmp_path / "broken.gz")


def test_a_git_lfs_pointer_is_named_for_what_it_is(tmp_path):
    (tmp_path / "samples.jsonl").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n")
    with pytest.raises(LfsPointer, match="git lfs pull"):
        read_wild_bytes(tmp_path / "samples.jsonl")
    assert "git lfs pull" in LFS_REASON


def test_lines_arrays_and_runs_of_objects_give_the_same_records_with_their_lines(tmp_path):
    (tmp_path / "lines.jsonl").write_bytes(LINES + b"{not json\n")
    (tmp_path / "array.json").write_text('[\n  {"doc_id": 0, "acc": 1.0},\n  {"doc_id": 1, "acc": NaN}\n]\n')
    (tmp_path / "run.json").write_text('{\n  "doc_id": 0,\n  "acc": 1.0\n}\n{\n  "doc_id": 1,\n  "acc": NaN\n}\n')
    lines = wild_records(tmp_path / "lines.jsonl")
    assert [line for line, _ in lines.records] == [1, 2] and math.isnan(lines.records[1][1]["acc"])
    assert len(lines.set_aside) == 1 and lines.set_aside[0].startswith(f"{tmp_path / 'lines.jsonl'}:3: ")
    for name in ("array.json", "run.json"):
        found = wild_records(tmp_path / name)
        assert [record["doc_id"] for _, record in found.records] == [0, 1] and found.set_aside == []
    assert [line for line, _ in wild_records(tmp_path / "run.json").records] == [1, 5]


def test_one_json_document_with_nan_or_a_line_that_says_why_not():
    assert math.isinf(load_wild_json(b'{"x": Infinity}', "results.json")["x"])
    with pytest.raises(UnreadableFile, match="results.json: not JSON"):
        load_wild_json(b"<html>", "results.json")
    with pytest.raises(UnreadableFile):
        load_wild_json(b"[" * 100_000, "deep.json")
