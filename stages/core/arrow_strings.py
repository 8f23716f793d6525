"""Arrow string helpers that keep Python's meaning: RE2's `\\s` is ASCII-only and Arrow promises no whitespace set, so
whitespace is spelled out as the exact set str.isspace() and str.split() use."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

ByteRanges = tuple[tuple[int, int], ...]
LAST_SPACE = 0x3000  # IDEOGRAPHIC SPACE: no later character is whitespace to str.isspace() (tests check every one)


@cache
def python_spaces() -> str:
    """Every character str.isspace() is true for (those str.strip() and str.split() take as whitespace)."""
    return "".join(char for char in map(chr, range(LAST_SPACE + 1)) if char.isspace())


def re2_class(characters: str, ranges: bool = False) -> str:
    """An RE2 character class of `characters`; with `ranges`, a '-' between two characters makes a range."""
    return "[" + "".join("-" if ranges and char == "-" else f"\\x{{{ord(char):x}}}" for char in characters) + "]"


@cache
def python_space_class() -> str:
    """An RE2 character class of every character str.isspace() is true for."""
    return re2_class(python_spaces())


def is_utf8(data: bytes) -> bool:
    """Whether the bytes are valid UTF-8, checked by Arrow (twice as fast as bytes.decode, and without Python's lock,
    so blocks check side by side in threads)."""
    import numpy as np
    import pyarrow as pa

    text = pa.LargeStringArray.from_buffers(1, pa.py_buffer(np.array([0, len(data)], np.int64)), pa.py_buffer(data))
    try:
        text.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def stripped_strings(array: pa.Array) -> pa.Array:
    """str.strip() of every string (null stays null): Arrow's trim of exactly Python's whitespace."""
    import pyarrow.compute as pc

    return pc.utf8_trim(array, characters=python_spaces())


def blank_strings(array: pa.Array) -> pa.Array:
    """True where a string is null, empty or only whitespace (Python's is_missing for text)."""
    import pyarrow.compute as pc

    blank = pc.equal(pc.binary_length(stripped_strings(array)), 0)  # bytes: no text scanned, as characters
    return pc.fill_null(blank, True)


def list_offsets(lengths: pa.Array) -> pa.Array:
    """int32 offsets of lists with these lengths (nulls count as empty)."""
    import pyarrow.compute as pc

    return offsets_of(pc.fill_null(lengths, 0).to_numpy(zero_copy_only=False))


def list_lengths(lists: pa.Array) -> np.ndarray:
    """Each list's length as int64 (0 for a null list)."""
    import numpy as np
    import pyarrow.compute as pc

    return pc.fill_null(pc.list_value_length(lists), 0).to_numpy(zero_copy_only=False).astype(np.int64)


def list_starts(lengths: np.ndarray) -> np.ndarray:
    """Where each list's items start among all lists' items laid end to end (int64), from the lists' lengths."""
    import numpy as np

    return np.cumsum(lengths, dtype=np.int64) - lengths


def list_item_positions(lengths: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Where the items of these rows' lists stand among all lists' items laid end to end (lists of `lengths`), row
    after row in the order given."""
    import numpy as np

    taken = lengths[rows]
    return np.repeat(list_starts(lengths)[rows] - list_starts(taken), taken) + np.arange(int(taken.sum()))


def first_items(lists: pa.Array) -> pa.Array:
    """Each list's first item (null where the list is empty or null)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    firsts = pc.list_slice(lists, 0, 1)
    where = np.full(len(lists), -1, np.int64)
    where[pc.list_parent_indices(firsts).to_numpy()] = np.arange(len(pc.list_flatten(firsts)))
    return pc.list_flatten(firsts).take(pa.array(where, mask=where < 0))


def items_once_per_list(lists: pa.Array, window: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Work on list items done once per list for equal items: (flat indices of the items to compute, and for every
    item the position among those of the first equal item in its own list, looking back at most `window` items)."""
    import numpy as np
    import pyarrow.compute as pc

    flat = pc.list_flatten(lists)
    lengths = list_lengths(lists)
    longest = int(lengths.max(initial=0))
    index = np.arange(len(flat))
    if longest < 2:
        return index, index
    list_start = np.zeros(len(flat), dtype=bool)
    list_start[list_starts(lengths)[lengths > 0]] = True
    same_list = ~list_start  # at lag L, for i ≥ L: items i-L … i are in one list
    first = index.copy()
    for lag in range(1, min(window, longest - 1) + 1):
        if lag > 1:
            same_list[lag:] &= ~list_start[1:len(flat) - lag + 1]
        equal = pc.fill_null(pc.equal(flat.slice(lag), flat.slice(0, len(flat) - lag)), False)
        repeats = lag + np.flatnonzero(equal.to_numpy(zero_copy_only=False) & same_list[lag:])
        first[repeats] = repeats - lag
    while longest - 1 > window and not np.array_equal(first[first], first):
        first = first[first]
    computed = first == index
    return np.flatnonzero(computed), (np.cumsum(computed, dtype=np.int64) - 1)[first]


def offsets_of(counts: np.ndarray) -> pa.Array:
    """int32 offsets of lists (or strings) with these numbers of items (or bytes)."""
    import numpy as np
    import pyarrow as pa

    return pa.array(np.concatenate(([0], np.cumsum(counts, dtype=np.int64))).astype(np.int32))


def _string_bytes(array: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string array's offsets (one more than its length, from 0) and the UTF-8 bytes they index (a slice too)."""
    import numpy as np

    offsets = np.frombuffer(array.buffers()[1], dtype=np.int32, count=len(array) + 1, offset=array.offset * 4)
    data = array.buffers()[2]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    return offsets - offsets[0], data[offsets[0]:offsets[-1]]


def may_hold_bytes(array: pa.Array, needle: bytes) -> bool:
    """False only when no string of the array holds `needle`: one search of its UTF-8 data (a match across two
    strings' bytes says True where no string holds it; never False where one does)."""
    _, data = _string_bytes(array)
    return re.search(re.escape(needle), memoryview(data)) is not None  # no copy of the data, as `in` would need


def _marked(data: np.ndarray, ranges: ByteRanges) -> np.ndarray:
    """Which bytes fall in `ranges` (range tests: much faster than a 256-entry table lookup)."""
    import numpy as np

    marked = np.zeros(len(data), dtype=bool)
    for low, high in ranges:
        marked |= (data - np.uint8(low)) <= np.uint8(high - low)
    return marked


def _per_string(offsets: np.ndarray, marked: np.ndarray) -> np.ndarray:
    """Per string (delimited by `offsets`), how many of the `marked` bytes it holds (fast when few are marked)."""
    import numpy as np

    return np.bincount(np.searchsorted(offsets, np.flatnonzero(marked), side="right") - 1, minlength=len(offsets) - 1)


def byte_counts(array: pa.Array, ranges: ByteRanges) -> np.ndarray:
    """Per string, how many of its bytes fall in `ranges` (fast when few do)."""
    offsets, data = _string_bytes(array)
    return _per_string(offsets, _marked(data, ranges))


def without_bytes(array: pa.Array, ranges: ByteRanges) -> pa.Array:
    """Each string with its bytes in `ranges` removed; with ASCII ranges UTF-8 stays valid (an ASCII byte never occurs
    inside a multi-byte character). Nulls stay null."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    offsets, data = _string_bytes(array)
    marked = _marked(data, ranges)
    kept = offsets_of(np.diff(offsets) - _per_string(offsets, marked))
    result = pa.StringArray.from_buffers(len(array), kept.buffers()[1], pa.py_buffer(data[~marked]))
    return result if not array.null_count else pc.if_else(pc.is_valid(array), result, pa.scalar(None, pa.string()))


def byte_ranges(characters: bytes) -> ByteRanges:
    """The bytes of `characters` as inclusive (low, high) ranges of consecutive values."""
    ranges: list[tuple[int, int]] = []
    for byte in sorted(set(characters)):
        if ranges and ranges[-1][1] == byte - 1:
            ranges[-1] = (ranges[-1][0], byte)
        else:
            ranges.append((byte, byte))
    return tuple(ranges)
