"""Content fingerprints: a stage's identity is its input bytes, its parameters, its upstream and the code."""
from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

import orjson

_PACKAGE_DIRS = ("stages", "pipeline")
_file_digests: dict[tuple[str, int, int], str] = {}
_folder_digests: dict[tuple[str, tuple], str] = {}


def file_digest(path: Path, stat: os.stat_result | None = None) -> str:
    """sha256 of a file's bytes, remembered per (path, size, mtime) within the process."""
    stat = stat or path.stat()
    key = (os.path.abspath(path), stat.st_size, stat.st_mtime_ns)
    if key not in _file_digests:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _file_digests[key] = digest.hexdigest()
    return _file_digests[key]


def path_digest(path: Path) -> str:
    """file_digest for a file; for a folder, a hash over its visible files' names and digests (remembered while
    no file's name, size or mtime changes)."""
    if not path.is_dir():
        return file_digest(path)
    with os.scandir(path) as entries:
        files = sorted((e.name, e.stat()) for e in entries if e.is_file() and not e.name.startswith("."))
    key = (os.path.abspath(path), tuple((name, st.st_size, st.st_mtime_ns) for name, st in files))
    if key not in _folder_digests:
        digest = hashlib.sha256()
        for name, stat in files:
            digest.update(f"{name}\0{file_digest(path / name, stat)}\n".encode())
        _folder_digests[key] = digest.hexdigest()
    return _folder_digests[key]


@cache
def code_version() -> str:
    """Hash of evalpipe's own source (stages/ and pipeline/): any code change invalidates every artifact."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in _PACKAGE_DIRS:
        for source in sorted((root / package).rglob("*.py")):
            digest.update(str(source.relative_to(root)).encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def fingerprint(parts: dict[str, Any]) -> str:
    """Stable hash of a JSON-able description (keys sorted)."""
    return hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()
