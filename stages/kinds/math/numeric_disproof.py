"""Two answers shown unequal by value before math-verify simplifies their difference: when a − b is clearly non-zero at
two fixed real points, simplify(a − b) cannot be zero (simplify keeps values), so math-verify's symbolic step is
skipped with the verdict it would reach. Imported by verify_worker.py (run as a script), so it names no evalpipe module."""
from __future__ import annotations

from functools import cache
from typing import Any, Callable

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
        return all(_differ_at(a, b, {symbol: point[i % len(point)] + i // len(point)
                                     for i, symbol in enumerate(symbols)}) for point in POINTS)
    except Exception:  # noqa: BLE001 - what cannot be evaluated is left to math-verify
        return False


def _differ_at(a: Any, b: Any, values: dict) -> bool:
    first, second = (side.evalf(DIGITS, subs=values) if values else side.evalf(DIGITS) for side in (a, b))
    if not (first.is_number and second.is_number and first.is_finite and second.is_finite):
        return False
    gap = abs((first - second).evalf(DIGITS))
    return bool(gap.is_number and gap > RELATIVE_GAP * (1 + abs(first) + abs(second)))


def with_numeric_disproof(symbolic_eq: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """math-verify's symbolic equality, asked only of pairs not shown unequal by value."""

    def symbolic_eq_unless_disproved(a: Any, b: Any) -> bool:
        return False if clearly_unequal(a, b) else symbolic_eq(a, b)

    return symbolic_eq_unless_disproved
