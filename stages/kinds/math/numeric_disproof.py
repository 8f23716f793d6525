"""Two answers shown unequal by value before math-verify's costly steps: when a − b is clearly non-zero at two fixed
real points, simplify(a − b) cannot be zero (simplify keeps values); when two sets clearly differ by value (a number
apart from every number of the other finite set, or an interval of positive length against a finite set), their
symmetric difference cannot be empty. Each step is skipped with the verdict it would reach. Imported by
verify_worker.py (run as a script), so it names no evalpipe module."""
from __future__ import annotations

import cmath
from contextlib import contextmanager
from functools import cache
from typing import Any, Callable, Iterator

# Two points of transcendental-looking values (no 0, 1, π/2 … where functions have their special values); a point's
# k-th symbol (in name order) takes its k-th value, plus 1 for each time round the list.
POINTS = ((0.5772156649, 1.6180339887, 1.4142135623, 2.7182818284, 0.3183098861),
          (1.2020569031, 0.6931471805, 1.7320508075, 0.9159655941, 2.2360679774))
DIGITS = 30  # the precision values are evaluated at
RELATIVE_GAP = 1e-10  # a difference this small against the values' size is not taken as proof


@cache
def _allowed_assumptions() -> list[dict[str, bool]]:
    """Symbols a real point may stand for: plain ones and real ones (math-verify's parser makes real symbols)."""
    from sympy import Symbol

    return [Symbol("t").assumptions0, Symbol("t", real=True).assumptions0]


def clearly_unequal(a: Any, b: Any) -> bool:
    """True when a and b are expressions (no sets, relations or matrices) whose free symbols are plain or real and
    whose values differ clearly at both points; False when that cannot be shown."""
    from sympy import Expr, Symbol

    if not (isinstance(a, Expr) and isinstance(b, Expr)):
        return False
    try:
        symbols = sorted(a.free_symbols | b.free_symbols, key=str)
        allowed = _allowed_assumptions()
        if any(not isinstance(symbol, Symbol) or symbol.assumptions0 not in allowed for symbol in symbols):
            return False
        points = POINTS if symbols else POINTS[:1]  # without symbols both points give the same values
        return all(_differ_at(a, b, {symbol: point[i % len(point)] + i // len(point)
                                     for i, symbol in enumerate(symbols)}) for point in points)
    except Exception:  # noqa: BLE001 - what cannot be evaluated is left to math-verify
        return False


def _differ_at(a: Any, b: Any, values: dict) -> bool:
    first, second = (_number(side.evalf(DIGITS, subs=values) if values else side.evalf(DIGITS)) for side in (a, b))
    return first is not None and second is not None and _apart(first, second)


def _number(value: Any) -> complex | float | None:
    """A value evaluated to DIGITS as a Python complex number; None when it is not a finite number (or one past a
    float's range)."""
    try:
        number = float(value) if getattr(value, "is_Float", False) else complex(value)  # a real one read directly
    except (TypeError, ValueError, OverflowError):
        return None
    return number if cmath.isfinite(number) else None


def _apart(first: complex, second: complex) -> bool:
    """Two values clearly apart: their gap is more than RELATIVE_GAP of their size (floats' rounding is far below)."""
    return abs(first - second) > RELATIVE_GAP * (1 + abs(first) + abs(second))


