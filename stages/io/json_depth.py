"""How deep a JSON text nests, found before any parser sees it: pyarrow.json and orjson crash the process (a segfault,
not an exception) on texts nested tens of thousands deep, so such a line or file is set aside instead."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

MAX_JSON_DEPTH = 500  # real records nest a few levels; parsers are safe far beyond this
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def nesting_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in `data`, brackets inside strings not counted (a malformed text
    counts at least as deep as a parser could go before it stops)."""
    import numpy as np

    raw = np.frombuffer(_STRING.sub(b'""', data), dtype=np.uint8)
    steps = ((raw == ord("[")) | (raw == ord("{"))).astype(np.int32) - ((raw == ord("]")) | (raw == ord("}")))
    return int(steps.cumsum().max(initial=0))


def _openers(data: bytes) -> int:
    """How many opening brackets `data` holds: a text with no more cannot nest deeper."""
    return data.count(b"[") + data.count(b"{")


def too_deep(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether `data` nests deeper than `limit` (counting brackets first: a text with few cannot)."""
    return _openers(data) > limit and nesting_depth(data) > limit


def depth_problem(data: bytes, limit: int = MAX_JSON_DEPTH) -> str | None:
    """The reason a text is set aside for its depth, or None when a parser may read it."""
    return f"JSON nested deeper than {limit} levels" if too_deep(data, limit) else None


def lines_with_many_openers(data: bytes, starts: np.ndarray, ends: np.ndarray,
                            limit: int = MAX_JSON_DEPTH) -> np.ndarray:
    """Which lines (from `starts` to `ends` in `data`) hold more than `limit` opening brackets: the only ones that
    could nest too deep. Only a line longer than `limit` bytes can, so only those are counted (on the brackets' sorted
    positions, not line by line: FEVER has thousands of such lines a block)."""
    import numpy as np

    many = np.zeros(len(starts), dtype=bool)
    long = np.flatnonzero(ends - starts > limit)
    if not len(long):
        return many
    low, high = int(starts[long[0]]), int(ends[long[-1]])
    raw = np.frombuffer(data, dtype=np.uint8)[low:high]
    openers = np.flatnonzero((raw == ord("[")) | (raw == ord("{"))) + low
    many[long] = np.searchsorted(openers, ends[long]) - np.searchsorted(openers, starts[long]) > limit
    return many


def load_json(data: bytes | str) -> Any:
    """orjson.loads of a foreign text, refusing one nested deeper than MAX_JSON_DEPTH with the JSONDecodeError a
    malformed text gets, before the parser could crash on it."""
    import orjson

    raw = data.encode() if isinstance(data, str) else data
    problem = depth_problem(raw)
    if problem is not None:
        raise orjson.JSONDecodeError(problem, raw[:100].decode(errors="replace"), 0)
    return orjson.loads(raw)
