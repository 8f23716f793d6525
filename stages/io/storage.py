"""Where inputs and artifacts live: a local folder (the default, a plain pathlib.Path) or an fsspec URL such as
s3://bucket/prefix (universal_pathlib's UPath, the same pathlib API over fsspec). Writes never leave a half-written
object under the final name: local files go through a temporary file and a rename, remote objects are one PUT each."""
from __future__ import annotations

import errno
import hashlib
import io
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .file_facts import file_fact

if TYPE_CHECKING:
    from upath import UPath

_OPTIONS: dict[str, dict[str, Any]] = {}  # protocol → storage options (endpoint, credentials), never written out
FRESH_LISTINGS = {"use_listings_cache": False}  # another host may write any object at any time: never trust a listing


def configure_storage(protocol: str, options: dict[str, Any]) -> None:
    """Options for every location of `protocol` ("s3": endpoint_url, key, secret …), e.g. from luigi.cfg [storage];
    unset ones fall back to the standard variables (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)."""
    _OPTIONS[protocol] = dict(options)


def location(where: str | os.PathLike) -> Path | UPath:
    """A local path (plain or file://) as an absolute pathlib.Path, or a URL as a UPath with the configured options."""
    if getattr(where, "protocol", ""):
        return where
    text = os.fspath(where)
    if text.startswith("file://"):
        text = text[len("file://"):]
    if "://" not in text:
        return Path(os.path.abspath(text))
    from upath import UPath

    protocol = text.split("://", 1)[0]
    return UPath(text, **{**FRESH_LISTINGS, **_retries(protocol), **_OPTIONS.get(protocol, {})})


def _retries(protocol: str) -> dict[str, Any]:
    """S3 file systems are made with the session that rides out storage blips (storage_retries)."""
    if protocol not in ("s3", "s3a"):
        return {}
    from .storage_retries import retrying_session

    return {"session": retrying_session()}


def is_local(path: UPath | os.PathLike) -> bool:
    """A path on this machine's file system (a plain pathlib path counts)."""
    return getattr(path, "protocol", "") in ("", "file")


def write_bytes_atomic(path: UPath, data: bytes) -> None:
    """Write `data` so that readers see the old bytes or the new ones, never a part."""
    if not is_local(path):
        path.fs.pipe_file(path.path, data)  # one PUT: no directories to make, and never a bucket
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:  # a full disk, a signal: no temporary file is left behind
        temporary.unlink(missing_ok=True)
        raise


_FILE_TYPES = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class NotARegularFile(OSError):
    """An input that is a folder, FIFO, device or socket: never opened (a FIFO would block, a device never ends)."""


def require_regular_file(path: UPath) -> None:
    """Raise NotARegularFile unless the local path (after symlinks) is a regular file; remote objects always are."""
    if not is_local(path):
        return
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        what = next((name for test, name in _FILE_TYPES if test(mode)), "not a regular file")
        raise NotARegularFile(f"{path} is {what}, not a regular file")


def read_input_bytes(path: UPath) -> bytes:
    """An input file's bytes, once it is known to be a regular file."""
    require_regular_file(path)
    return path.read_bytes()


