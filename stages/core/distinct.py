"""Work once per distinct value: row columns repeat (a verdict vocabulary of a few labels, replies that recur; a
million CMMLU rows hold under fifty thousand distinct (reply, options) pairs), so rows of Arrow columns are numbered
by their distinct value (or list, or combination), a per-row function is called once per number, and its results are
taken back to rows by those numbers."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .arrow_strings import list_lengths, list_starts

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

T = TypeVar("T")
SAMPLE_ROWS = 50_000  # values sampled to tell whether a column mostly repeats
KEY_BOUND = 1 << 62  # combined keys stay below this: no product of a key and a code size overflows an int64


def codes_of(array: pa.Array) -> np.ndarray:
    """Each value's number (int64) among the array's distinct values, null one of them: rows to group, without the
    values themselves."""
    import numpy as np
    import pyarrow.compute as pc

    return pc.dictionary_encode(array, null_encoding="encode").indices.to_numpy(zero_copy_only=False).astype(np.int64)


def value_codes(array: pa.Array | pa.ChunkedArray) -> tuple[list[Any], np.ndarray]:
    """An Arrow array's distinct values as Python values (null among them when present) and each row's index into
    that list."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    encoded = pc.dictionary_encode(array, null_encoding="encode")
    return encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)


def list_codes(lists: pa.Array | pa.ChunkedArray) -> tuple[list[Any], np.ndarray]:
    """The distinct lists of a list array without nulls (as Python lists) and each row's index into them."""
    import pyarrow as pa

    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    first, codes = list_row_codes(lists)
    return lists.take(pa.array(first)).to_pylist(), codes


