"""The fast path for fields that mix numbers and text in one list (FEVER's evidence): the integers inside those fields'
values quoted in the block's bytes (a scan outside strings, on whole arrays), so pyarrow.json reads them as text of an
explicit type; any block the scan cannot vouch for is left to the decoded path."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.arrow_strings import is_utf8

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from .jsonl_blocks import LineBlock

_QUOTE, _BACKSLASH, _MINUS, _ZERO = 34, 92, 45, 48
PIECE_BYTES = 1 << 20  # about 1 MB of lines at a time: 1.2× faster than 8 MB blocks whole (more passes in cache)


@dataclass(frozen=True)
class QuotedField:
    """A top-level field whose integers pyarrow.json reads as text, as `raw_type`; `read` gives the kind's column from
    it, or None when a value is not one the kind's per-value reader takes the same way (no `read`: parsed, not kept)."""

    raw_type: pa.DataType
    read: Callable[[pa.Array], pa.Array | None] | None = None


QuotedFields = dict[str, QuotedField]


def quoted_table(block: LineBlock, fields: QuotedFields, readers: frozenset[str],
                 types: dict[str, pa.DataType]) -> pa.Table | None:
    """The block read by pyarrow.json with `fields`' integers quoted, each field a kind reads from each value
    (`readers`) read by its QuotedField, the others left unread (not parsed into columns where _skipping_unread can);
    None when the block must be decoded line by line."""
    import pyarrow as pa

    if block.blank or block.deep or not readers <= {name for name, field in fields.items() if field.read}:
        return None
    if not (block.data.isascii() or is_utf8(block.data)) or _surrogate_escapes(block.data):
        return None
    table = _skipping_unread(block.data, fields, readers) if set(fields) - readers else None
    if table is None:
        table = _read_quoted(block.data, fields)
    if table is None or table.num_rows != block.records:
        return None
    columns = {}
    for name, field in fields.items():
        column = field.read(table.column(name).combine_chunks()) if name in readers else _unread(table.num_rows)
        if column is None:
            return None
        columns[name] = column.cast(types.get(name, column.type))
    return pa.table({**columns, **{name: table.column(name) for name in table.column_names if name not in fields}})


def _read_json(data: bytes | pa.Buffer, schema: pa.Schema, ignore: bool = False) -> pa.Table | None:
    """pyarrow.json's table of `data`, `schema` explicit (any other field inferred, or left out when `ignore`); None
    when it refuses the block."""
    import pyarrow as pa
    import pyarrow.json as pj

    try:
        return pj.read_json(pa.BufferReader(data), read_options=pj.ReadOptions(use_threads=False),
                            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"
                                                          if ignore else "infer"))
    except ValueError:  # ArrowInvalid: a value of another shape or type, a repeated key, a malformed line
        return None


def _read_quoted(data: bytes, fields: QuotedFields) -> pa.Table | None:
    """`data` read by pyarrow.json with `fields`' integers quoted and of their raw types, any other field inferred."""
    import pyarrow as pa

    quoted = _quoted_buffer(data, tuple(fields))
    schema = pa.schema([(name, field.raw_type) for name, field in fields.items()])
    return None if quoted is None else _read_json(quoted[0], schema)


def _skipping_unread(data: bytes, fields: QuotedFields, readers: frozenset[str]) -> pa.Table | None:
    """The block read with only the fields in `readers` quoted and the others skipped by pyarrow.json (parsed, so a
    malformed value is still refused, but not built: FEVER's all_evidence, a fifth of the reading), every other field
    of the type the first line infers; None unless those types hold on every line and every top-level key is one of
    them or a skipped field's (each key counted: pyarrow.json refuses a repeated one and any other is left out), so
    the table is the one _read_quoted gives."""
    import pyarrow as pa

    first = _read_quoted(data[:data.find(b"\n") + 1 or len(data)], fields)
    others = [] if first is None else [column for column in first.schema if column.name not in fields]
    if first is None or not all(_plain(column.type) for column in others):
        return None
    read = {name: field for name, field in fields.items() if name in readers}
    scanned = _quoted_buffer(data, tuple(read), tuple(name for name in fields if name not in readers))
    if scanned is None:
        return None
    table = _read_json(scanned[0], pa.schema([*((name, field.raw_type) for name, field in read.items()), *others]),
                       ignore=True)
    present = None if table is None else sum(len(column) - column.null_count for column in table.columns)
    return table if present == scanned[1] else None


def _plain(kind: pa.DataType) -> bool:
    """A type whose explicit reading refuses every value its inference would read otherwise (a null field may hold
    anything later; a nested one may gain keys)."""
    import pyarrow as pa

    return pa.types.is_string(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind) \
        or pa.types.is_boolean(kind)


