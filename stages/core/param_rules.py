"""Rules for parameter values, checked before any stage runs: each rule says why a value is not allowed, or None."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Rule = Callable[[Any], "str | None"]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def one_of(*allowed: str) -> Rule:
    """The value is one of the named choices."""

    def check(value: Any) -> str | None:
        return None if value in allowed else f"must be one of {', '.join(map(repr, allowed))}"

    return check


def within(low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> Rule:
    """A number in [low, high]; either end may be open."""
    shown = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"

    def check(value: Any) -> str | None:
        if not _is_number(value):
            return f"must be a number in {shown}"
        too_low = value <= low if low_open else value < low
        too_high = value >= high if high_open else value > high
        return f"must be within {shown}" if too_low or too_high else None

    return check


def at_least(low: float, *, integer: bool = False) -> Rule:
    """A number (a whole number when asked) no smaller than low."""
    what = "a whole number" if integer else "a number"

    def check(value: Any) -> str | None:
        if not _is_number(value) or (integer and not float(value).is_integer()):
            return f"must be {what} ≥ {low:g}"
        return None if value >= low else f"must be {what} ≥ {low:g}"

    return check


def weights_over(names: Iterable[str]) -> Rule:
    """A table of non-negative weights over known names, at least one of them positive."""
    known = tuple(names)

    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"must be a table of weights over {', '.join(known)}"
        unknown = sorted(set(value) - set(known))
        if unknown:
            return f"has unknown name(s) {', '.join(unknown)} (known: {', '.join(known)})"
        if not all(_is_number(w) and w >= 0 for w in value.values()):
            return "weights must be numbers ≥ 0"
        return None if any(w > 0 for w in value.values()) else "needs at least one weight above 0"

    return check


def named_in(names: Iterable[str]) -> Rule:
    """Text whose part before any ':' is one of the names (e.g. "sentence-transformers:/models/x")."""
    known = tuple(names)

    def check(value: Any) -> str | None:
        if isinstance(value, str) and value.partition(":")[0] in known:
            return None
        return f"must be one of {', '.join(known)} (optionally followed by ':<argument>')"

    return check
