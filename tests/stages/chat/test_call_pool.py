"""Calls made `workers` at a time; the first error raised; no call starts once a stop is asked for."""
import threading
import time

import pytest

from stages.chat.call_pool import run_calls
from stages.core.stopping import Interrupted, clear_stop, request_stop


@pytest.fixture(autouse=True)
def fresh_stop():
    clear_stop()
    yield
    clear_stop()


def test_every_call_runs_at_most_workers_at_once():
    running, peak, lock, done = [0], [0], threading.Lock(), []

    def call(i):
        def run():
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.02)
            with lock:
                running[0] -= 1
                done.append(i)
        return run

    run_calls([call(i) for i in range(12)], workers=3)
    assert sorted(done) == list(range(12)) and peak[0] == 3


def test_the_first_error_is_raised_and_later_calls_are_not_started():
    started = []

    def failing():
        started.append("x")
        raise ValueError("server said no")

    with pytest.raises(ValueError, match="server said no"):
        run_calls([failing] + [lambda: started.append("later")] * 5, workers=1)
    assert started == ["x"]


def test_a_stop_asked_for_elsewhere_leaves_the_rest_unasked_and_interrupts():
    asked = []

    def first():
        asked.append(1)
        request_stop()

    with pytest.raises(Interrupted):
        run_calls([first, lambda: asked.append(2), lambda: asked.append(3)], workers=1)
    assert asked == [1]
