"""Shards: a dataset split into fixed ranges of record positions (shard i = records [i·S, (i+1)·S)), so that B1–B5
run per range and memory follows the shard size. A JSON-lines file is fingerprinted per range, so appending rows
changes only the last shards; other formats are fingerprinted whole."""
from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .file_facts import file_fact
from .jsonl_blocks import is_blank_line, iter_line_blocks
from .storage import content_digest, is_local, open_binary

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
    With `at_least`, a file too small to hold that many records is not read (its size says so)."""
    suffix = path.suffix.lower()
    if at_least is not None and suffix in (".jsonl", ".csv") and _size(path) < 2 * at_least:
        return 0
    return _remembered(path, "records", lambda: _count(path, suffix))


def _count(path: Path | UPath, suffix: str) -> int:
    if suffix == ".jsonl":
        return sum(block.records for block in iter_line_blocks(path))
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        with open_binary(path) as handle:
            return pq.ParquetFile(handle).metadata.num_rows
    from .readers import iter_records

    return sum(1 for _ in iter_records(path))


def shard_digests(path: Path | UPath, shard_rows: int, shards: int) -> list[str]:
    """A digest per shard of the file: of that range's JSON lines, or of the whole file for other formats."""
    if path.suffix.lower() != ".jsonl":
        return [content_digest(path)] * shards
    return _remembered(path, f"shard_digests:{shard_rows}:{shards}", lambda: _jsonl_shard_digests(path, shard_rows,
                                                                                                 shards))


def _jsonl_shard_digests(path: Path | UPath, shard_rows: int, shards: int) -> list[str]:
    digests = [hashlib.sha256() for _ in range(shards)]
    with open_binary(path) as handle:
        position = 0
        for line in handle:
            if not is_blank_line(line):
                digests[min(position // shard_rows, shards - 1)].update(line.rstrip(b"\r\n") + b"\n")
                position += 1
    return [digest.hexdigest() for digest in digests]
