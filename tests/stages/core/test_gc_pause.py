"""The cyclic collector stays off while any thread's paused block runs, and comes back as it was after the last."""
import gc
import threading

from stages.core.gc_pause import gc_paused


def test_the_collector_stays_off_until_the_last_paused_block_of_any_thread_ends():
    assert gc.isenabled()
    inside, leave = threading.Event(), threading.Event()

    def paused_in_a_thread():
        with gc_paused():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=paused_in_a_thread)
    with gc_paused():
        thread.start()
        inside.wait(5)
    assert not gc.isenabled()  # the other thread's block still runs
    leave.set()
    thread.join(5)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with gc_paused():
            with gc_paused():
                pass
        assert not gc.isenabled()
    finally:
        gc.enable()
