"""Symbolic equivalence by math-verify in checker processes forked from a warm parent, each comparison under a time
limit that works off the main thread."""
import base64
import os
import pickle
import threading
import time

import pytest

from stages.kinds.math import checker_parent, equivalence
from stages.kinds.math.checker_parent import CheckerFailed, start_checker_parent, stop_checker_parent
from stages.kinds.math.equivalence import CheckerPool, compare_answers, next_job

pytest.importorskip("math_verify")


def _pid(pidfd: int) -> int:
    """The process a pidfd stands for."""
    with open(f"/proc/self/fdinfo/{pidfd}") as info:
        return next(int(line.split()[1]) for line in info if line.startswith("Pid:"))


def _stat(pid: int) -> list[str]:
    """A process's /proc stat fields after its name (state first, parent pid second); [] once it is reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return []


def _cpu(pid: int) -> float:
    """A process's CPU seconds so far."""
    return sum(map(int, _stat(pid)[11:13])) / os.sysconf("SC_CLK_TCK")


def _ended(pid: int) -> bool:
    return _stat(pid)[:1] in ([], ["Z"], ["X"])


def _parent() -> checker_parent.CheckerParent:
    return checker_parent._PARENTS[os.getpid()]


def _done_warming(parent: checker_parent.CheckerParent) -> None:
    """Wait until the warm parent has parsed what it was given (it then sleeps on its socket)."""
    with parent.lock:
        parent._wait_ready()
    deadline, asleep = time.monotonic() + 60, 0
    while asleep < 10 and time.monotonic() < deadline:
        asleep = asleep + 1 if _stat(parent.process.pid)[:1] == ["S"] else 0
        time.sleep(0.05)


@pytest.fixture
def started(monkeypatch) -> list:
    """(checker, its pid, its parent's pid) for every math-verify checker forked during the test."""
    found: list = []
    original = equivalence._Checker.start

    def recording(self, seconds):
        original(self, seconds)
        pid = _pid(self.pidfd)
        found.append((self, pid, int(_stat(pid)[1])))

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


@pytest.fixture
def parses_asked(monkeypatch) -> list[str]:
    """Every text a checker is asked to parse, in order, as the pool asks."""
    asked: list[str] = []
    original = equivalence._Checker.parse

    def recording(self, texts, seconds):
        asked.extend(texts)
        return original(self, texts, seconds)

    monkeypatch.setattr(equivalence._Checker, "parse", recording)
    return asked


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
    assert all(_ended(pid) for _, pid, _ in started)


def test_a_checker_that_cannot_start_names_the_package(monkeypatch, tmp_path):
    broken = tmp_path / "worker.py"
    broken.write_text("import math_verify_is_not_here\n")
    stop_checker_parent()
    monkeypatch.setattr(checker_parent, "WORKER", broken)
    with pytest.raises(CheckerFailed, match="math-verify"):
        compare_answers([("1", "1")], 5.0)
    monkeypatch.undo()
    assert [c.equal for c in compare_answers([("1", "1")], 5.0)] == [True]  # a broken parent is not kept


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


def test_a_checker_killed_over_its_limit_is_replaced_by_a_fork_of_the_same_warm_parent_and_pools_reuse_it(started):
    slow = ("10^{10^{10^{10}}}", "10^{10^{10^{10}}}+1")
    with CheckerPool(1.0, checkers=1) as pool:
        found = pool.compare([("\\frac{1}{2}", "0.5"), slow, ("7", "8"), ("\\frac{1}{2}", "\\frac12")])
    assert [c.equal for c in found] == [True, None, False, True] and found[1].problem == "over 1 s"
    parent = _parent().process.pid
    with CheckerPool(10.0, checkers=1) as pool:
        assert [c.equal for c in pool.compare([("2\\sqrt{2}", "\\sqrt{8}")])] == [True]
    assert _parent().process.pid == parent
    assert len(started) == 3 and all(_ended(pid) for _, pid, _ in started)  # the killed one, its fork, the next pool's
    assert len({pid for _, pid, _ in started}) == 3 and {forked_by for _, _, forked_by in started} == {parent}


def test_checkers_are_forks_of_the_warm_parent_and_hold_the_texts_it_parsed_ahead(started, monkeypatch,
                                                                                   parses_asked):
    stop_checker_parent()
    start_checker_parent(["\\frac{1}{2}", "\\frac{\\sqrt{3}}{3}", "7", "\\text{Evelyn}"])
    parent = _parent()
    _done_warming(parent)
    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)
    pairs = EQUAL + NOT_EQUAL + [("\\frac{\\sqrt{3}}{3}", "\\frac{1}{\\sqrt{3}}"), ("\\frac{\\sqrt{3}}{3}", "1")]
    with CheckerPool(10.0, checkers=2) as pool:
        found = [c.equal for c in pool.compare(pairs)]
        assert parent.held == {"\\frac{1}{2}", "\\frac{\\sqrt{3}}{3}", "7", "\\text{Evelyn}"}
        assert all(checker.holds >= parent.held for checker, _, _ in started)
    assert len(started) == 2 and {forked_by for _, _, forked_by in started} == {parent.process.pid}
    assert sorted(parses_asked) == sorted({text for pair in pairs for text in pair} - parent.held)  # the rest, once each
    assert found == [True] * len(EQUAL) + [False] * len(NOT_EQUAL) + [True, False]
    start_checker_parent(["9"])  # it no longer warms once a checker has been asked for
    assert parent.warm_texts == ["\\frac{1}{2}", "\\frac{\\sqrt{3}}{3}", "7", "\\text{Evelyn}"]


