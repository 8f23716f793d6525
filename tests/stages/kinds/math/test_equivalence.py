"""Symbolic equivalence by math-verify in child processes, each comparison under a time limit that works off the main
thread."""
import base64
import pickle
import threading
import time

import pytest

from stages.kinds.math import equivalence
from stages.kinds.math.equivalence import CheckerFailed, CheckerPool, compare_answers

pytest.importorskip("math_verify")

@pytest.fixture
def started(monkeypatch) -> list:
    """(checker, its process) for every math-verify checker started during the test."""
    found: list = []
    original = equivalence._Checker.start

    def recording(self):
        original(self)
        found.append((self, self.process))

    monkeypatch.setattr(equivalence._Checker, "start", recording)
    return found


EQUAL = [  # (gold, answer): forms worked out by hand to be the same value
    ("\\frac{1}{2}", "0.5"), ("\\frac{1}{2}", "\\frac12"), ("\\frac{1}{2}", "50\\%"), ("7425000", "7,425,000"),
    ("5", "x = 5"), ("\\pi", "\\pi"), ("2\\sqrt{2}", "\\sqrt{8}"), ("[1, 2)", "[1,2)"), ("(3, \\frac{\\pi}{2})",
    "\\left( 3, \\frac{\\pi}{2} \\right)"), ("\\{1, 2\\}", "\\{2, 1\\}"), ("90^\\circ", "90"),
    ("10\\text{ cm}", "10"), ("\\text{Evelyn}", "\\text{Evelyn}"), ("1500", "1.5\\times 10^{3}"),
    ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"), ("x^2+2x+1", "(x+1)^2"),
]
NOT_EQUAL = [("2\\sqrt{2}", "3\\sqrt{2}"), ("\\frac{1}{2}", "2"), ("(1, 2)", "[1, 2]"), ("\\{1, 2\\}", "\\{1, 3\\}"),
             ("7", "8"), ("\\text{Evelyn}", "\\text{Bob}")]


def test_equal_forms_are_equal_and_different_values_are_not():
    found = compare_answers(EQUAL + NOT_EQUAL, 10.0)
    assert [c.equal for c in found] == [True] * len(EQUAL) + [False] * len(NOT_EQUAL)
    assert found[0].gold_read == "1/2" and found[0].answer_read == "1/2"


def test_a_comparison_past_its_limit_is_not_compared_and_the_rest_go_on_in_a_worker_thread():
    pairs = [("3", "3"), ("10^{10^{10^{10}}}", "10^{10^{10^{10}}}+1"), ("4", "4")]
    found: list = []
    worker = threading.Thread(target=lambda: found.extend(compare_answers(pairs, 2.0, checkers=1)))
    started = time.monotonic()
    worker.start()
    worker.join(60)
    assert not worker.is_alive()
    assert [c.equal for c in found] == [True, None, True]
    assert found[1].problem == "over 2 s"
    assert time.monotonic() - started < 30


def test_the_checker_process_is_killed_when_over_its_limit(started):
    compare_answers([("10^{10^{10^{10}}}", "10^{10^{10^{10}}}+1"), ("10^{10^{10^{10}}}", "1")], 1.0, checkers=1)
    assert len(started) == 2
    assert all(process.poll() is not None for _, process in started)


def test_a_checker_that_cannot_start_names_the_package(monkeypatch, tmp_path):
    broken = tmp_path / "worker.py"
    broken.write_text("import math_verify_is_not_here\n")
    monkeypatch.setattr(equivalence, "WORKER", broken)
    with pytest.raises(CheckerFailed, match="math-verify"):
        compare_answers([("1", "1")], 5.0)


def test_nothing_to_compare_starts_nothing():
    assert compare_answers([], 5.0) == []


