"""Shards: a dataset split into fixed ranges of record positions (shard i = records [i·S, (i+1)·S)), so that B1–B5
run per range and memory follows the shard size. A JSON-lines file is fingerprinted per range, so appending rows
changes only the last shards; other formats are fingerprinted whole."""
from __future__ import annotations

import hashlib
import math
import os
from typing import TYPE_CHECKING

from .storage import content_digest, is_local, open_binary

if TYPE_CHECKING:
    from pathlib import Path

    from upath import UPath

_REMEMBERED: dict[tuple, object] = {}


def shard_range(index: int, shard_rows: int) -> range:
    """Record positions (0-based) of shard `index`."""
    return range(index * shard_rows, (index + 1) * shard_rows)


def shard_count(records: int, shard_rows: int) -> int:
    return max(1, math.ceil(records / shard_rows))


def _version(path: Path | UPath) -> tuple:
    if is_local(path):
        stat = os.stat(path)
        return (str(path), stat.st_size, stat.st_mtime_ns)
    return (str(path), content_digest(path))


def _size(path: Path | UPath) -> int:
    return os.stat(path).st_size if is_local(path) else int(path.fs.info(path.path)["size"])


def count_records(path: Path | UPath, at_least: int | None = None) -> int:
    """Records in a file, as the readers number them (a JSON line each, a Parquet row each, a CSV row each…).
    With `at_least`, a file too small to hold that many records is not read (its size says so)."""
    suffix = path.suffix.lower()
    if at_least is not None and suffix in (".jsonl", ".csv") and _size(path) < 2 * at_least:
        return 0
    key = ("count", _version(path))
    if key not in _REMEMBERED:
        _REMEMBERED[key] = _count(path, suffix)
    return _REMEMBERED[key]


def _count(path: Path | UPath, suffix: str) -> int:
    if suffix == ".jsonl":
        with open_binary(path) as handle:
            return sum(1 for line in handle if line.strip())
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        with open_binary(path) as handle:
            return pq.ParquetFile(handle).metadata.num_rows
    from .readers import iter_records

    return sum(1 for _ in iter_records(path))


def shard_digests(path: Path | UPath, shard_rows: int, shards: int) -> list[str]:
    """A digest per shard of the file: of that range's JSON lines, or of the whole file for other formats."""
    key = ("digests", _version(path), shard_rows, shards)
    if key not in _REMEMBERED:
        if path.suffix.lower() != ".jsonl":
            _REMEMBERED[key] = [content_digest(path)] * shards
        else:
            digests = [hashlib.sha256() for _ in range(shards)]
            with open_binary(path) as handle:
                position = 0
                for line in handle:
                    if line.strip():
                        digests[min(position // shard_rows, shards - 1)].update(line.rstrip(b"\r\n") + b"\n")
                        position += 1
            _REMEMBERED[key] = [digest.hexdigest() for digest in digests]
    return _REMEMBERED[key]