def read_bytes_or_none(path: UPath) -> bytes | None:
    """The object's bytes, or None when it does not exist — nor does a folder where a file belongs count as one: the
    stage that writes it runs and says why it cannot (a remote object in one GET, so one replaced meanwhile is read
    whole, old or new)."""
    try:
        return path.read_bytes() if is_local(path) else path.fs.cat_file(path.path)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def storage_problem(path: UPath, patient: bool = False) -> str | None:
    """Why the storage holding `path` cannot be used — credentials refused, no such bucket, endpoint unreachable —
    in one line without secrets, or None (local paths always None). An unreachable store is said at once (before a
    run), or with `patient` only once it has stayed so for retry_for, as every call of a run rides an outage out
    (after a build or a round on luigid, while other hosts' stages may still be running)."""
    if is_local(path):
        return None
    root = f"{path.protocol}://{path.path.split('/', 1)[0]}"
    options = {key: value for key, value in path.storage_options.items() if patient or key != "session"}
    try:  # a file system of its own (the retrying session only when patient), no listing cached
        type(path.fs)(**options, skip_instance_cache=True).info(path.path.split("/", 1)[0])
    except PermissionError:
        return (f"{root}: the storage refused the credentials (luigi.cfg [storage] {path.protocol}_key / "
                f"{path.protocol}_secret, or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)")
    except FileNotFoundError:
        return f"{root}: no such bucket (evalpipe does not create buckets)"
    except Exception as exc:  # noqa: BLE001  (endpoint down, DNS, TLS: the class says which, the text may hold URLs)
        return f"{root}: storage unreachable ({type(exc).__name__}; endpoint: luigi.cfg [storage] " \
               f"{path.protocol}_endpoint_url or AWS_ENDPOINT_URL)"
    return None


FULL_ERRNOS = {errno.ENOSPC: "no space left", errno.EDQUOT: "disk quota exceeded", errno.EROFS: "read-only"}
FULL_S3_CODES = ("QuotaExceeded", "InsufficientStorage", "XMinioStorageFull", "StorageFull")


def storage_full_reason(exc: BaseException) -> str | None:
    """"no space left", "disk quota exceeded" or "read-only" (or an object store's code for it) when `exc` says the
    storage takes no more writes; else None."""
    if isinstance(exc, OSError) and exc.errno in FULL_ERRNOS:
        return FULL_ERRNOS[exc.errno]
    return next((code for code in FULL_S3_CODES if code in str(exc)), None)


def storage_full(path: UPath, low_bytes: int = 64 << 10) -> str | None:
    """Whether the local file system holding `path` is read-only or has less than `low_bytes` free for this user
    (what a failed run looks at when its stages failed in other processes); None for remote storage."""
    if not is_local(path):
        return None
    existing = Path(path)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    found = os.statvfs(existing)
    if found.f_flag & os.ST_RDONLY:
        return FULL_ERRNOS[errno.EROFS]
    return FULL_ERRNOS[errno.ENOSPC] if found.f_bavail * found.f_frsize < low_bytes else None


def remove(path: UPath) -> bool:
    """Delete the object if it is there; whether it was."""
    try:
        path.unlink()
        return True
    except FileNotFoundError:
        return False


def content_digest(path: UPath) -> str:
    """A digest of the object's content: sha256 of a local file (remembered per version: see file_facts),
    or for a remote object its ETag and size as the store reports them (no download)."""
    if not is_local(path):
        info = path.fs.info(path.path)
        tag = str(info.get("ETag") or info.get("etag") or info.get("md5") or "")
        if tag:
            return f"etag:{tag.strip(chr(34))}:{info.get('size')}"
        return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    return file_fact(path, "sha256", lambda: _sha256(path))


def _sha256(path: os.PathLike) -> str:
    require_regular_file(path)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tree_digest(folder: UPath) -> str:
    """A digest over a folder's visible files: their names and content digests."""
    digest = hashlib.sha256()
    for child in sorted(folder.iterdir(), key=lambda p: p.name):
        if child.name.startswith(".") or not child.is_file():
            continue
        digest.update(f"{child.name}\0{content_digest(child)}\n".encode())
    return digest.hexdigest()


REMOTE_READ_BYTES = 8 << 20


def open_binary(path: UPath) -> io.BufferedIOBase:
    """A binary reader for the object: a local file handle, or for a remote object Python's buffered reader over
    fsspec's file without a cache of its own, so each refill is one ranged read of REMOTE_READ_BYTES and reading
    line by line costs no copy of a read-ahead buffer per line."""
    if is_local(path):
        require_regular_file(path)
        return open(path, "rb")
    return io.BufferedReader(path.open("rb", cache_type="none", block_size=REMOTE_READ_BYTES),
                             buffer_size=REMOTE_READ_BYTES)
