"""The fast path for fields that mix numbers and text in one list (FEVER's evidence): the integers inside those fields'
values quoted in the block's bytes (a scan outside strings, on whole arrays), so pyarrow.json reads them as text of an
explicit type; any block the scan cannot vouch for is left to the decoded path."""
from __future__ import annotations

import re
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
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")  # pyarrow.json and orjson may differ on a lone one: decoded path


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
    (`readers`) read by its QuotedField, the others left unread; None when the block must be decoded line by line."""
    import pyarrow as pa
    import pyarrow.json as pj

    if block.blank or block.deep or not readers <= {name for name, field in fields.items() if field.read}:
        return None
    if not (block.data.isascii() or is_utf8(block.data)) or _SURROGATE.search(block.data):
        return None
    data = _quoted_array(block.data, tuple(fields))
    if data is None:
        return None
    schema = pa.schema([(name, field.raw_type) for name, field in fields.items()])
    try:
        table = pj.read_json(pa.BufferReader(pa.py_buffer(data)), read_options=pj.ReadOptions(use_threads=False),
                               parse_options=pj.ParseOptions(explicit_schema=schema))
    except ValueError:  # ArrowInvalid: a value of another shape, a repeated key, a malformed line
        return None
    if table.num_rows != block.records:
        return None
    for name, field in fields.items():
        column = field.read(table.column(name).combine_chunks()) if name in readers else _unread(table.num_rows)
        if column is None:
            return None
        table = table.set_column(table.column_names.index(name), name, column.cast(types.get(name, column.type)))
    return table


def _unread(rows: int) -> pa.Array:
    """A field parsed but not read: the column decoded_blocks gives a field whose values infer no type."""
    import pyarrow as pa

    return pa.array([b""] * rows, pa.binary())


def quoted_integers(data: bytes, names: tuple[str, ...]) -> bytes | None:
    """`data` (JSON lines) with every integer inside the named top-level fields' arrays quoted; None when a line's
    quotes do not pair, NaN or Infinity stand as a value (pyarrow.json reads them; orjson, rightly, does not), or
    such an array holds a number not written as Python prints an integer (no leading zero, no -0, at most 18
    digits)."""
    quoted = _quoted_array(data, names)
    return None if quoted is None else quoted.tobytes()


def _quoted_array(data: bytes, names: tuple[str, ...]) -> np.ndarray | None:
    """quoted_integers as one array of bytes, written in place piece by piece: scanned in pieces of whole lines small
    enough for the scan's arrays to stay in the processor's cache."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    pieces, start = [], 0
    while start < len(data):
        end = data.find(b"\n", min(start + PIECE_BYTES, len(data)) - 1) + 1 or len(data)
        quote_at = _quote_positions(data[start:end], raw[start:end], names)
        if quote_at is None:
            return None
        pieces.append((start, end, quote_at))
        start = end
    out = np.empty(len(raw) + sum(len(quote_at) for _, _, quote_at in pieces), dtype=np.uint8)
    written = 0
    for start, end, quote_at in pieces:
        size = end - start + len(quote_at)
        _with_quotes(raw[start:end], quote_at, out[written:written + size])
        written += size
    return out


def _quote_positions(data: bytes, raw: np.ndarray, names: tuple[str, ...]) -> np.ndarray | None:
    """Where quotes go in whole lines `data` (`raw`, the same bytes) for quoted_integers (sorted), or None."""
    import numpy as np

    quotes = _unescaped_quotes(data, raw)
    if len(quotes) % 2:
        return None
    opens, closes = quotes[0::2], quotes[1::2]
    outside = _intervals(len(raw), opens, closes + 1, inside=False)
    newline = raw == 10
    if (newline & ~outside).any():  # a string runs past its line: its quotes do not pair there
        return None
    if (outside & ((raw == 78) | (raw == 73))).any():  # N, I: NaN and Infinity, read by pyarrow.json, not JSON
        return None
    brackets = np.flatnonzero(((raw == 91) | (raw == 93) | (raw == 123) | (raw == 125)) & outside)
    opening = (raw[brackets] == 91) | (raw[brackets] == 123)
    depth = np.cumsum(np.where(opening, 1, -1))  # after each bracket
    starts = _value_starts(raw, (opens, closes, brackets, depth), names)
    ends = brackets[~opening & (depth == 1)]
    at = np.searchsorted(ends, starts)
    if (at == len(ends)).any():
        return None
    stops = ends[at] + 1
    span = _intervals(len(raw), starts, stops) & outside
    if (span & newline).any():  # an array that does not close on its line
        return None
    number = span & (((raw >= _ZERO) & (raw <= _ZERO + 9)) | (raw == _MINUS))  # a float, true, an object: the
    # explicit type refuses them, and quotes around a run of digits never make a malformed line well formed
    edges = np.flatnonzero(number[1:] != number[:-1]) + 1  # each run's first byte, then the byte after its last
    # (a run never touches either end: a span opens with a bracket and closes with one)
    if not _canonical(raw, number, edges[0::2], edges[1::2]):
        return None
    return edges


