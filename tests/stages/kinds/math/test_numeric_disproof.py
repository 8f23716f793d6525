"""Answers shown unequal by value before math-verify simplifies their difference: the shortcut proves only what
simplify could not contradict, and math-verify's verdicts stay its own."""
import logging

import pytest

pytest.importorskip("math_verify")

import math_verify.grader as grader  # noqa: E402
from math_verify import parse, verify  # noqa: E402
from sympy import Interval, Symbol, sqrt  # noqa: E402

from stages.kinds.math.numeric_disproof import clearly_unequal, with_numeric_disproof  # noqa: E402

UNEQUAL = [("p - q", "2000"), ("\\cot x", "18"), ("\\frac{6}{5}", "\\frac{14}{3}"), ("8n^2 + 4n + 1", "13535"),
           ("x^5 - x^4 + x^3 - x^2 + x - 1", "-1"), ("2\\sqrt{113}", "\\frac{9a + 11}{20}"), ("\\pi", "3.14159")]
EQUAL_BY_SIMPLIFY = [("\\sin^2 x + \\cos^2 x", "1"), ("(x+1)^2", "x^2+2x+1"), ("2\\sqrt{2}", "\\sqrt{8}"),
                     ("\\frac{x^2-1}{x-1}", "x+1"), ("\\ln(e^3)", "3"), ("\\frac{1}{3}", "0.3333333333333"),
                     ("|x|^2", "x^2"), ("\\binom{5}{2}", "10")]


def _read(text: str):
    logging.disable(logging.CRITICAL)
    return parse("\\boxed{" + text + "}", parsing_timeout=None)


@pytest.mark.parametrize("gold, answer", UNEQUAL)
def test_different_values_are_shown_unequal(gold, answer):
    assert clearly_unequal(_read(gold)[0], _read(answer)[0])


@pytest.mark.parametrize("gold, answer", EQUAL_BY_SIMPLIFY)
def test_equal_values_are_never_shown_unequal(gold, answer):
    assert not clearly_unequal(_read(gold)[0], _read(answer)[0])


def test_symbols_with_assumptions_a_real_point_may_break_and_non_expressions_are_left_to_math_verify():
    n = Symbol("n", integer=True)
    assert not clearly_unequal((-1) ** (2 * n), 3)
    assert not clearly_unequal(sqrt(Symbol("y", positive=True) ** 2), 5)
    assert not clearly_unequal(Interval(0, 1), Interval(2, 3))


@pytest.mark.parametrize("gold, answer", UNEQUAL + EQUAL_BY_SIMPLIFY + [("\\{1, 2\\}", "\\{2, 1\\}"), ("x = 5", "5"),
                                                                    ("[1, 2)", "(1, 2)"), ("10\\%", "0.1")])
def test_math_verify_gives_the_same_verdict_with_and_without_the_shortcut(gold, answer, monkeypatch):
    plain = verify(_read(gold), _read(answer), timeout_seconds=None)
    monkeypatch.setattr(grader, "sympy_symbolic_eq", with_numeric_disproof(grader.sympy_symbolic_eq))
    assert verify(_read(gold), _read(answer), timeout_seconds=None) is plain
    assert plain is ((gold, answer) not in UNEQUAL and (gold, answer) != ("[1, 2)", "(1, 2)"))
