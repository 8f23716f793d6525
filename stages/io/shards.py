"""Shards: a dataset split into fixed ranges of record positions (shard i = records [i·S, (i+1)·S)), so that B1–B5
run per range and memory follows the shard size. A JSON-lines file is fingerprinted per range, so appending rows
changes only the last shards; other formats are fingerprinted whole."""
from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import orjson

from .file_facts import file_fact
from .jsonl_blocks import BLOCK_BYTES, RecordStart, iter_line_blocks, line_bounds, remember_record_starts
from .storage import content_digest, is_local, open_binary, read_bytes_or_none, write_bytes_atomic

if TYPE_CHECKING:
    from pathlib import Path

    from upath import UPath

T = TypeVar("T")
_REMEMBERED: dict[tuple, object] = {}  # facts about remote files, by content digest, within the process


def shard_range(index: int, shard_rows: int) -> range:
    """Record positions (0-based) of shard `index`."""
    return range(index * shard_rows, (index + 1) * shard_rows)


def shard_count(records: int, shard_rows: int) -> int:
    return max(1, math.ceil(records / shard_rows))


def _remembered(path: Path | UPath, name: str, compute: Callable[[], T]) -> T:
    """A fact about a file, computed once per version of it (local: see file_facts; remote: per content digest)."""
    if is_local(path):
        return file_fact(path, name, compute)
    key = (name, str(path), content_digest(path))
    if key not in _REMEMBERED:
        _REMEMBERED[key] = compute()
    return _REMEMBERED[key]


def _size(path: Path | UPath) -> int:
    return os.stat(path).st_size if is_local(path) else int(path.fs.info(path.path)["size"])


def count_records(path: Path | UPath, at_least: int | None = None) -> int:
    """Records in a file, as the readers number them (a JSON line each, a Parquet row each, a CSV row each…).
    With `at_least`, a file that cannot hold more records than that gives 0 uncounted: its size says so, or (JSON
    lines) its number of newlines."""
    suffix = path.suffix.lower()
    if at_least is not None and suffix in (".jsonl", ".csv") and _size(path) < 2 * at_least:
        return 0
    if at_least is not None and suffix == ".jsonl" and not _remembered(
            path, f"more_lines_than:{at_least}", lambda: _more_lines_than(path, at_least)):
        return 0
    return _remembered(path, "records", lambda: _count(path, suffix))


def _more_lines_than(path: Path | UPath, limit: int) -> bool:
    """Whether the file has more than `limit` lines (newlines counted only until they pass it)."""
    import numpy as np

    lines, last = 0, b"\n"
    with open_binary(path) as handle:
        while chunk := handle.read(BLOCK_BYTES):
            lines, last = lines + int(np.count_nonzero(np.frombuffer(chunk, np.uint8) == 10)), chunk[-1:]
            if lines > limit:
                return True
    return lines + (last != b"\n") > limit


def _count(path: Path | UPath, suffix: str) -> int:
    if suffix == ".jsonl":
        return sum(block.records for block in iter_line_blocks(path))
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        with open_binary(path) as handle:
            return pq.ParquetFile(handle).metadata.num_rows
    from .readers import iter_records

    return sum(1 for _ in iter_records(path))


def shard_digests(path: Path | UPath, shard_rows: int, shards: int, shared: UPath | None = None) -> list[str]:
    """A digest per shard of the file: of that range's JSON lines, or of the whole file for other formats. A
    JSON-lines file is read once per version: its shard facts (digests and where each shard begins) are kept in
    `shared` (a folder every host sees) for remote files, so other task processes read them instead of the file,
    and seek to their shard."""
    if path.suffix.lower() != ".jsonl":
        return [content_digest(path)] * shards
    name = f"shard_facts:{shard_rows}:{shards}"
    if is_local(path) or shared is None:
        facts = _remembered(path, name, lambda: _jsonl_shard_facts(path, shard_rows, shards))
    else:
        facts = _remembered(path, name, lambda: _shared_facts(path, name, shared,
                                                              lambda: _jsonl_shard_facts(path, shard_rows, shards)))
    remember_record_starts(path, (RecordStart(*start) for start in facts["starts"]))
    return facts["digests"]


def _shared_facts(path: UPath, name: str, shared: UPath, compute: Callable[[], dict]) -> dict:
    """Facts about a remote file from `shared` (keyed by its path, content digest and `name`), computed and written
    there when no host has yet."""
    key = hashlib.sha256(f"{path}\0{content_digest(path)}\0{name}".encode()).hexdigest()
    stored = read_bytes_or_none(shared / f"{key}.json")
    if stored is not None:
        try:
            return orjson.loads(stored)
        except orjson.JSONDecodeError:
            pass
    facts = compute()
    write_bytes_atomic(shared / f"{key}.json", orjson.dumps(facts))
    return facts


def _jsonl_shard_facts(path: Path | UPath, shard_rows: int, shards: int) -> dict:
    """One pass over the file in large blocks: per shard, a digest of its lines' bytes and where it begins
    ([position, byte, line])."""
    import numpy as np

    digests = [hashlib.sha256() for _ in range(shards)]
    starts = [[0, 0, 1]]
    for block in iter_line_blocks(path):
        bounds, ends, blank = line_bounds(block.data)
        lines = np.flatnonzero(~blank)
        positions = block.first_position + np.arange(len(lines))
        owner = np.minimum(positions // shard_rows, shards - 1)
        for shard in np.unique(owner):
            mine = lines[owner == shard]
            digests[shard].update(block.data[bounds[mine[0]]:ends[mine[-1]]])
        for index in np.flatnonzero(positions % shard_rows == 0):
            position = int(positions[index])
            if 0 < position < shards * shard_rows:
                line = int(lines[index])
                starts.append([position, block.first_byte + int(bounds[line]), block.first_line + line])
    return {"digests": [digest.hexdigest() for digest in digests], "starts": starts}
