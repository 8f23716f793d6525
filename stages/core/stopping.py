"""A stop asked for by a signal (SIGINT, SIGTERM): loops that call servers — paid ones too — look here before every
new request and during every wait between retries, so no request is sent after the signal."""
from __future__ import annotations

import threading

_STOP = threading.Event()


class Stopped(Exception):
    """A call was not made because a stop was asked for."""


class Interrupted(KeyboardInterrupt):
    """The signal that asked for the stop, raised where the main thread was (Luigi lets it through, as it does
    KeyboardInterrupt); `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def request_stop() -> None:
    _STOP.set()


def stop_requested() -> bool:
    return _STOP.is_set()


def clear_stop() -> None:
    """A new command in this process starts unstopped."""
    _STOP.clear()


def wait_unless_stopped(seconds: float) -> None:
    """Wait `seconds`, or raise Stopped as soon as a stop is asked for."""
    if _STOP.wait(seconds):
        raise Stopped


def check_stop() -> None:
    """Raise Stopped when a stop was asked for (before sending a request)."""
    if _STOP.is_set():
        raise Stopped
