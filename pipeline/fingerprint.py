"""Content fingerprints: a stage's identity is its input bytes, its parameters, its upstream and the code — the same
on every host (inputs are named relative to the inputs root; remote ones are known by ETag and size)."""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from stages.io.storage import content_digest, tree_digest

if TYPE_CHECKING:
    from upath import UPath

_PACKAGE_DIRS = ("stages", "pipeline")


def path_digest(path: UPath) -> str:
    """content_digest for a file; for a folder, tree_digest over its visible files."""
    return tree_digest(path) if path.is_dir() else content_digest(path)


@cache
def code_version() -> str:
    """Hash of evalpipe's own source (stages/ and pipeline/, by path relative to the package root): any code change
    invalidates every artifact, and the same release gives the same value on every host."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in _PACKAGE_DIRS:
        for source in sorted((root / package).rglob("*.py")):
            digest.update(source.relative_to(root).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def fingerprint(parts: dict[str, Any]) -> str:
    """Stable hash of a JSON-able description (keys sorted)."""
    return hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()
