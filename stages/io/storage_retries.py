"""Riding out a storage blip: s3fs asks again, with its own backoff, after every error this module calls transient —
connection refused or reset, timeouts, HTTP 5xx, S3's SlowDown — for as long as an outage has lasted less than
`retry_for` seconds; permanent errors (403, no such bucket, bad credentials) are never retried. One line per outage."""
from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

TRANSIENT_NAMES = ("EndpointConnectionError", "ConnectionClosedError", "ConnectTimeoutError", "ReadTimeoutError",
                   "ConnectTimeout", "ReadTimeout", "ClientConnectorError", "ServerDisconnectedError",
                   "ClientOSError", "ConnectionResetError", "ConnectionRefusedError", "TimeoutError")
TRANSIENT_CODES = ("SlowDown", "ServiceUnavailable", "InternalError", "RequestTimeout", "Throttling")
QUIET_SECONDS = 60.0  # an error this long after the last one starts a new outage (s3fs waits up to 15 s between
# attempts and botocore retries inside each for ~10 s, so the errors of one outage come less than this apart)
RETRIES = 1_000_000  # s3fs's count of attempts: the time limit below is what ends them

_STATE = {"retry_for": 120.0, "started": None, "last": 0.0, "off": 0, "armed": False}  # off: blocks not retried
_LOCK = threading.Lock()


def transient(exc: BaseException) -> bool:
    """Whether a storage error may pass by itself (a connection, a timeout, a 5xx), not a refusal."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & set(TRANSIENT_NAMES):
        return True
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        status = response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
        code = response.get("Error", {}).get("Code", "")
        return status >= 500 or code in TRANSIENT_CODES
    return any(code in str(exc) for code in TRANSIENT_CODES)


def retry_transient(exc: BaseException) -> bool:
    """s3fs's error handler: True (ask again after its backoff) for a transient error while the outage it belongs
    to is younger than `retry_for`; the first error of an outage is said in one line."""
    if _STATE["off"] or not transient(exc):
        return False
    now = time.monotonic()
    with _LOCK:
        if _STATE["started"] is None or now - _STATE["last"] > QUIET_SECONDS:
            _STATE["started"] = now
            print(f"evalpipe: storage unreachable ({type(exc).__name__}); asking again for up to "
                  f"{_STATE['retry_for']:g} s", file=sys.stderr, flush=True)
        _STATE["last"] = now
        return now - _STATE["started"] < _STATE["retry_for"]


def configure_retries(retry_for: float) -> None:
    """Transient storage errors are asked again for up to `retry_for` seconds per outage (0: never)."""
    _STATE["retry_for"] = float(retry_for)


def arm_retries(protocol: str) -> None:
    """Hand s3fs the error handler the first time an S3 location is made (s3fs is imported only then)."""
    if protocol not in ("s3", "s3a") or _STATE["armed"]:
        return
    import s3fs
    import s3fs.core

    s3fs.core.set_custom_error_handler(retry_transient)
    logging.getLogger("asyncio").addFilter(_ORPHANED_RESETS)
    s3fs.S3FileSystem.retries = RETRIES if _STATE["retry_for"] > 0 else 1
    _STATE["armed"] = True


class OrphanedResetsQuiet(logging.Filter):
    """Drops asyncio's "Task exception was never retrieved" traceback for an aiohttp upload whose connection the
    outage reset: s3fs has already seen that request fail (and retried it, or reported it in one line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (str(record.msg).startswith("Task exception was never retrieved")
                    and isinstance(error, (ConnectionError, OSError)))


_ORPHANED_RESETS = OrphanedResetsQuiet()


@contextmanager
def retries_off() -> Iterator[None]:
    """No retry within the block (the check before a run: an unreachable store is said at once). s3fs calls the
    handler from its own event-loop thread, so this holds for the whole process."""
    with _LOCK:
        _STATE["off"] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE["off"] -= 1
