"""A pickle read as plain data only (LiveCodeBench's private test cases): its opcodes are read first, and one that
names or calls code (a global, a class, an extension code, a persistent id) or a stream past MAX_OPCODES is refused
with what it asked for before anything is built; the unpickler then resolves no global either."""
from __future__ import annotations

import base64
import binascii
import io
import pickle
import pickletools
import zlib

MAX_DECOMPRESSED = 1 << 30  # bytes a compressed field may inflate to (LiveCodeBench's largest items hold ~100 MB)
MAX_OPCODES = 1_000_000  # a pickle's opcodes: each may build an object of up to ~200 bytes (an empty set) from one
# byte, so the count, not the size, bounds the memory it takes (LiveCodeBench's pickle of one str has five)
_OPCODES = {op.code.encode("latin-1"): op for op in pickletools.opcodes}
_CODE_OPCODES = {"REDUCE", "BUILD", "OBJ", "NEWOBJ", "NEWOBJ_EX", "EXT1", "EXT2", "EXT4"}  # (STACK_GLOBAL's names
# are on the stack: the unpickler's find_class refuses it with them)
_LENGTH_BYTES = {pickletools.TAKEN_FROM_ARGUMENT1: (1, False), pickletools.TAKEN_FROM_ARGUMENT4: (4, True),
                 pickletools.TAKEN_FROM_ARGUMENT4U: (4, False), pickletools.TAKEN_FROM_ARGUMENT8U: (8, False)}


class NotPlainData(ValueError):
    """The bytes are not a pickle of plain data (or not a pickle at all); the message says why."""


class _PlainUnpickler(pickle.Unpickler):
    """Builds str, bytes, numbers, None, bool, lists, tuples, dicts and sets; a GLOBAL / STACK_GLOBAL / INST / EXT
    opcode (every route to a callable) or a persistent id is refused before anything is called."""

    def find_class(self, module: str, name: str) -> object:
        raise NotPlainData(f"the pickle names a global ({_shown(module)}.{_shown(name)}); only plain data is read")

    def persistent_load(self, pid: object) -> object:
        raise NotPlainData("the pickle holds a persistent id; only plain data is read")


def plain_pickle(data: bytes) -> object:
    """The plain data a pickle holds (NotPlainData when it names anything to call or is not a pickle)."""
    check_opcodes(data)
    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except NotPlainData:
        raise
    except Exception as exc:  # noqa: BLE001 — any failure of untrusted bytes (APPEND to a str: AttributeError) is
        # the row's reason, never the run's
        raise NotPlainData(f"not a readable pickle ({type(exc).__name__}: {exc})") from None


def check_opcodes(data: bytes) -> None:
    """Every opcode up to STOP read without building anything (arguments skipped, not decoded): NotPlainData at one
    that names or calls code, past MAX_OPCODES, or at bytes that are no opcode."""
    at = 0
    for count in range(1, MAX_OPCODES + 2):
        if at >= len(data):
            raise NotPlainData("not a readable pickle (no STOP: the stream is truncated)")
        if count > MAX_OPCODES:
            raise NotPlainData(f"the pickle holds more than {MAX_OPCODES:,} opcodes; only plain data of that size "
                               "is read")
        op = _OPCODES.get(data[at:at + 1])
        if op is None:
            raise NotPlainData(f"not a readable pickle (no opcode {data[at:at + 1]!r} at byte {at})")
        if op.name in ("GLOBAL", "INST"):
            module, name, _ = (data[at + 1:at + 1025].decode("latin-1") + "\n\n").split("\n", 2)
            raise NotPlainData(f"the pickle names a global ({_shown(module)}.{_shown(name)}); only plain data is read")
        if op.name in ("PERSID", "BINPERSID"):
            raise NotPlainData("the pickle holds a persistent id; only plain data is read")
        if op.name in _CODE_OPCODES:
            raise NotPlainData(f"the pickle calls or names code ({op.name} at byte {at}); only plain data is read")
        if op.name == "STOP":
            return
        if op.name in ("PUT", "LONG_BINPUT"):
            _check_memo_index(data, at, op.name)
        at = _after_argument(data, at + 1, op.arg.n if op.arg else 0)


def _shown(name: str) -> str:
    """A name from the bytes as a reason shows it: as it is when short and printable, else its repr, cut at 80."""
    return name if len(name) <= 80 and name.isprintable() else repr(name[:80])


def _check_memo_index(data: bytes, at: int, name: str) -> None:
    """A memo index past MAX_OPCODES is refused: the unpickler grows its memo to twice the index and zeroes it (9
    bytes, `LONG_BINPUT 680,000,000`, took 10 GB and 80 s); a pickler numbers its entries from 0, one per object."""
    if name == "LONG_BINPUT":
        index = str(int.from_bytes(data[at + 1:at + 5], "little"))
    else:  # PUT's decimal line: what int() would read of more than digits (" 9e9", "+9") is refused as it stands
        index = data[at + 1:at + 40].partition(b"\n")[0].decode("latin-1")
    if not (index.isascii() and index.isdigit() and int(index) < MAX_OPCODES):
        raise NotPlainData(f"the pickle stores memo entry {index[:20]!r} ({name} at byte {at}), not one of the "
                           f"{MAX_OPCODES:,} it may hold; only plain data of that size is read")


def _after_argument(data: bytes, at: int, size: int) -> int:
    """Where an opcode's argument starting at `at` ends: `size` bytes, a line, or a length then that many bytes."""
    if size >= 0:
        return at + size
    if size == pickletools.UP_TO_NEWLINE:
        end = data.find(b"\n", at)
        return len(data) if end < 0 else end + 1
    width, signed = _LENGTH_BYTES[size]
    length = int.from_bytes(data[at:at + width], "little", signed=signed)
    return at + width + max(length, 0)


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
