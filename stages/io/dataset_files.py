"""Files a dataset.toml names (a prompt template, taxonomies): read only from inside the dataset's own folder, after
symlinks, as regular files of a sane size — a shared nightly takes dataset folders from many people, and one
dataset.toml must not read the machine's files and send them to a server."""
from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import UsageError
from .storage import NotARegularFile, is_local, require_regular_file

if TYPE_CHECKING:
    from upath import UPath

TEMPLATE_MAX_BYTES = 256 << 10
TAXONOMY_MAX_BYTES = 16 << 20
VERDICTS_MAX_BYTES = 1 << 30  # a leaderboard's recorded verdicts


def dataset_file(folder: Path | UPath, relative: str, what: str, origin: str, max_bytes: int) -> Path | UPath:
    """The file `relative` names under `folder` when it resolves inside it and is a regular file of at most
    `max_bytes`; else a UsageError naming `what` and why."""
    if not isinstance(relative, str) or not relative:
        raise UsageError(f"{origin}: {what} must be a path relative to the dataset folder")
    if is_local(folder):
        root = Path(folder).resolve()
        path = (root / relative).resolve()
        inside = path != root and root in path.parents
    else:
        path = folder / relative
        inside = not posixpath.isabs(relative) and not posixpath.normpath(relative).startswith("..")
    if not inside:
        raise UsageError(f"{origin}: {what} {relative!r} is outside the dataset folder {folder}; keep the file in it")
    try:
        require_regular_file(path)
        size = os.stat(path).st_size if is_local(path) else path.stat().st_size
    except FileNotFoundError:
        raise UsageError(f"{origin}: {what} {relative!r} does not exist in {folder}") from None
    except NotARegularFile as exc:
        raise UsageError(f"{origin}: {what}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{origin}: {what} {relative!r} cannot be read ({exc.strerror or exc})") from None
    if size > max_bytes:
        raise UsageError(f"{origin}: {what} {relative!r} is {size:,} bytes; at most {max_bytes:,} are read")
    return path
