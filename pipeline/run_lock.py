"""One run at a time per outputs folder: an exclusive flock on <outputs>/.evalpipe.lock. The kernel releases it when
the holder exits or is killed, so a lock left by a killed run is simply taken over. The file stays empty: a run that
changes nothing writes nothing."""
from __future__ import annotations

import fcntl
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from stages.core.errors import UsageError

LOCK_NAME = ".evalpipe.lock"


@contextmanager
def outputs_lock(outputs: Path, wait: bool = True, poll_seconds: float = 0.5) -> Iterator[None]:
    """Hold the outputs folder for this run; wait for another run to finish (saying so once), or refuse at once
    with a UsageError when `wait` is False."""
    outputs.mkdir(parents=True, exist_ok=True)
    path = outputs / LOCK_NAME
    handle = open(path, "a+")
    try:
        said = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    raise UsageError(f"another evalpipe run is using {outputs} (it holds {path}); try later, or "
                                     "leave out --no-wait to wait for it") from None
                if not said:
                    print(f"evalpipe: another run is using {outputs} (it holds {path}); waiting for it to finish",
                          file=sys.stderr)
                    said = True
                time.sleep(poll_seconds)
        yield
    finally:
        handle.close()

