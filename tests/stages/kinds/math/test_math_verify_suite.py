"""Every one of Math-Verify's own 169 regression cases through the math kind's rules (the gold's answer, the reply's
final answer, math-verify's equivalence): evalpipe's verdict is the case's `expected`, except for the deliberate
differences listed in math_verify_suite.DELIBERATE, where it is evalpipe's own."""
import pytest

from stages.kinds.math.equivalence import compare_answers
from stages.kinds.math.final_answer import extract_final_answer, gold_answer
from tests.stages.kinds.math.math_verify_suite import DELIBERATE, intended_verdict, load_cases

pytest.importorskip("math_verify")

CASES = load_cases()


@pytest.fixture(scope="module")
def verdicts() -> list[int]:
    """evalpipe's verdict on each case, all compared in one batch."""
    pairs = [(gold_answer(case["gold"]), extract_final_answer(case["pred"]).text) for case in CASES]
    found = iter(compare_answers([pair for pair in pairs if None not in pair], 10.0))
    return [int(bool(next(found).equal)) if None not in pair else 0 for pair in pairs]


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{i}-{c['group']}" for i, c in enumerate(CASES)])
def test_each_case_gets_its_verdict(verdicts, index):
    case = CASES[index]
    assert verdicts[index] == intended_verdict(case), (case["gold"][-120:], case["pred"][-200:])


def test_the_suite_agrees_with_math_verify_but_for_the_deliberate_differences(real_data, verdicts):
    assert len(CASES) == 169
    agreeing = sum(verdict == case["expected"] for verdict, case in zip(verdicts, CASES))
    assert agreeing == len(CASES) - len(DELIBERATE) >= 165
    assert all(intended_verdict(case) != case["expected"] for case in CASES if (case["gold"], case["pred"]) in DELIBERATE)


def test_checkers_sharing_their_parses_give_every_case_the_same_verdict(verdicts, monkeypatch):
    from stages.kinds.math import equivalence

    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)  # two checkers even for 169 pairs: parses travel
    pairs = [(gold_answer(case["gold"]), extract_final_answer(case["pred"]).text) for case in CASES]
    found = iter(compare_answers([pair for pair in pairs if None not in pair], 10.0, checkers=2))
    assert [int(bool(next(found).equal)) if None not in pair else 0 for pair in pairs] == verdicts
