"""Arrow and numpy work on the machine's cores: their kernels release Python's lock, so independent column
computations run side by side in threads."""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def usable_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def map_ahead(function: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
    """(item, function(item)) in the items' order, computed in threads with at most as many items taken and not yet
    given back as there are cores (so memory stays bounded by a few items)."""
    cores = usable_cores()
    if cores < 2:
        for item in items:
            yield item, function(item)
        return
    with ThreadPoolExecutor(cores) as pool:
        pending: deque[tuple[T, Future[R]]] = deque()
        for item in items:
            if len(pending) == cores:
                done, future = pending.popleft()
                yield done, future.result()
            pending.append((item, pool.submit(function, item)))
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
