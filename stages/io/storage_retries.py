"""Riding out a storage blip: every S3 request that fails transiently — connection refused or reset, a timeout, an
HTTP 5xx, S3's SlowDown — is sent again by botocore, with exponential backoff and jitter, until it or the outage
has lasted `retry_for` seconds; permanent errors (403, no such bucket, bad credentials) are never asked again. The
hook is botocore's own `needs-retry` event, so every call is covered: reads, writes, heads and paginated listings.
One line when an outage starts, one when the storage answers again."""
from __future__ import annotations

import logging
import os
import random
import sys
import threading
import time
from typing import Any

TRANSIENT_NAMES = ("EndpointConnectionError", "ConnectionClosedError", "ConnectTimeoutError", "ReadTimeoutError",
                   "ConnectTimeout", "ReadTimeout", "ClientConnectorError", "ServerDisconnectedError",
                   "ClientOSError", "ConnectionResetError", "ConnectionRefusedError", "TimeoutError")
TRANSIENT_CODES = ("SlowDown", "ServiceUnavailable", "InternalError", "RequestTimeout", "Throttling",
                   "ThrottlingException", "RequestTimeTooSkewed")
BACKOFF_FIRST = 0.5  # seconds before the first retry; doubled each attempt, capped, then jittered
BACKOFF_CAP = 10.0
FAILING_SINCE = "evalpipe_failing_since"  # key in botocore's per-operation context

_STATE: dict[str, Any] = {"retry_for": 120.0, "down_since": None, "session": None}
_LOCK = threading.Lock()


def transient(exc: BaseException) -> bool:
    """Whether a storage error may pass by itself (a connection, a timeout, a 5xx), not a refusal."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & set(TRANSIENT_NAMES):
        return True
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return transient_answer(response)
    return any(code in str(exc) for code in TRANSIENT_CODES)


def transient_answer(parsed: dict) -> bool:
    """Whether a parsed S3 answer is an error that may pass by itself (HTTP 5xx, SlowDown, throttling)."""
    status = parsed.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    return status >= 500 or parsed.get("Error", {}).get("Code", "") in TRANSIENT_CODES


def backoff(attempts: int) -> float:
    """Seconds to wait before attempt `attempts` + 1: exponential, capped, then jittered to half of it or more."""
    return min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (attempts - 1)) * random.uniform(0.5, 1.0)


def retry_delay(attempts: int, response: Any = None, caught_exception: BaseException | None = None,
                request_dict: dict | None = None, **_: Any) -> float | None:
    """botocore's needs-retry handler: the seconds to wait before sending the request again, while neither the
    request nor the outage it belongs to (s3fs may send a failed call anew) has lasted `retry_for`; None leaves the
    decision to botocore's own few retries."""
    if caught_exception is not None:
        failed, why = transient(caught_exception), type(caught_exception).__name__
    elif response is not None:
        failed, why = transient_answer(response[1]), str(response[1].get("Error", {}).get("Code", ""))
    else:
        return None
    now = time.monotonic()
    if not failed:
        if caught_exception is None:
            _storage_answered(now)
        return None
    context = request_dict.setdefault("context", {}) if request_dict is not None else {}
    failing_since = min(context.setdefault(FAILING_SINCE, now), _storage_failed(now, why))
    left = failing_since + _STATE["retry_for"] - now
    return min(backoff(attempts), left) if left > 0 else None


def _storage_failed(now: float, why: str) -> float:
    """When the outage this failure belongs to began (said in one line when it is this one)."""
    with _LOCK:
        if _STATE["down_since"] is not None:
            return _STATE["down_since"]
        _STATE["down_since"] = now
    print(f"evalpipe: storage unreachable ({why}); asking again for up to {_STATE['retry_for']:g} s",
          file=sys.stderr, flush=True)
    return now


def _storage_answered(now: float) -> None:
    with _LOCK:
        since, _STATE["down_since"] = _STATE["down_since"], None
    if since is not None:
        print(f"evalpipe: storage answering again after {now - since:.0f} s", file=sys.stderr, flush=True)


def _forget_outage_in_child() -> None:
    """A forked task process says its own outage lines: it has not said that the storage became unreachable."""
    _STATE["down_since"] = None


os.register_at_fork(after_in_child=_forget_outage_in_child)


def configure_retries(retry_for: float) -> None:
    """Transient storage errors are asked again for up to `retry_for` seconds per request (0: botocore's own only)."""
    _STATE["retry_for"] = float(retry_for)


def retrying_session() -> Any:
    """The aiobotocore session every S3 location's file system is made with: its clients carry `retry_delay` ahead
    of botocore's own retry handler (standard mode, which defers to it). One per process (s3fs is imported only
    when an S3 location is made); credentials are looked up anew for each client, as s3fs's own sessions do."""
    with _LOCK:
        if _STATE["session"] is None:
            from aiobotocore.session import AioSession

            class RetryingSession(AioSession):
                async def get_credentials(self) -> Any:
                    self._credentials = None  # the environment's keys of now, not of the first file system
                    return await super().get_credentials()

            session = RetryingSession()
            session.set_config_variable("retry_mode", "standard")  # legacy mode re-raises past its 5th attempt
            session.get_component("event_emitter").register_first("needs-retry.s3", retry_delay)
            logging.getLogger("asyncio").addFilter(OrphanedResetsQuiet())
            _STATE["session"] = session
        return _STATE["session"]


class OrphanedResetsQuiet(logging.Filter):
    """Drops asyncio's "Task exception was never retrieved" traceback for an aiohttp upload whose connection an
    outage reset: botocore has already seen that request fail, and sent it again or reported it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (str(record.msg).startswith("Task exception was never retrieved")
                    and isinstance(error, (ConnectionError, OSError)))
