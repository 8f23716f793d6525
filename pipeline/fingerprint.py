"""Content fingerprints: a stage's identity is its input bytes, its parameters, its upstream and the code."""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import orjson

_PACKAGE_DIRS = ("stages", "pipeline")
_file_digests: dict[tuple[str, int, int], str] = {}


def file_digest(path: Path) -> str:
    """sha256 of a file's bytes, remembered per (path, size, mtime) within the process."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _file_digests:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _file_digests[key] = digest.hexdigest()
    return _file_digests[key]


def path_digest(path: Path) -> str:
    """file_digest for a file; for a folder, a hash over its visible files' names and digests."""
    if not path.is_dir():
        return file_digest(path)
    digest = hashlib.sha256()
    for child in sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")):
        digest.update(f"{child.name}\0{file_digest(child)}\n".encode())
    return digest.hexdigest()


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
