"""Calls to a chat server, `workers` at a time, that stop when the run is stopped: no call starts after a stop is asked
for, and the caller is not kept waiting for calls in flight (their threads are daemons: a reply that arrives before the
process ends is kept by the call, one that does not is dropped and asked again by the next run)."""
from __future__ import annotations

import signal
import threading
from collections import deque
from collections.abc import Callable, Sequence

from ..core.stopping import Interrupted, Stopped, request_stop, stop_requested

JOIN_SECONDS = 0.2  # how often the waiting thread wakes, so a signal reaches it at once


def run_calls(calls: Sequence[Callable[[], None]], workers: int) -> None:
    """Run every callable, up to `workers` at once; re-raise the first error one raised. An interrupt of the waiting
    thread (SIGINT, or SIGTERM made into one) asks every call to stop and is raised at once."""
    waiting = deque(calls)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work() -> None:
        while not stop_requested() and not errors:
            with lock:
                if not waiting:
                    return
                call = waiting.popleft()
            try:
                call()
            except Stopped:
                return
            except BaseException as exc:  # noqa: BLE001  (handed to the waiting thread, which raises it)
                errors.append(exc)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(waiting)))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(JOIN_SECONDS)
    except BaseException:
        request_stop()
        raise
    if errors:
        raise errors[0]
    if stop_requested():  # asked from elsewhere: the calls left were not made, and this stage must not complete
        raise Interrupted(signal.SIGINT)
