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


def per_distinct_row(compute: Callable[..., T], *columns: list[Any], grouped_by: int | None = None) -> list[T]:
    """compute(*row) for every row of these columns, called once per distinct row (replies repeat: a million CMMLU
    rows hold under fifty thousand distinct (reply, options) pairs; FEVER's verdicts a handful). With `grouped_by`,
    distinct rows sharing that column's value are computed one after another (what compute caches per options
    stays warm)."""
    numbers: dict[tuple[Any, ...], int] = {}  # distinct row → its number; rows keep numbers, not their own keys
    distinct_rows, numbered = [], []
    for row in zip(*columns):
        number = numbers.setdefault(tuple(_hashable(value) for value in row), len(numbers))
        if number == len(distinct_rows):
            distinct_rows.append(row)
        numbered.append(number)
    order = range(len(distinct_rows))
    if grouped_by is not None:
        rank: dict[Any, int] = {}
        group_keys = [key[grouped_by] for key in numbers]
        order = sorted(order, key=lambda n: rank.setdefault(group_keys[n], len(rank)))
    found: list[Any] = [None] * len(distinct_rows)
    for number in order:
        found[number] = compute(*distinct_rows[number])
    return [found[number] for number in numbered]
