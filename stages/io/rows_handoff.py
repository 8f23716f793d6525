"""Rows files this process wrote, kept as their Arrow tables so a later stage in the same process takes the table
instead of decoding the file again; keyed by the local file's version (path, size, mtime, inode, ctime) and its
Parquet footer (every column chunk's offsets, sizes and statistics): a file changed, replaced or removed since is
read from disk, and nothing is shared across processes."""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

HANDOFF_BYTES = 384 << 20  # Arrow bytes kept at most; the oldest tables go first (a million qa rows: ~300 MiB in all)
_KEPT: OrderedDict[str, tuple[tuple, pa.Table]] = OrderedDict()  # path → (its version, its table)
FOOTER_END = 8  # a Parquet file ends with its footer's length (4 bytes, little-endian) and b"PAR1"


def _footer(data: bytes) -> bytes:
    """The Parquet footer at the end of `data` (its metadata, length and magic)."""
    return data[-(FOOTER_END + int.from_bytes(data[-FOOTER_END:-4], "little")):]


def _version(path: str) -> tuple | None:
    """What identifies this version of the local file: its stat (a rewrite in place changes its ctime, a file moved
    into place its inode) and its footer (a file of another content has other chunk sizes or statistics); None when
    it is not there or has no footer."""
    try:
        with open(path, "rb") as handle:
            found = os.fstat(handle.fileno())
            if found.st_size < FOOTER_END:
                return None
            handle.seek(-FOOTER_END, os.SEEK_END)
            length = int.from_bytes(handle.read(4), "little")
            if length > found.st_size - FOOTER_END:
                return None
            handle.seek(-(FOOTER_END + length), os.SEEK_END)
            footer = handle.read(FOOTER_END + length)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns, footer


def hand_off(path: os.PathLike, table: pa.Table, data: bytes) -> None:
    """Keep `table`, just written to the local file at `path` as `data` (Parquet), for readers in this process — only
    while the file holds that footer, and when it reads back as the table's schema (else a reader gets what the file
    holds: it is read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    key = os.path.abspath(path)
    _KEPT.pop(key, None)
    version = _version(key)
    if version is None or version[-1] != _footer(data) or table.nbytes > HANDOFF_BYTES \
            or not table.schema.equals(pq.ParquetFile(pa.BufferReader(data)).schema_arrow):
        return
    _KEPT[key] = (version, table)
    while sum(kept.nbytes for _, kept in _KEPT.values()) > HANDOFF_BYTES:
        _KEPT.popitem(last=False)


def handed_off(path: os.PathLike, columns: list[str] | None = None) -> pa.Table | None:
    """The table kept for the local file at `path` (its `columns`, in that order) while the file is still the version
    written, else None (the caller reads the file; columns that are not all there, or named twice, are its to
    answer)."""
    key = os.path.abspath(path)
    found = _KEPT.get(key)  # get and pop: readers in several threads (B6's) may ask at once
    if found is None:
        return None
    version, table = found
    if _version(key) != version:
        _KEPT.pop(key, None)
        return None
    if columns is None:
        return table
    if len(set(columns)) != len(columns) or not set(columns) <= set(table.column_names):
        return None
    return table.select(columns)


def forget(path: os.PathLike) -> None:
    """Drop what is kept for `path` (a rows file being removed)."""
    _KEPT.pop(os.path.abspath(path), None)