def with_numeric_disproof(symbolic_eq: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """math-verify's symbolic equality, asked only of pairs not shown unequal by value."""

    def symbolic_eq_unless_disproved(a: Any, b: Any) -> bool:
        return False if clearly_unequal(a, b) else symbolic_eq(a, b)

    return symbolic_eq_unless_disproved


class _SetsDiffer(Exception):
    """Raised in place of the symmetric difference of two sets shown to differ (math-verify catches it: not equal)."""


def sets_clearly_differ(a: Any, b: Any) -> bool:
    """True when a and b are sets that clearly differ by value: two finite sets of numbers, a number of one apart
    from every number of the other; or a finite set against an interval of positive length (or a union holding one)."""
    from sympy import FiniteSet, Interval, Union

    try:
        if isinstance(a, FiniteSet) and isinstance(b, FiniteSet):
            first, second = _values(a), _values(b)
            return first is not None and second is not None and (_one_apart(first, second)
                                                                 or _one_apart(second, first))
        finite, other = (a, b) if isinstance(a, FiniteSet) else (b, a)
        if not isinstance(finite, FiniteSet):
            return False
        pieces = other.args if isinstance(other, Union) else (other,)
        return any(isinstance(piece, Interval) and _positive_length(piece) for piece in pieces)
    except Exception:  # noqa: BLE001 - what cannot be evaluated is left to math-verify
        return False


def _values(finite: Any) -> list[complex] | None:
    """A finite set's elements as numbers; None when one is not a finite number."""
    from sympy import Expr

    values = []
    for element in finite.args:
        value = _number(element.evalf(DIGITS)) if isinstance(element, Expr) and not element.free_symbols else None
        if value is None:
            return None
        values.append(value)
    return values


def _one_apart(values: list[complex], others: list[complex]) -> bool:
    return any(all(_apart(value, other) for other in others) for value in values)


def _positive_length(interval: Any) -> bool:
    """The interval's ends are numbers (or infinities) clearly apart: it holds more than finitely many numbers."""
    from sympy import oo

    start, end = interval.start, interval.end
    if start.free_symbols or end.free_symbols:
        return False
    if start == -oo or end == oo:
        return True
    first, second = _number(start.evalf(DIGITS)), _number(end.evalf(DIGITS))
    return (first is not None and second is not None and not first.imag and not second.imag
            and second.real > first.real and _apart(first, second))


def with_set_disproof(compare_sets: Callable[..., bool]) -> Callable[..., bool]:
    """math-verify's set comparison, its symmetric-difference step skipped for sets shown to differ by value (its
    other steps, e.g. an open interval read against a pair, still run)."""

    def compare_sets_unless_disproved(gold: Any, pred: Any, *args: Any) -> bool:
        from sympy import FiniteSet, Set, Tuple

        try:  # the sets math-verify makes of the two sides
            sides = tuple(side if isinstance(side, (Set, Tuple)) else FiniteSet(side) for side in (gold, pred))
        except Exception:  # noqa: BLE001 - left to math-verify
            sides = None
        if sides is None or not sets_clearly_differ(*sides):
            return compare_sets(gold, pred, *args)
        with _shown_apart(sides):
            return compare_sets(gold, pred, *args)

    return compare_sets_unless_disproved


@contextmanager
def _shown_apart(sides: tuple[Any, Any]) -> Iterator[None]:
    """While inside, sympy's symmetric difference of exactly these two sets raises _SetsDiffer, and whether one of
    them that is an interval with numbers for ends is open is read from its ends (sympy intersects it with its
    boundary, the same answer slowly)."""
    from sympy import Interval, Set

    symmetric_difference, is_open = Set.symmetric_difference, Interval.__dict__.get("is_open")
    inherited = Interval.is_open  # Set's, unless an outer comparison put its own

    def refused(self: Any, other: Any) -> Any:
        if (self, other) == sides:
            raise _SetsDiffer
        return symmetric_difference(self, other)

    def open_by_its_ends(self: Any) -> Any:
        if any(self is side for side in sides) and not (self.start.free_symbols or self.end.free_symbols):
            return bool(self.left_open and self.right_open)  # an infinite end is always open
        return inherited.fget(self)

    Set.symmetric_difference, Interval.is_open = refused, property(open_by_its_ends)
    try:
        yield
    finally:
        Set.symmetric_difference = symmetric_difference
        if is_open is None:
            del Interval.is_open
        else:
            Interval.is_open = is_open