def _with_quotes(raw: np.ndarray, quote_at: np.ndarray, out: np.ndarray) -> None:
    """`raw` with a quote put before each of `quote_at` (sorted), written to `out` (of their sizes together)."""
    import numpy as np

    at = quote_at + np.arange(len(quote_at))
    kept = np.ones(len(out), dtype=bool)
    kept[at] = False
    out[at] = _QUOTE
    out[kept] = raw


def _unescaped_quotes(data: bytes, raw: np.ndarray) -> np.ndarray:
    """Where the quotes that open or close strings are (not those after an odd run of backslashes)."""
    import numpy as np

    quotes = np.flatnonzero(raw == _QUOTE)
    if data.find(b"\\") < 0:
        return quotes
    after = quotes[quotes > 0]
    escaped = [q for q in after[raw[after - 1] == _BACKSLASH].tolist() if _backslashes_before(data, q) % 2]
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


def _value_starts(raw: np.ndarray, keys: tuple[np.ndarray, ...], names: tuple[str, ...]) -> np.ndarray:
    """Where the array of each top-level `"name":` of `names` begins, in order (`keys`: the strings' opening and
    closing quotes, the brackets outside strings and the depth after each)."""
    import numpy as np

    opens, closes, brackets, depth = keys
    encoded = [np.frombuffer(name.encode(), dtype=np.uint8) for name in names]
    found = np.isin(closes - opens, [len(key) + 1 for key in encoded])  # a string as long as a name
    found[found] = _table(b" \t\r\n:")[raw[np.minimum(closes[found] + 1, len(raw) - 1)]]  # then space or a colon
    at, end = opens[found], closes[found]
    if not (len(at) and len(brackets)):
        return np.zeros(0, dtype=np.int64)
    before = np.searchsorted(brackets, at)
    top = (before > 0) & (depth[np.maximum(before - 1, 0)] == 1)
    at, end = at[top], end[top]
    same = np.zeros(len(at), dtype=bool)
    for key in encoded:
        sized = np.flatnonzero(end - at == len(key) + 1)
        same[sized[(raw[at[sized, None] + 1 + np.arange(len(key))] == key).all(axis=1)]] = True
    colon = _past_spaces(raw, end[same] + 1)
    colon = colon[(colon < len(raw) - 1) & (raw[np.minimum(colon, len(raw) - 1)] == 58)]
    values = _past_spaces(raw, colon + 1)
    values = values[values < len(raw)]
    return values[raw[values] == 91]


def _past_spaces(raw: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Each position moved past JSON white space (len(raw) where the data ends first)."""
    import numpy as np

    at = at.copy()
    spaces = _table(b" \t\r\n")
    while len(at):
        inside = at < len(raw)
        moving = np.zeros(len(at), dtype=bool)
        moving[inside] = spaces[raw[at[inside]]]
        if not moving.any():
            break
        at[moving] += 1
    return at


def _canonical(raw: np.ndarray, number: np.ndarray, first: np.ndarray, last: np.ndarray) -> bool:
    """Each run of digits and minus signs is an integer as Python's str() writes it, of at most 18 digits."""
    import numpy as np

    lengths = last - first
    negative = raw[first] == _MINUS
    digits = lengths - negative
    if int(np.count_nonzero(number & (raw == _MINUS))) != int(np.count_nonzero(negative)):
        return False
    if (digits < 1).any() or (digits > 18).any():
        return False
    return not ((raw[np.minimum(first + negative, len(raw) - 1)] == _ZERO) & ((digits > 1) | negative)).any()


def _table(allowed: bytes) -> np.ndarray:
    """A 256-entry lookup: True for the bytes of `allowed`."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(allowed, dtype=np.uint8)] = True
    return table
