"""Plain data across a sandbox's pipes: None, bool, int, float, complex, str, bytes and lists / tuples / dicts / sets
of them; an iterator or generator arrives as a one-shot iterator over its items (unequal to a list, as it was). Replies travel as JSON lines written without the json module (a program's sandbox starts fast), read back
with bounds on size and nesting; calls and payloads, written by evalpipe's side, as length-prefixed marshal data.
Runs inside the sandboxes (standard library only)."""
import marshal
import os

MAX_DEPTH = 100
MAX_ITEMS = 1_000_000  # an iterator or generator is materialised up to this many items
MAX_LINE = 4 << 20  # bytes of one message
BASES = (bool, int, float, complex, str, bytes, bytearray, list, tuple, dict, set, frozenset)
SPECIAL = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class NotData(Exception):
    """A value that is not plain data (its reason says what it was)."""


def to_wire(value, depth=0):
    """`value` as JSON-ready data: scalars as themselves, the rest tagged; a subclass of a builtin sent as its base."""
    if depth > MAX_DEPTH:
        raise NotData(f"nested deeper than {MAX_DEPTH} levels")
    if value is None or type(value) in (bool, str):
        return value
    if type(value) is int:
        return value if -(1 << 53) < value < 1 << 53 else {"int": format(value, "x")}  # hex: no 4,300-digit limit
    if type(value) is float:
        return value if value - value == 0 else {"float": repr(value)}
    base = next((kind for kind in BASES if isinstance(value, kind)), None)
    if base is None:
        if hasattr(type(value), "__next__") and hasattr(type(value), "__iter__"):
            return {"iterator": [to_wire(item, depth + 1) for item in _bounded(value)]}
        name = type(value).__name__
        raise NotData(f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} object, not data")
    if base in (bool, int, float, str):
        return to_wire(base(value), depth)
    if base is complex:
        return {"complex": [repr(complex(value).real), repr(complex(value).imag)]}
    if base in (bytes, bytearray):
        return {base.__name__: bytes(value).decode("latin-1")}
    if base is dict:
        return {"dict": [[to_wire(key, depth + 1), to_wire(item, depth + 1)] for key, item in dict.items(value)]}
    return {base.__name__: [to_wire(item, depth + 1) for item in base.__iter__(value)]}


def _bounded(iterator):
    for count, item in enumerate(iterator):
        if count >= MAX_ITEMS:
            raise NotData(f"an iterator of more than {MAX_ITEMS} items")
        yield item


def from_wire(data, depth=0):
    """The value `data` (to_wire's form, parsed from JSON) stands for; NotData when it is malformed."""
    if depth > MAX_DEPTH:
        raise NotData(f"nested deeper than {MAX_DEPTH} levels")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [from_wire(item, depth + 1) for item in data]
    if type(data) is not dict or len(data) != 1:
        raise NotData("a malformed value")
    (tag, body), = data.items()
    try:
        if tag in ("list", "tuple", "set", "frozenset", "iterator"):
            items = [from_wire(item, depth + 1) for item in _list(body)]
            return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset, "iterator": iter}[tag](items)
        if tag == "dict":
            return {from_wire(key, depth + 1): from_wire(item, depth + 1) for key, item in map(_pair, _list(body))}
        if tag == "int":
            return int(body, 16)
        if tag == "float":
            return float(body)
        if tag == "complex":
            real, imag = _list(body)
            return complex(float(real), float(imag))
        if tag in ("bytes", "bytearray"):
            raw = body.encode("latin-1")
            return raw if tag == "bytes" else bytearray(raw)
    except (TypeError, ValueError, AttributeError, OverflowError, UnicodeError) as exc:
        raise NotData(f"a malformed {tag}: {type(exc).__name__}") from None
    raise NotData(f"an unknown tag {str(tag)[:40]!r}")


def _list(body):
    if type(body) is not list:
        raise TypeError("not a list")
    return body


def _pair(item):
    if type(item) is not list or len(item) != 2:
        raise TypeError("not a pair")
    return item


def _string(text):
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    parts = []
    for character in text:
        code = ord(character)
        if character in SPECIAL:
            parts.append(SPECIAL[character])
        elif 32 <= code < 127:
            parts.append(character)
        elif code > 0xFFFF:
            code -= 0x10000
            parts.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            parts.append("\\u%04x" % code)
    return '"' + "".join(parts) + '"'


def to_json(value):
    """JSON text of to_wire's output (str keys only), ASCII, lone surrogates escaped rather than raised."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if type(value) is float:
        return repr(value)
    if type(value) is str:
        return _string(value)
    if type(value) is list:
        return "[" + ",".join(map(to_json, value)) + "]"
    return "{" + ",".join(_string(key) + ":" + to_json(item) for key, item in value.items()) + "}"


def dump_line(message):
    """One message as a line of ASCII JSON."""
    return (to_json(message) + "\n").encode("ascii")


def load_line(line):
    """A message from one JSON line: a dict, else NotData with the reason (too long, not JSON, too deep)."""
    import json

    if len(line) > MAX_LINE:
        raise NotData(f"a message over {MAX_LINE >> 20} MiB")
    try:
        message = json.loads(line.decode("utf-8", "replace"))
    except RecursionError:
        raise NotData("a message nested too deep") from None
    except ValueError as exc:
        raise NotData(f"not JSON ({str(exc)[:80]})") from None
    if type(message) is not dict:
        raise NotData("not a JSON object")
    return message


def read_line(stream):
    """The next line of a binary stream, at most MAX_LINE bytes (b"" at its end); NotData past the bound."""
    line = stream.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise NotData(f"a message over {MAX_LINE >> 20} MiB")
    return line


def send_data(descriptor, value):
    """`value` as marshal data behind its length (evalpipe's side writes these; marshal reads only data types)."""
    body = marshal.dumps(value)
    data = len(body).to_bytes(4, "big") + body
    while data:
        data = data[os.write(descriptor, data):]


def receive_data(stream):
    """The next value send_data wrote, or None at the stream's end."""
    head = stream.read(4)
    if len(head) < 4:
        return None
    return marshal.loads(stream.read(int.from_bytes(head, "big")))
