"""The journal every reply is kept in: append-only JSON lines, fsynced as written, shared safely by processes."""
from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Any

import orjson

GENERATION_KEY_LENGTH = 16  # hex digits of live generation's request keys (BFCL's agent's too)
KEY_LENGTH = 24  # of the loglikelihood loops' and the judge's: each asker keeps the length its journals were written with


def request_digest(asked: dict[str, Any], length: int = KEY_LENGTH) -> str:
    """The key a journal record is found by: the sha256 of what was asked (its JSON, keys sorted), cut to `length`
    hex digits — each asker's own length, so every journal written before is still read."""
    return hashlib.sha256(orjson.dumps(asked, option=orjson.OPT_SORT_KEYS)).hexdigest()[:length]


def answered(record: dict | None, key: str) -> bool:
    """Whether a journal record holds the answer to the request `key` names."""
    return record is not None and "prediction" in record and record.get("key") == key


def failure_record(identity: dict[str, Any], error: str, attempts: int) -> dict[str, Any]:
    """The journal record of a request that got no answer: its identity (id, a later sample's number, key), the error
    and the attempts it took (0: nothing sent, the breaker was open)."""
    return {**identity, "error": error, "attempts": attempts}


def journal_key(record: dict[str, Any]) -> Any:
    """A journal record's case: its id, or (id, sample) for a later reply to the same item (sample 0 is the id
    alone, so the answers of one reply per item stay the first of several)."""
    sample = record.get("sample")
    return (record["id"], sample) if isinstance(sample, int) and not isinstance(sample, bool) and sample > 0 \
        else record["id"]


class AnswerStore:
    """Append-only JSON lines, one per answer or failure, fsynced as written; the last record of an id wins. Appends
    hold an exclusive lock on the file, so several processes may share one store (the judge's verdict store) and none
    loses a record; a line torn by a kill is set aside when read and never glued to the next one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self, wanted: set[Any] | None = None) -> dict[Any, dict[str, Any]]:
        """Every case's record by journal_key (only the `wanted` keys' when given: a large shared store is read
        without keeping it)."""
        records: dict[Any, dict[str, Any]] = {}
        if self.path.exists():
            for raw in self.path.read_bytes().splitlines():
                try:
                    record = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    continue  # a line cut short by a kill: that answer is asked again
                if not isinstance(record, dict) or "id" not in record:
                    continue
                key = journal_key(record)
                if wanted is not None and key not in wanted:
                    continue
                previous = records.get(key)
                if previous is not None and "prediction" in previous and "error" in record and (
                        previous.get("key") == record.get("key")):
                    continue  # an answer is never undone by a later failure of the same request
                records[key] = record
        return records

    def has_failures(self) -> bool:
        """Whether some case has only failed attempts on disk."""
        return any("prediction" not in record for record in self.load().values())

    def append(self, record: dict[str, Any]) -> None:
        self.extend([record])

    def extend(self, records: list[dict[str, Any]]) -> None:
        """Append records in one write and one fsync."""
        import fcntl

        if not records:
            return
        data = b"".join(orjson.dumps(record) + b"\n" for record in records)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a+b") as handle:  # read too: the last byte says whether a line was torn
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                try:
                    end = os.fstat(handle.fileno()).st_size
                    if end and os.pread(handle.fileno(), 1, end - 1) != b"\n":
                        data = b"\n" + data  # the last line was torn by a kill: keep it apart
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                finally:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
