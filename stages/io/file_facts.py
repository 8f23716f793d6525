"""Facts about local input files (content digest, record count, per-shard digests) remembered by path and stat (size,
mtime, inode, ctime): within a process always, and between runs inside `facts_kept_in(file)`, so a rerun where nothing
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
_KEEP: list[set[str]] = []  # per open facts_kept_in: the keys of settled files whose facts go back to its store


def _key(path: os.PathLike, stat: os.stat_result) -> str:
    """A version of a file: a rewrite in place at the same size with its mtime put back still changes its ctime (only
    the kernel sets it), a file moved into place changes its inode."""
    return f"{os.path.abspath(path)}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ino}\0{stat.st_ctime_ns}"


def file_fact(path: os.PathLike, name: str, compute: Callable[[], T]) -> T:
    """The fact `name` about the local file at `path`, computed only when this version of the file has no such fact."""
    stat = os.stat(path)
    key = _key(path, stat)
    facts = _FACTS.setdefault(key, {})
    if name not in facts:
        facts[name] = compute()
    if _KEEP and time.time() - stat.st_mtime > SETTLED_SECONDS:
        _KEEP[-1].add(key)
    return facts[name]


@contextmanager
def facts_kept_in(store: Path) -> Iterator[None]:
    """Load remembered facts from `store` (a JSON file; unreadable means none); when the block ends, write back those
    and the facts about settled files used inside it, for files still as they were (only into an existing folder)."""
    try:
        remembered = orjson.loads(store.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        remembered = {}
    remembered = {key: facts for key, facts in remembered.items() if isinstance(facts, dict)} \
        if isinstance(remembered, dict) else {}
    for key, facts in remembered.items():
        _FACTS.setdefault(key, {}).update(facts)
    _KEEP.append(set(remembered))
    try:
        yield
    finally:
        keys = _KEEP.pop()
        kept = {key: _FACTS[key] for key in sorted(keys) if key in _FACTS and _still_there(key)}
        if kept != remembered and store.parent.is_dir():
            temporary = store.with_name(f".{store.name}.{os.getpid()}.tmp")
            try:
                temporary.write_bytes(orjson.dumps(kept))
                os.replace(temporary, store)
            except OSError:  # a full or read-only disk: the facts are a cache, the next run takes them again
                temporary.unlink(missing_ok=True)


def _still_there(key: str) -> bool:
    """The file a key describes is still at that path with that size, mtime and inode."""
    path = key.split("\0", 1)[0]
    try:
        return _key(path, os.stat(path)) == key
    except OSError:
        return False