def _surrogate_escapes(data: bytes) -> bool:
    """Whether `data` holds an escape of the form \\uD800–\\uDFFF (pyarrow.json and orjson may differ on a lone one:
    decoded path), found from the backslashes' positions (twice as fast as a regular expression)."""
    import numpy as np

    if data.find(b"\\") < 0:
        return False
    raw = np.frombuffer(data, dtype=np.uint8)
    at = np.flatnonzero(raw[:-3] == _BACKSLASH)
    return bool(((raw[at + 1] == ord("u")) & ((raw[at + 2] | 32) == ord("d")) & _table(b"89abcdefABCDEF")[raw[at + 3]])
                .any())


def _unread(rows: int) -> pa.Array:
    """A field parsed but not read: the column decoded_blocks gives a field whose values infer no type."""
    import pyarrow as pa

    return pa.array([b""] * rows, pa.binary())


def quoted_integers(data: bytes, names: tuple[str, ...]) -> bytes | None:
    """`data` (JSON lines) with every integer inside the named top-level fields' arrays quoted; None when a line's
    quotes do not pair, NaN or Infinity stand as a value (pyarrow.json reads them; orjson, rightly, does not), or
    such an array holds a number not written as Python prints an integer (no leading zero, no -0, at most 18
    digits)."""
    quoted = _quoted_buffer(data, names)
    return None if quoted is None else quoted[0].to_pybytes()