def test_a_text_given_to_the_warm_parent_again_is_not_queued_twice():
    stop_checker_parent()
    start_checker_parent(["1", "2"])
    start_checker_parent(["2", "3", "3", "1"])  # B3 gives B1's golds again with its final answers
    parent = _parent()
    assert parent.warm_texts == ["1", "2", "3"]
    _done_warming(parent)
    with CheckerPool(10.0, checkers=1) as pool:
        assert [c.equal for c in pool.compare([("3", "3.0"), ("2", "1")])] == [True, False]
    assert parent.held == {"1", "2", "3"}


def test_texts_of_one_shape_sort_together():
    texts = ["\\frac{1}{2}", "7", "[1, 2)", "\\frac{3}{4}", "12", "[0, 5)", "\\frac{10}{3}"]
    assert sorted(texts, key=equivalence.text_shape) == ["7", "12", "[1, 2)", "[0, 5)", "\\frac{1}{2}",
                                                          "\\frac{3}{4}", "\\frac{10}{3}"]


def test_jobs_from_both_ends_give_each_checker_neighbouring_jobs():
    taken: dict[int, list[int]] = {}
    both_started = threading.Barrier(2, timeout=30)

    def do(checker, job: int) -> None:
        if id(checker) not in taken:
            both_started.wait()  # each has taken its first job before either takes a second
        taken.setdefault(id(checker), []).append(job)

    with CheckerPool(10.0, checkers=2) as pool:
        pool._on_checkers(2, list(range(6)), do, both_ends=True)
        front, back = sorted(taken.values())
        assert front == sorted(front) and front[0] == 0 and back == sorted(back, reverse=True) and back[0] == 5
        assert sorted(front + back) == list(range(6))
        taken.clear()
        both_started.reset()
        pool._on_checkers(2, list(range(6)), do)
        assert {jobs[0] for jobs in taken.values()} == {0, 1}


def test_a_warm_parent_stuck_on_a_text_is_replaced_and_the_text_is_timed_where_compared(started):
    stop_checker_parent()
    slow = "x^{" * 55 + "2" + "}" * 55  # a text math-verify takes tens of seconds to parse
    start_checker_parent([slow, "3"])
    stuck = _parent()
    with stuck.lock:
        stuck._wait_ready()
    ready, deadline = _cpu(stuck.process.pid), time.monotonic() + 60
    while _cpu(stuck.process.pid) < ready + 0.3 and time.monotonic() < deadline:  # on the slow text by then
        time.sleep(0.05)
    begun = time.monotonic()
    found = compare_answers([("3", "3"), ("4", slow)], 1.0, checkers=1)
    assert [c.equal for c in found] == [True, None] and found[1].problem == "over 1 s"
    assert time.monotonic() - begun < 60
    assert _ended(stuck.process.pid) and _parent() is not stuck and _parent().held == frozenset()


def test_checkers_share_their_parses_and_give_the_verdicts_one_checker_gives(monkeypatch, parses_asked):
    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)
    unevaluated = [("\\frac{\\sqrt{3}}{3}", "\\frac{1}{\\sqrt{3}}"), ("-13x+3", "3-13x"), ("\\frac{\\sqrt{3}}{3}", "1")]
    pairs = EQUAL + NOT_EQUAL + unevaluated + [(answer, gold) for gold, answer in EQUAL]
    with CheckerPool(10.0, checkers=2) as pool:
        shared = [c.equal for c in pool.compare(pairs)]
        assert sorted(parses_asked) == sorted({text for pair in pairs for text in pair})  # each text parsed once
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


def test_a_checker_takes_first_the_groups_whose_unshipped_parses_it_holds(monkeypatch, started):
    from collections import deque

    left = deque([("a", ["x"]), ("b", []), ("c", ["y"]), ("d", ["x", "y"])])
    holds_y = lambda job: set(job[1]) <= {"y"}  # noqa: E731
    assert [next_job(left, False, holds_y)[0] for _ in range(2)] == ["b", "c"]
    assert next_job(left, True, holds_y)[0] == "d" and next_job(left, True, holds_y)[0] == "a"  # none suits: the next
    assert next_job(left, False, holds_y) is None
    monkeypatch.setattr(equivalence, "PAIRS_PER_CHECKER", 1)
    unshipped = "\\frac{\\sqrt{3}}{3}"  # its parse does not load back the same: it does not travel
    pairs = [(str(number), unshipped) for number in range(4)] + [(str(number), "7") for number in range(8, 168)]
    sent: list = []
    compare = equivalence._Checker.compare

    def recording(self, gold, answers, seconds, parses=None):
        sent.append((self, {gold, *answers} - self.holds))
        return compare(self, gold, answers, seconds, parses)

    monkeypatch.setattr(equivalence._Checker, "compare", recording)
    with CheckerPool(10.0, checkers=2) as pool:
        assert [c.equal for c in pool.compare(pairs)] == [False] * 164
        assert pool.parses[unshipped] is None
    assert len({id(checker) for checker, _ in sent}) == 2
    assert [checker for checker, texts in sent if unshipped in texts] == []  # compared where it was parsed (the
    # other checker, on 160 quicker groups, is not left waiting for it)
