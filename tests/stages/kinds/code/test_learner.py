"""Issue 83 item 1: a program that answers by guessing and tries to keep what it learns across sandboxes (bits in
the host's page cache of a read-only /usr file — set by a 1-byte pread, cleared by fadvise, read by mincore or by
timing — and a flock on that file) passes no more often than guessing, over 10 samples and two runs.

The bound: its guess, with nothing learned, is `True` for every call, which fails this item (two answers are False),
so guessing passes 0 of the 20 programs; any pass means it learned. It learns when the tests tell it whether an answer
held (a call after call k, when the tests stop at the first failing assert) and a bit survives between sandboxes: on
such a harness and sandbox it passes from its third sample on (one wrong answer found per failing sample)."""
from pathlib import Path

import pytest

from stages.kinds.code.kind import Code
from stages.kinds.code.programs import humaneval_test

LEARNER = (Path(__file__).parent / "programs" / "learner.py").read_text()
PROMPT = 'def is_even(n: int) -> bool:\n    """Whether n is even."""\n'
TEST = ("def check(candidate):\n    assert candidate(2) == True\n    assert candidate(3) == False\n"
        "    assert candidate(4) == True\n    assert candidate(7) == False\n")
SAMPLES = 10


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _run(code: Code) -> dict:
    normalized = {"id": ["HumanEval/even"] * SAMPLES, "program": [LEARNER] * SAMPLES, "how": ["whole reply"] * SAMPLES,
                  "prelude": [PROMPT] * SAMPLES, "entry_point": ["is_even"] * SAMPLES,
                  "test": [humaneval_test(TEST, "is_even")] * SAMPLES, "inputs": [None] * SAMPLES,
                  "outputs": [None] * SAMPLES}
    matched, _ = code.match(normalized, {**code.defaults, "parallel": 2, "timeout_seconds": 10.0})
    return matched


def test_a_learner_passes_no_more_often_than_guessing_over_ten_samples_and_two_runs():
    code = Code()
    runs = [_run(code), _run(code)]
    for matched in runs:
        assert matched["outcome"] == ["failed"] * SAMPLES, matched["error"]
        assert set(matched["error"]) == {"AssertionError:"}  # its first wrong answer, every sample alike
    assert sum(sum(matched["passed"]) for matched in runs) == 0  # guessing's count: `return True` fails this item
    for matched in runs:  # the channels it tried were refused in every sandbox, not merely unused
        for stderr in matched["stderr"]:
            assert stderr.splitlines()[0] == "flock EPERM, fadvise EPERM, mincore EPERM", stderr
