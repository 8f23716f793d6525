"""Progress of long loops: stages count what they have done; the pipeline decides how that is shown."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
ProgressSink = Callable[[str, int, "int | None", bool], None]  # (label, done, total, finished)

_SINK: list[ProgressSink | None] = [None]


def set_progress_sink(sink: ProgressSink | None) -> ProgressSink | None:
    """Install the display progress goes to (None: silent); the one it replaces comes back."""
    previous, _SINK[0] = _SINK[0], sink
    return previous


class Progress:
    """Counts one long loop's finished items (thread-safe) and tells the installed sink; use it as a context."""

    def __init__(self, label: str, total: int | None) -> None:
        self.label, self.total, self.done = label, total, 0
        self._lock = threading.Lock()
        self._sink = _SINK[0]

    def __enter__(self) -> Progress:
        if self._sink is not None:
            self._sink(self.label, 0, self.total, False)
        return self

    def advance(self, count: int = 1) -> None:
        with self._lock:
            self.done += count
            if self._sink is not None:
                self._sink(self.label, self.done, self.total, False)

    def __exit__(self, *exc: object) -> None:
        if self._sink is not None:
            self._sink(self.label, self.done, self.total, True)


TRACK_STEP = 256


def track(items: Iterable[T], label: str, total: int | None = None) -> Iterator[T]:
    """Yield `items`, counting each one as done once the caller comes back for the next (reported in steps of
    TRACK_STEP, so a million-row loop pays almost nothing)."""
    if _SINK[0] is None:
        yield from items
        return
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(label, total) as progress:
        pending = 0
        for item in items:
            yield item
            pending += 1
            if pending == TRACK_STEP:
                progress.advance(pending)
                pending = 0
        if pending:
            progress.advance(pending)
