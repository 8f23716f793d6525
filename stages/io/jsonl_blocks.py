"""A JSON-lines file as blocks of whole lines, each knowing its first line number and record position, so a block
can be parsed at once (pyarrow.json) or line by line with the same numbering."""
from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .json_depth import MAX_JSON_DEPTH, lines_with_many_openers, too_deep
from .storage import open_binary

if TYPE_CHECKING:
    import numpy as np
    from upath import UPath

BLOCK_BYTES = 8 << 20
FIRST_BLOCK_BYTES = 64 << 10
_BOM = b"\xef\xbb\xbf"
_LINE_SPACE = b" \t\n\r\x0b\x0c"  # what bytes.isspace() is true for: a line of only these holds no record


def is_blank_line(raw: bytes) -> bool:
    """A line that holds no record: empty or only whitespace."""
    return raw.isspace() or not raw


def without_bom(data: bytes) -> bytes:
    """The first line's bytes without a UTF-8 byte-order mark."""
    return data[len(_BOM):] if data.startswith(_BOM) else data


@dataclass(frozen=True)
class LineBlock:
    """Consecutive lines of a JSON-lines file: `first_line` is the 1-based number of the first, `first_position` the
    0-based record position of the first record (blank lines are not records), `blank` whether any line is blank,
    `deep` whether a line has so many brackets that it may nest too deep for a block parser (see json_depth)."""

    data: bytes
    first_line: int
    first_position: int
    records: int
    blank: bool
    first_byte: int = 0  # where `data` begins in the file
    deep: bool = False

    def lines(self) -> Iterator[tuple[int, int, bytes]]:
        """(line number, record position, raw line) for each record line of the block."""
        position = self.first_position
        for number, raw in enumerate(io.BytesIO(self.data), start=self.first_line):
            if is_blank_line(raw):
                continue
            yield number, position, raw
            position += 1


def depth_checked(block: LineBlock) -> LineBlock:
    """The block, no longer `deep` when none of its lines with many brackets nests too deep once brackets inside
    strings are left out (LaTeX replies hold hundreds of braces in their text)."""
    if not block.deep:
        return block
    lines = (raw for _, _, raw in block.lines() if len(raw) > MAX_JSON_DEPTH)
    return block if any(too_deep(raw) for raw in lines) else replace(block, deep=False)


@dataclass(frozen=True)
class RecordStart:
    """Where the record at 0-based `position` begins in a JSON-lines file: its byte offset and 1-based line."""

    position: int
    byte: int
    line: int


_STARTS: dict[str, list[RecordStart]] = {}  # path → record starts known from its shard facts, by position


def remember_record_starts(path: Path | UPath, starts: Iterable[RecordStart]) -> None:
    """Record starts of this version of the file (from its shard facts): readers of a later range seek there."""
    _STARTS[str(path)] = sorted(starts, key=lambda start: start.position)


def start_before(path: Path | UPath, rows: range | None) -> RecordStart:
    """The latest known record start at or before `rows` (the file's beginning when none is known)."""
    known = [start for start in _STARTS.get(str(path), []) if rows is not None and start.position <= rows.start]
    return known[-1] if known else RecordStart(0, 0, 1)


def iter_line_blocks(path: Path | UPath, rows: range | None = None) -> Iterator[LineBlock]:
    """The file's lines in blocks growing from FIRST_BLOCK_BYTES to about BLOCK_BYTES (a reader that stops early reads
    little), keeping only records at `rows` positions (0-based) when given, from the nearest known record start
    (see remember_record_starts); a byte-order mark before the first line is dropped. Reading stops once `rows` is
    passed."""

    start = start_before(path, rows)
    line, position, base, carry, size = start.line, start.position, start.byte, b"", min(FIRST_BLOCK_BYTES,
                                                                                       BLOCK_BYTES)
    first = start.byte == 0
    with open_binary(path) as handle:
        if start.byte:
            handle.seek(start.byte)
        while True:
            chunk = handle.read(size)
            size = min(2 * size, BLOCK_BYTES)
            data = carry + chunk
            if chunk:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            if first:
                trimmed, first = without_bom(data), False
                base += len(data) - len(trimmed)
                data = trimmed
            if not data:
                return
            starts, ends, blank = line_bounds(data)
            positions = position + (~blank).cumsum() - 1
            keep = ~blank if rows is None else ~blank & (positions >= rows.start) & (positions < rows.stop)
            if keep.any():
                kept = keep.nonzero()[0]
                low, high = int(kept[0]), int(kept[-1])
                deep = lines_with_many_openers(data, starts[low:high + 1], ends[low:high + 1]).any()
                yield LineBlock(data[starts[low]:ends[high]], line + low, int(positions[low]),
                                int(keep.sum()), bool(blank[low:high + 1].any()), base + int(starts[low]), bool(deep))
            base += len(data)
            line += len(starts)
            position += int((~blank).sum())
            if not chunk or (rows is not None and position >= rows.stop):
                return


def line_bounds(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start and end (after the newline) offsets of each line of `data`, and which lines are blank."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10) + 1
    if not data.endswith(b"\n"):
        ends = np.append(ends, len(data))
    starts = np.concatenate(([0], ends[:-1]))
    space = np.zeros(256, dtype=bool)
    space[np.frombuffer(_LINE_SPACE, dtype=np.uint8)] = True
    blank = space[raw[starts]]
    for index in np.flatnonzero(blank):
        blank[index] = data[starts[index]:ends[index]].isspace()
    return starts, ends, blank
