"""Answers shown unequal by value before math-verify simplifies their difference or takes the symmetric difference of
two sets: the shortcuts prove only what those steps could not contradict, and math-verify's verdicts stay its own."""
import logging

import pytest

pytest.importorskip("math_verify")

import math_verify.grader as grader  # noqa: E402
from math_verify import parse, verify  # noqa: E402
from sympy import FiniteSet, Integer, Interval, Rational, Set, Symbol, Union, oo, pi, sqrt  # noqa: E402

from stages.kinds.math.numeric_disproof import (  # noqa: E402
    clearly_unequal,
    sets_clearly_differ,
    with_numeric_disproof,
    with_set_disproof,
)

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


def test_values_past_a_floats_range_are_left_to_math_verify():
    assert clearly_unequal(Integer(10) ** 300, Integer(10) ** 300 * 2)
    assert not clearly_unequal(Integer(10) ** 400, Integer(10) ** 400 * 2)
    assert not sets_clearly_differ(FiniteSet(Integer(10) ** 400), FiniteSet(1))


@pytest.mark.parametrize("gold, answer", UNEQUAL + EQUAL_BY_SIMPLIFY + [("\\{1, 2\\}", "\\{2, 1\\}"), ("x = 5", "5"),
                                                                    ("[1, 2)", "(1, 2)"), ("10\\%", "0.1")])
def test_math_verify_gives_the_same_verdict_with_and_without_the_shortcut(gold, answer, monkeypatch):
    plain = verify(_read(gold), _read(answer), timeout_seconds=None)
    monkeypatch.setattr(grader, "sympy_symbolic_eq", with_numeric_disproof(grader.sympy_symbolic_eq))
    assert verify(_read(gold), _read(answer), timeout_seconds=None) is plain
    assert plain is ((gold, answer) not in UNEQUAL and (gold, answer) != ("[1, 2)", "(1, 2)"))


SETS_APART = [(FiniteSet(10), FiniteSet(1 + sqrt(19), 1 - sqrt(19))), (FiniteSet(1, 2), FiniteSet(1, 3)),
              (FiniteSet(12), Interval(pi ** 2 / 8, 5 * pi ** 2 / 4)), (Interval.open(1, 2), FiniteSet(1, 2)),
              (Union(Interval.open(0, 9), Interval.open(9, 36)), FiniteSet(Rational(8, 21))),
              (FiniteSet(5), Union(Interval.open(-oo, 2), Interval.open(3, oo))), (FiniteSet(Rational(1, 3)),
                                                                                    FiniteSet(0.333333))]
SETS_NOT_SHOWN = [(FiniteSet(1, 2), FiniteSet(2, 1)), (FiniteSet(sqrt(8)), FiniteSet(2 * sqrt(2))),
                  (FiniteSet(Symbol("x")), FiniteSet(Symbol("y"))), (Interval(0, 1), Interval(2, 3)),
                  (FiniteSet(1), Interval(Symbol("a"), 2)), (FiniteSet(1, 2), Union(FiniteSet(1), FiniteSet(2)))]


@pytest.mark.parametrize("a, b", SETS_APART)
def test_sets_apart_by_value_are_shown_to_differ(a, b):
    assert sets_clearly_differ(a, b) and sets_clearly_differ(b, a)


@pytest.mark.parametrize("a, b", SETS_NOT_SHOWN)
def test_equal_sets_and_what_values_cannot_tell_are_never_shown_to_differ(a, b):
    assert not sets_clearly_differ(a, b) and not sets_clearly_differ(b, a)


SET_PAIRS = [("10", "1 \\pm \\sqrt{19}"), ("12", "\\left[ \\frac{\\pi^2}{8}, \\frac{5 \\pi^2}{4} \\right]"),
             ("(0,9) \\cup (9,36)", "\\frac{8}{21}"), ("(1, 2)", "1, 2"), ("\\{1, 2\\}", "\\{2, 1\\}"),
             ("\\{\\frac{1}{3}\\}", "\\{0.333333\\}"), ("x \\in [-2,7]", "[-2, 7]"), ("(-\\infty, 2) \\cup (3, \\infty)", "5"),
             ("1, 2", "2, 1"), ("[1, 2]", "1, 2"), ("x < 3", "(-\\infty, 3)"), ("\\{1, 2, 3\\}", "\\{1, 2\\}")]


@pytest.mark.parametrize("gold, answer", SET_PAIRS)
def test_math_verify_gives_the_same_set_verdict_with_and_without_the_set_shortcut(gold, answer, monkeypatch):
    plain = verify(_read(gold), _read(answer), timeout_seconds=None)
    monkeypatch.setattr(grader, "sympy_compare_sets", with_set_disproof(grader.sympy_compare_sets))
    assert verify(_read(gold), _read(answer), timeout_seconds=None) is plain
    assert Set.symmetric_difference is SYMMETRIC_DIFFERENCE  # put back after each comparison


SYMMETRIC_DIFFERENCE = Set.symmetric_difference


def test_sets_shown_to_differ_skip_only_their_symmetric_difference(monkeypatch):
    taken = []

    def recorded(self, other):
        taken.append((self, other))
        return SYMMETRIC_DIFFERENCE(self, other)

    monkeypatch.setattr(Set, "symmetric_difference", recorded)
    assert not verify(_read("10"), _read("1 \\pm \\sqrt{19}"), timeout_seconds=None)
    assert [tuple(map(str, pair)) for pair in taken] == [("{10}", "{1 - sqrt(19), 1 + sqrt(19)}")]
    taken.clear()
    monkeypatch.setattr(grader, "sympy_compare_sets", with_set_disproof(grader.sympy_compare_sets))
    assert not verify(_read("10"), _read("1 \\pm \\sqrt{19}"), timeout_seconds=None)
    assert verify(_read("\\{1, 2\\}"), _read("\\{2, 1, 1\\}"), timeout_seconds=None)
    assert not verify(_read("\\{1, 2\\}"), _read("\\{x, 2\\}"), timeout_seconds=None)
    assert [str(first) for first, _ in taken] == ["{1, 2}"]  # {x, 2}: values cannot tell, so it is taken


def test_an_interval_shown_apart_is_read_as_open_from_its_ends_not_from_its_boundary(monkeypatch):
    asked = []
    boundary = Interval._boundary
    monkeypatch.setattr(Interval, "_boundary", property(lambda self: asked.append(self) or boundary.fget(self)))
    cases = [("(1, 2)", "1, 2", True), ("[1, 2]", "1, 2", False), ("(1, 2)", "5", False), ("(-\\infty, 3)", "3, 4", False)]
    assert [verify(_read(gold), _read(answer), timeout_seconds=None) for gold, answer, _ in cases] == [
        equal for _, _, equal in cases] and asked  # plain math-verify: from the boundary
    asked.clear()
    monkeypatch.setattr(grader, "sympy_compare_sets", with_set_disproof(grader.sympy_compare_sets))
    assert [verify(_read(gold), _read(answer), timeout_seconds=None) for gold, answer, _ in cases] == [
        equal for _, _, equal in cases] and asked == []
    assert "is_open" not in Interval.__dict__
