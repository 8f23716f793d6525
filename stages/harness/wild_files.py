"""Harness files as they are found in the wild, read by content rather than by name: plain, gzip or zstd; JSON lines,
a JSON array (pretty-printed or not) or a run of pretty-printed objects; `NaN` / `Infinity` read as Python's json
reads them; a Git LFS pointer recognised as what it is."""
from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..core.records import Reject
from ..io.json_depth import depth_problem
from ..io.readers import Record, decode_jsonl_line, iter_json_values
from ..io.storage import read_input_bytes

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
LFS_POINTER = b"version https://git-lfs.github.com/spec/"
LFS_REASON = "a Git LFS pointer, not the file itself: run `git lfs pull` in its repository"
COMPRESSED_SUFFIXES = (".gz", ".gzip", ".zst", ".zstd")


class UnreadableFile(Exception):
    """A file that holds no records at all: a Git LFS pointer, a broken archive, bytes that are not UTF-8 JSON."""


class LfsPointer(UnreadableFile):
    """A Git LFS pointer where the file should be."""


@dataclass
class WildRecords:
    """The records of one file with their 1-based line, and a note per part that could not be read."""

    records: list[tuple[int, Any]] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)


def plain_name(path: Path) -> str:
    """The file's name without a compression suffix: samples_x.jsonl.gz → samples_x.jsonl."""
    name = path.name
    for suffix in COMPRESSED_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def is_lfs_pointer(data: bytes) -> bool:
    """Whether `data` is a Git LFS pointer (a clone made without `git lfs pull`) instead of the file's content."""
    return data.startswith(LFS_POINTER)


def is_lfs_pointer_file(path: Path) -> bool:
    """Whether the file at `path` is a Git LFS pointer (only its first bytes are read)."""
    with open(path, "rb") as handle:
        return is_lfs_pointer(handle.read(len(LFS_POINTER)))


def read_wild_bytes(path: Path) -> bytes:
    """The file's content, decompressed when it starts with gzip's or zstd's magic bytes."""
    data = read_input_bytes(path)
    if is_lfs_pointer(data):
        raise LfsPointer(LFS_REASON)
    try:
        if data.startswith(GZIP_MAGIC):
            return gzip.decompress(data)
        if data.startswith(ZSTD_MAGIC):
            import pyarrow as pa

            with pa.input_stream(pa.py_buffer(data), compression="zstd") as stream:
                return stream.read()
    except (OSError, EOFError, ValueError) as exc:
        raise UnreadableFile(f"a broken compressed file ({exc})") from None
    return data


def load_wild_json(data: bytes, source: str) -> Any:
    """One JSON document, `NaN` and `Infinity` included; UnreadableFile when it is not one."""
    problem = depth_problem(data)
    if problem is not None:
        raise UnreadableFile(problem)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise UnreadableFile(f"{source}: not JSON ({exc})") from None


def wild_records(path: Path) -> WildRecords:
    """Every record of a JSON-lines file, a JSON array or a run of JSON objects, with its line (read by io's readers
    in their lenient mode: NaN and Infinity as Python reads them)."""
    try:
        text = read_wild_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"undecodable bytes (not UTF-8) at byte {exc.start}") from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        return _collected(iter_json_values(text, str(path), array=True))
    found = _collected(decode_jsonl_line(str(path), number, line.encode(), lenient=True)
                       for number, line in enumerate(text.splitlines(), start=1) if line.strip())
    if not found.records and stripped.startswith("{"):
        stream = _collected(iter_json_values(text, str(path), array=False))
        if stream.records:
            return stream
    return found


def _collected(items: Iterable[Record | Reject]) -> WildRecords:
    """Records as (line, value), and each Reject as one "<file>:<line>: <reason>" set aside."""
    found = WildRecords()
    for item in items:
        if isinstance(item, Reject):
            found.set_aside.append(f"{item.source}:{item.line}: {item.reason}" if item.line else
                                   f"{item.source}: {item.reason}")
        else:
            found.records.append((item[0], item[1]))
    return found