def _quoted_buffer(data: bytes, names: tuple[str, ...],
                   skipped: tuple[str, ...] = ()) -> tuple[pa.Buffer, int] | None:
    """quoted_integers as an Arrow buffer, and (when `skipped` names fields) how many top-level keys the lines hold
    besides those fields' arrays: scanned in pieces of whole lines small enough for the scan's arrays to stay in the
    processor's cache, then the quotes put in at once."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    positions, keys, start = [np.zeros(0, dtype=np.int64)], 0, 0
    while start < len(data):
        end = data.find(b"\n", min(start + PIECE_BYTES, len(data)) - 1) + 1 or len(data)
        scanned = _quote_positions(data[start:end], raw[start:end], names, skipped)
        if scanned is None:
            return None
        positions.append(scanned[0] + start)
        keys += scanned[1]
        start = end
    return with_mark_before(data, np.concatenate(positions), b'"'), keys


def with_mark_before(data: bytes | pa.Buffer, at: np.ndarray, mark: bytes) -> pa.Buffer:
    """`data` with `mark` put before each of `at` (sorted): the pieces between them joined by Arrow (2.5× as fast as
    numpy's masked copy)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    offsets = np.concatenate(([0], at, [len(data)])).astype(np.int64)
    pieces = pa.LargeBinaryArray.from_buffers(pa.large_binary(), len(offsets) - 1,
                                              [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    whole = pa.ListArray.from_arrays(pa.array([0, len(pieces)], pa.int32()), pieces)
    return pc.binary_join(whole, pa.scalar(mark, pa.large_binary()))[0].as_buffer()


def _quote_positions(data: bytes, raw: np.ndarray, names: tuple[str, ...],
                     skipped: tuple[str, ...] = ()) -> tuple[np.ndarray, int] | None:
    """Where quotes go in whole lines `data` (`raw`, the same bytes) for quoted_integers (sorted), and the count of
    _quoted_buffer (0 unless `skipped` names fields); None where the scan cannot vouch for the lines, or a line holds a
    nested object when `skipped` names fields (its colons would not all be top-level keys)."""
    import numpy as np

    quotes = _unescaped_quotes(data, raw)
    if len(quotes) % 2:
        return None
    outside = _intervals(len(raw), quotes[0::2], quotes[1::2] + 1, inside=False)
    newlines = np.flatnonzero(raw == 10)
    if not outside[newlines].all():  # a string runs past its line: its quotes do not pair there
        return None
    if (outside & ((raw == 78) | (raw == 73))).any():  # N, I: NaN and Infinity, read by pyarrow.json, not JSON
        return None
    brackets = np.flatnonzero(((raw == 91) | (raw == 93) | (raw == 123) | (raw == 125)) & outside)
    kinds = raw[brackets]
    opening = (kinds == 91) | (kinds == 123)
    depth = np.cumsum(opening.astype(np.int32) * 2 - 1)  # after each bracket
    arrays = brackets[(kinds == 91) & (depth == 2)]
    if skipped and ((kinds == 123) & (depth > 1)).any():
        return None
    starts, skipped_arrays = _value_starts(raw, quotes, arrays, (names, skipped))
    keys = int(np.count_nonzero((raw == 58) & outside)) - len(skipped_arrays) if skipped else 0
    ends = brackets[~opening & (depth == 1)]
    at = np.searchsorted(ends, starts)
    if (at == len(ends)).any():
        return None
    span = _intervals(len(raw), starts, ends[at] + 1) & outside
    if span[newlines].any():  # an array that does not close on its line
        return None
    digits = span & ((raw - _ZERO) < 10)  # a float, true, an object: the explicit type refuses them, and quotes
    # around a run of digits never make a malformed line well formed
    edges = np.flatnonzero(digits[1:] != digits[:-1]) + 1  # each run's first byte, then the byte after its last
    # (a run never touches either end: a span opens with a bracket and closes with one)
    first, last = edges[0::2], edges[1::2]
    negative = raw[first - 1] == _MINUS  # a minus sign anywhere else is not JSON, quoted or not
    first = first - negative
    if not _canonical(raw, first, last, negative):
        return None
    edges[0::2] = first
    return edges, keys


def _unescaped_quotes(data: bytes, raw: np.ndarray) -> np.ndarray:
    """Where the quotes that open or close strings are (not those after an odd run of backslashes)."""
    import numpy as np

    quotes = np.flatnonzero(raw == _QUOTE)
    if data.find(b"\\") < 0:
        return quotes
    backslashes = np.flatnonzero(raw == _BACKSLASH)
    after = backslashes[backslashes + 1 < len(raw)] + 1
    escaped = [q for q in after[raw[after] == _QUOTE].tolist() if _backslashes_before(data, q) % 2]
    return np.delete(quotes, np.searchsorted(quotes, escaped)) if escaped else quotes


def _backslashes_before(data: bytes, at: int) -> int:
    """How many backslashes stand right before byte `at`."""
    count = 0
    while at > count and data[at - count - 1] == _BACKSLASH:
        count += 1
    return count


def _intervals(size: int, low: np.ndarray, high: np.ndarray, inside: bool = True) -> np.ndarray:
    """A mask of `size` bytes, `inside` in each [low, high) (sorted, not overlapping), not `inside` elsewhere."""
    import numpy as np

    bounds = np.empty(2 * len(low) + 2, dtype=np.int64)
    bounds[0], bounds[1:-1:2], bounds[2:-1:2], bounds[-1] = 0, low, high, size
    marks = np.full(len(bounds) - 1, not inside, dtype=bool)
    marks[1::2] = inside
    return np.repeat(marks, np.diff(bounds))


def _value_starts(raw: np.ndarray, quotes: np.ndarray, arrays: np.ndarray,
                  names: tuple[tuple[str, ...], ...]) -> list[np.ndarray]:
    """For each tuple of `names`, which of `arrays` (the opening brackets, outside strings, of arrays inside a line's
    top-level value) are the values of a `"name":` of it (`quotes`: those that open and close strings, in turn)."""
    import numpy as np

    if not len(quotes):
        return [arrays[:0] for _ in names]
    colon = _before_spaces(raw, arrays - 1)
    found = raw[colon] == 58
    arrays, close = arrays[found], _before_spaces(raw, colon[found] - 1)
    index = np.searchsorted(quotes, close)  # a quote right before a colon outside strings closes a key
    found = (index % 2 == 1) & (quotes[np.minimum(index, len(quotes) - 1)] == close)
    arrays, close, start = arrays[found], close[found], quotes[index[found] - 1] + 1
    return [arrays[_named(raw, start, close, some)] for some in names]


def _named(raw: np.ndarray, start: np.ndarray, end: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """Which texts raw[start:end] are one of `names`."""
    import numpy as np

    named = np.zeros(len(start), dtype=bool)
    for key in (np.frombuffer(name.encode(), dtype=np.uint8) for name in names):
        sized = np.flatnonzero(end - start == len(key))
        named[sized[(raw[start[sized, None] + np.arange(len(key))] == key).all(axis=1)]] = True
    return named


def _before_spaces(raw: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Each position moved back past JSON white space (to -1 where the data begins first)."""
    import numpy as np

    at = at.copy()
    spaces = _table(b" \t\r\n")
    moving = np.ones(len(at), dtype=bool)
    while True:
        moving[moving] = at[moving] >= 0
        moving[moving] = spaces[raw[at[moving]]]
        if not moving.any():
            return at
        at[moving] -= 1


def _canonical(raw: np.ndarray, first: np.ndarray, last: np.ndarray, negative: np.ndarray) -> bool:
    """Each number [first, last) (a run of digits, after a minus sign where `negative`) is an integer as Python's
    str() writes it, of at most 18 digits."""

    digits = last - first - negative
    if (digits > 18).any():
        return False
    return not ((raw[first + negative] == _ZERO) & ((digits > 1) | negative)).any()


def _table(allowed: bytes) -> np.ndarray:
    """A 256-entry lookup: True for the bytes of `allowed`."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(allowed, dtype=np.uint8)] = True
    return table
