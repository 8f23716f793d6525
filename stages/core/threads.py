"""Arrow and numpy work on the machine's cores: their kernels release Python's lock, so independent column
computations run side by side in threads."""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def usable_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def side_by_side(*calls: Callable[[], Any]) -> list[Any]:
    """Each call's result, in order; the calls run in threads at once (one core: one after another). An exception
    in any is raised once all have ended."""
    if usable_cores() < 2 or len(calls) < 2:
        return [call() for call in calls]
    with ThreadPoolExecutor(min(len(calls), usable_cores())) as pool:
        futures = [pool.submit(call) for call in calls]
        return [future.result() for future in futures]


def map_ahead(function: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
    """(item, function(item)) in the items' order, computed in threads with at most as many items in flight as there
    are cores (so memory stays bounded by a few items)."""
    cores = usable_cores()
    if cores < 2:
        for item in items:
            yield item, function(item)
        return
    with ThreadPoolExecutor(cores) as pool:
        pending: deque[tuple[T, Future[R]]] = deque()
        for item in items:
            pending.append((item, pool.submit(function, item)))
            if len(pending) > cores:
                done, future = pending.popleft()
                yield done, future.result()
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
