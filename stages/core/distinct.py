"""Work once per distinct value: row columns repeat (a verdict vocabulary of a few labels, replies that recur), so a
per-row function is called once per distinct row and its result shared."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _hashable(value: Any) -> Any:
    """A row value as a dictionary key: options lists and tables as tuples; other non-text values with their type
    (True, 1 and 1.0 are equal keys, yet read differently)."""
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, dict):
        return tuple(value.items())
    return tuple(value) if isinstance(value, list) else (type(value), value)


def per_distinct_row(compute: Callable[..., T], *columns: list[Any]) -> list[T]:
    """compute(*row) for every row of these columns, called once per distinct row (replies repeat: a million CMMLU
    rows hold under fifty thousand distinct (reply, options) pairs; FEVER's verdicts a handful)."""
    found: dict[tuple[Any, ...], T] = {}
    results = []
    for row in zip(*columns):
        key = tuple(_hashable(value) for value in row)
        if key not in found:
            found[key] = compute(*row)
        results.append(found[key])
    return results