def test_a_pair_compared_before_is_answered_without_a_checker_and_one_not_compared_is_tried_again(started):
    slow = ("10^{10^{10^{10}}}", "10^{10^{10^{10}}}+1")
    with CheckerPool(1.0, checkers=1) as pool:
        first = pool.compare([("\\frac{1}{2}", "0.5"), ("7", "8"), ("7", "8"), slow])
        assert [c.equal for c in first] == [True, False, False, None] and len(started) == 1
        pool.close()
        again = pool.compare([("7", "8"), ("\\frac{1}{2}", "0.5"), ("7", "8")])
        assert [c.equal for c in again] == [False, True, False] and len(started) == 1
        assert pool.compare([slow])[0].equal is None and len(started) == 2


def test_checkers_started_ahead_are_taken_ready_by_the_next_pool_and_not_by_a_forked_child(started, monkeypatch):
    equivalence.start_checkers_ahead(1)
    equivalence.start_checkers_ahead(1)  # one is already on its way: nothing more starts
    with CheckerPool(10.0, checkers=1) as pool:
        assert [c.equal for c in pool.compare([("\\frac{1}{2}", "0.5"), ("7", "8")])] == [True, False]
    assert len(started) == 1 and started[0][0].process is None  # the pool took it, and stopped it on close
    equivalence.start_checkers_ahead(1)
    monkeypatch.setattr(equivalence, "_AHEAD_PID", [-1])  # as a child forked after the start sees it
    assert equivalence._checker_ahead() is None
    monkeypatch.undo()
    equivalence._stop_unclaimed()
    assert not equivalence._AHEAD


def test_a_checker_started_ahead_that_no_pool_takes_is_stopped(monkeypatch):
    monkeypatch.setattr(equivalence, "AHEAD_SECONDS", 0.2)
    equivalence.start_checkers_ahead(1)
    future = equivalence._AHEAD[0]
    checker = future.result(timeout=120)
    deadline = time.monotonic() + 30
    while checker.process is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert checker.process is None and not equivalence._AHEAD


def test_checkers_share_their_parses_and_give_the_verdicts_one_checker_gives(monkeypatch):
    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)
    asked: list[str] = []
    original = equivalence._Checker.parse

    def recording(self, texts, seconds):
        asked.extend(texts)
        return original(self, texts, seconds)

    monkeypatch.setattr(equivalence._Checker, "parse", recording)
    unevaluated = [("\\frac{\\sqrt{3}}{3}", "\\frac{1}{\\sqrt{3}}"), ("-13x+3", "3-13x"), ("\\frac{\\sqrt{3}}{3}", "1")]
    pairs = EQUAL + NOT_EQUAL + unevaluated + [(answer, gold) for gold, answer in EQUAL]
    with CheckerPool(10.0, checkers=2) as pool:
        shared = [c.equal for c in pool.compare(pairs)]
        assert sorted(asked) == sorted({text for pair in pairs for text in pair})  # each text parsed once
        assert pool.parses["\\frac{1}{2}"] and pool.parses["\\frac{\\sqrt{3}}{3}"] is None  # the latter re-evaluates
    assert shared == [c.equal for c in compare_answers(pairs, 10.0, checkers=1)]
    assert shared == [True] * len(EQUAL) + [False] * len(NOT_EQUAL) + [True, True, False] + [True] * len(EQUAL)


def test_a_text_past_the_limit_to_parse_is_not_compared_with_anything_and_costs_one_limit(monkeypatch, started):
    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)
    slow = "10^{10^{10^{10}}}+1"
    pairs = [("3", "3"), ("4", slow), ("5", slow), ("6", slow), (slow, "7"), ("4", "4")]
    found = compare_answers(pairs, 2.0, checkers=2)
    assert [c.equal for c in found] == [True, None, None, None, None, True]
    assert {c.problem for c in found[1:5]} == {"over 2 s"}
    assert len(started) <= 3  # two checkers, and one in place of the one killed on the slow text (not one a pair)


def test_a_parse_travels_only_when_it_loads_back_the_same():
    from stages.kinds.math import verify_worker

    parsed: dict = {}
    half = verify_worker._shippable(verify_worker._parsed(parsed, "\\frac{1}{2}"))
    assert str(pickle.loads(base64.b64decode(half))[0]) == "1/2"
    assert verify_worker._shippable(verify_worker._parsed(parsed, "\\frac{\\sqrt{3}}{3}")) is None