def list_item_codes(lists: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """The distinct items of a list array (null among them when present) and each item's index into them, the
    lists' items laid end to end. Items already dictionary-encoded keep their dictionary (nothing hashed again)
    unless they hold nulls or it holds more values than there are items (one left over from a larger table)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    items = pc.list_flatten(lists)
    if pa.types.is_dictionary(items.type):
        if not items.null_count and len(items.dictionary) <= len(items):
            return items.dictionary, items.indices.to_numpy().astype(np.int64)
        items = items.dictionary_decode()
    encoded = pc.dictionary_encode(items, null_encoding="encode")
    return encoded.dictionary, encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)


def list_row_codes(lists: pa.Array | pa.ChunkedArray,
                   item_codes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The first row holding each distinct list of a list array without nulls, and each row's index into them:
    items are coded once (`item_codes`, list_item_codes' when given), then each row's key is extended position by
    position (previous key, item code there; coded again only where it could outgrow an int64)."""
    import numpy as np
    import pyarrow as pa

    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    rows = len(lists)
    if item_codes is None:
        _, item_codes = list_item_codes(lists)
    items = int(item_codes.max()) + 1 if len(item_codes) else 0
    lengths = list_lengths(lists)
    starts = list_starts(lengths)
    codes, bound = np.zeros(rows, np.int64), 1
    for position in range(int(lengths.max()) if rows else 0):
        there = np.full(rows, -1, np.int64)
        has = lengths > position
        there[has] = item_codes[starts[has] + position]
        codes, bound = _extended(codes, bound, there + 1, items + 1)
    _, first, codes = np.unique(codes, return_index=True, return_inverse=True)
    return first, codes.reshape(-1)


def combined_codes(*codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct combinations of several code columns (an array of shape (distinct, columns), sorted by the first
    column first, so combinations sharing it come together) and each row's index into them."""
    import numpy as np

    first, inverse = first_rows(*codes)
    return np.stack(codes, axis=1)[first] if len(first) else np.zeros((0, len(codes)), np.int64), inverse


def first_rows(*codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first row holding each distinct combination of several code columns (in combined_codes' order) and each
    row's index into them."""
    import numpy as np

    if not codes[0].size:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    _, first, inverse = np.unique(_combined_key(codes), return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def first_rows_as_seen(*codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """first_rows with the combinations in the order the rows first hold them: hashed rather than sorted, twice as
    fast over millions of rows where the order does not matter."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if not codes[0].size:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    encoded = pc.dictionary_encode(pa.array(_combined_key(codes)))
    inverse = encoded.indices.to_numpy().astype(np.int64)
    first = np.empty(len(encoded.dictionary), np.int64)
    first[inverse[::-1]] = np.arange(len(inverse) - 1, -1, -1)  # the last write to each is its first row
    return first, inverse


def _combined_key(codes: tuple[np.ndarray, ...]) -> np.ndarray:
    """One int64 key per row for its combination of codes, extended column by column (coded again only where it
    could outgrow an int64)."""
    import numpy as np

    key, bound = np.zeros(len(codes[0]), np.int64), 1
    for column in codes:
        key, bound = _extended(key, bound, column.astype(np.int64), int(column.max()) + 1)
    return key


def _extended(key: np.ndarray, bound: int, column: np.ndarray, size: int) -> tuple[np.ndarray, int]:
    """The keys (each below `bound`) extended by a column of codes below `size` — key * size + code, so their order is
    the pair's — and the new bound; keys are numbered densely first (np.unique, same order) only where the product
    could pass KEY_BOUND."""
    import numpy as np

    if bound * size > KEY_BOUND:
        _, key = np.unique(key, return_inverse=True)
        key = key.reshape(-1)
        bound = int(key.max()) + 1 if len(key) else 1
    return key * size + column, bound * size


def mostly_repeated(array: pa.Array, share: float, sample: int = SAMPLE_ROWS) -> bool:
    """Whether at most `share` of the array's values look distinct — counted when it is short, else estimated from
    a random sample (fixed seed) as if every distinct value were as common as any other: numbering the values first
    pays only then (Arrow hashes millions of distinct strings slower than most per-value work)."""
    return mostly_repeated_at(len(array), lambda taken: array if taken is None else array.take(taken), share, sample)


def mostly_repeated_at(rows: int, values_at: Callable[[pa.Array | None], pa.Array], share: float,
                       sample: int = SAMPLE_ROWS) -> bool:
    """mostly_repeated of `rows` values that `values_at` gives at the positions asked (all of them for None): for
    values that are dear to build for every row, such as a pair of texts joined into one."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if rows <= sample:
        return pc.count_distinct(values_at(None), mode="all").as_py() <= share * rows
    taken = np.sort(np.random.default_rng(0).choice(rows, sample, replace=False))
    seen = pc.count_distinct(values_at(pa.array(taken)), mode="all").as_py()
    return distinct_estimate(seen, sample, rows) <= share * rows


def mostly_repeated_lists(lists: pa.Array, share: float, sample: int = SAMPLE_ROWS) -> bool:
    """mostly_repeated for a list array without nulls, each sampled list numbered by list_row_codes."""
    import pyarrow as pa

    def numbered(taken: pa.Array | None) -> pa.Array:
        return pa.array(list_row_codes(lists if taken is None else lists.take(taken))[1])

    return mostly_repeated_at(len(lists), numbered, share, sample)


def distinct_estimate(seen: int, sample: int, rows: int) -> float:
    """How many distinct values `rows` values hold when `sample` of them, drawn without replacement, hold `seen`,
    each value taken as equally common: the D at which D·(1 − (1 − sample/rows)^(rows/D)) = seen (infinite when
    every sampled value differs)."""
    import math

    if seen >= sample:
        return math.inf
    left = math.log1p(-sample / rows) if sample < rows else -math.inf

    def expected(distinct: float) -> float:
        return distinct * -math.expm1(left * rows / distinct)

    low, high = float(seen), 2.0 * seen
    while expected(high) < seen:
        low, high = high, 2 * high
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if expected(middle) < seen else (low, middle)
    return high


def per_distinct_value(compute: Callable[[Any], T], array: pa.Array | pa.ChunkedArray) -> tuple[list[T], np.ndarray]:
    """compute(value) once per distinct value of an Arrow array: the results and each row's index into them."""
    values, codes = value_codes(array)
    return [compute(value) for value in values], codes


def in_row_order(results: list[Any], codes: np.ndarray, kind: pa.DataType) -> pa.Array:
    """Results per distinct value (or combination) back in row order, as an Arrow array of `kind`."""
    import pyarrow as pa

    return pa.array(results, kind).take(pa.array(codes))


def per_distinct_text(compute: Callable[[Any], Any], texts: pa.Array | pa.ChunkedArray, kind: pa.DataType) -> pa.Array:
    """compute(text) for every text of an Arrow column, once per distinct text (null stays null), in row order."""
    results, codes = per_distinct_value(lambda text: None if text is None else compute(text), texts)
    return in_row_order(results, codes, kind)


def value_counts(column: pa.Array | pa.ChunkedArray) -> dict[Any, int]:
    """How many rows of an Arrow column hold each value, in order of first appearance."""
    import pyarrow.compute as pc

    counts = pc.value_counts(column)
    return dict(zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist()))


def shared_floats(column: pa.Array | pa.ChunkedArray) -> list[float | None]:
    """An Arrow column of numbers as Python floats (null as None), each distinct value a single object, as
    shared_values gives them — taken by Arrow's dictionary encoding and numpy, not a dict lookup per row."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    encoded = pc.dictionary_encode(column.cast(pa.float64()))
    objects = np.array([*encoded.dictionary.to_pylist(), None], dtype=object)
    return objects[encoded.indices.fill_null(len(encoded.dictionary)).to_numpy()].tolist()


def shared_values(values: list[T]) -> list[T]:
    """The same values, each distinct one a single object: ten million per-item scores of a few thousand distinct
    values then take 8 bytes an item (a pointer) instead of 32 (a float object of their own)."""
    first: dict[Any, T] = {}
    return [first.setdefault(value, value) for value in values]
