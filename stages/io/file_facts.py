"""Facts about local input files (content digest, record count, per-shard digests) remembered by path and stat (size,
mtime, inode): within a process always, and between runs inside `facts_kept_in(file)`, so a rerun where nothing
changed does not read its inputs again. A file modified in the seconds before its facts were taken is not kept across
runs (a later change in the same mtime tick could go unseen)."""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson

T = TypeVar("T")
SETTLED_SECONDS = 2.0
_FACTS: dict[str, dict[str, Any]] = {}
_KEEP: set[str] = set()


def _key(path: os.PathLike) -> str:
    stat = os.stat(path)
    return f"{os.path.abspath(path)}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ino}"


def file_fact(path: os.PathLike, name: str, compute: Callable[[], T]) -> T:
    """The fact `name` about the local file at `path`, computed only when this version of the file has no such fact."""
    key = _key(path)
    facts = _FACTS.setdefault(key, {})
    if name not in facts:
        facts[name] = compute()
        if time.time() - os.stat(path).st_mtime > SETTLED_SECONDS:
            _KEEP.add(key)
    return facts[name]


@contextmanager
def facts_kept_in(store: Path) -> Iterator[None]:
    """Load remembered facts from `store` (a JSON file; unreadable means none) and write back the ones about files
    still as they were, once the block ends."""
    try:
        remembered = orjson.loads(store.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        remembered = {}
    if isinstance(remembered, dict):
        for key, facts in remembered.items():
            if isinstance(facts, dict):
                _FACTS.setdefault(key, {}).update(facts)
                _KEEP.add(key)
    try:
        yield
    finally:
        kept = {key: _FACTS[key] for key in sorted(_KEEP) if key in _FACTS and _still_there(key)}
        if kept != remembered:
            store.parent.mkdir(parents=True, exist_ok=True)
            temporary = store.with_name(f".{store.name}.{os.getpid()}.tmp")
            temporary.write_bytes(orjson.dumps(kept))
            os.replace(temporary, store)


def _still_there(key: str) -> bool:
    """The file a key describes is still at that path with that size, mtime and inode."""
    try:
        return _key(key.split("\0", 1)[0]) == key
    except OSError:
        return False
