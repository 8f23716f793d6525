"""A pickle read as plain data only (LiveCodeBench's private test cases): no global, class or persistent id is
resolved, so nothing in the bytes can run code; anything else is refused with the name it asked for."""
from __future__ import annotations

import base64
import binascii
import io
import pickle
import zlib

MAX_DECOMPRESSED = 1 << 30  # bytes a compressed field may inflate to (LiveCodeBench's largest items hold ~100 MB)


class NotPlainData(ValueError):
    """The bytes are not a pickle of plain data (or not a pickle at all); the message says why."""


class _PlainUnpickler(pickle.Unpickler):
    """Builds str, bytes, numbers, None, bool, lists, tuples, dicts and sets; a GLOBAL / STACK_GLOBAL / INST / EXT
    opcode (every route to a callable) or a persistent id is refused before anything is called."""

    def find_class(self, module: str, name: str) -> object:
        raise NotPlainData(f"the pickle names a global ({module}.{name}); only plain data is read")

    def persistent_load(self, pid: object) -> object:
        raise NotPlainData("the pickle holds a persistent id; only plain data is read")


def plain_pickle(data: bytes) -> object:
    """The plain data a pickle holds (NotPlainData when it names anything to call or is not a pickle)."""
    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except NotPlainData:
        raise
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError, MemoryError) as exc:
        raise NotPlainData(f"not a readable pickle ({type(exc).__name__}: {exc})") from None


def inflate(data: bytes, limit: int = MAX_DECOMPRESSED) -> bytes:
    """zlib-decompressed bytes, refused past `limit` (a small field that inflates without end is not read whole)."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit)
    except zlib.error as exc:
        raise NotPlainData(f"not zlib data ({exc})") from None
    if inflater.unconsumed_tail:
        raise NotPlainData(f"inflates past {limit >> 20} MiB")
    if not inflater.eof:
        raise NotPlainData("not zlib data (the stream stops before its end)")
    return out


def base64_zlib_pickle_text(text: str) -> str:
    """The text LiveCodeBench publishes as base64(zlib(pickle(json text))): decoded, inflated and unpickled as plain
    data, which must be a str."""
    try:
        raw = base64.b64decode(text.encode("utf-8"))
    except (binascii.Error, ValueError) as exc:
        raise NotPlainData(f"not base64 ({exc})") from None
    value = plain_pickle(inflate(raw))
    if not isinstance(value, str):
        raise NotPlainData(f"the pickle holds a {type(value).__name__}, not the JSON text of the cases")
    return value
