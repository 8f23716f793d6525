"""A prompting model's Java or JavaScript call (`[f(a=1, b="x")]`) read into {name: {parameter: value text}} as
bfcl-eval's tree-sitter readers give it: the first call only, each argument's value as text (Java's rebuilt from its
tokens, JavaScript's as written), for the type converters in values.py to read."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .python_calls import Call, DecodeError

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)
  | (?P<quote>'(?:[^'\\\n]|\\.)*')
  | (?P<number>0[xXbB][0-9a-fA-F_]+[lLn]?|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[a-zA-Z]?)
  | (?P<word>[A-Za-z_$][\w$]*)
  | (?P<op>>>>=|<<=|>>=|===|!==|\.\.\.|->|=>|==|!=|<=|>=|&&|\|\||\+\+|--|\+=|-=|\*=|/=|::|[^\s\w])
""", re.VERBOSE)
_OPENING = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Token:
    kind: str  # string, quote, number, word, op
    text: str
    start: int
    end: int


def tokens(source: str, language: str) -> list[Token]:
    """The source's tokens; a quote that never closes is a decode error (tree-sitter's ERROR)."""
    found, position = [], 0
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None or (match.lastgroup == "op" and match.group() in "\"'`"):
            raise DecodeError(f"unreadable {language} at character {position}")
        if match.lastgroup != "space":
            found.append(Token(match.lastgroup, match.group(), match.start(), match.end()))
        position = match.end()
    return found


_OPERAND = ("word", "number", "string", "quote")
_JOINING_WORDS = {"new", "typeof", "instanceof", "in", "of", "void", "delete", "await", "return", "throw", "case",
                  "extends", "super", "final"}


def _check_adjacent(items: list[Token], language: str) -> None:
    """Two operands side by side (`mapController elsewhere`, `f() elsewhere`) are a syntax error, as tree-sitter's
    ERROR node; a cast's parentheses (`(int) x`) are not a call's."""
    calls: list[bool] = []
    for index, (first, second) in enumerate(zip(items, items[1:])):
        if first.text == "(":
            calls.append(index > 0 and items[index - 1].kind == "word")
        ends_operand = first.kind in _OPERAND and first.text not in _JOINING_WORDS
        if first.text == ")" and calls:
            ends_operand = calls.pop()
        if ends_operand and second.kind in _OPERAND and second.text not in _JOINING_WORDS:
            raise DecodeError(f"Error parsing {language}: {first.text} {second.text}")


def _closing(items: list[Token], start: int) -> int:
    """The index of the bracket closing the one at `start`."""
    expected: list[str] = []
    for index in range(start, len(items)):
        text = items[index].text
        if items[index].kind == "op" and text in _OPENING:
            expected.append(_OPENING[text])
        elif items[index].kind == "op" and text in (")", "]", "}"):
            if not expected or expected.pop() != text:
                raise DecodeError(f"unbalanced {text!r}")
            if not expected:
                return index
    raise DecodeError("a bracket that never closes")


def _split_arguments(items: list[Token]) -> list[list[Token]]:
    """The top-level comma-separated parts of an argument list's tokens (without its parentheses)."""
    parts, current, index = [], [], 0
    while index < len(items):
        token = items[index]
        if token.kind == "op" and token.text in _OPENING:
            end = _closing(items, index)
            current.extend(items[index:end + 1])
            index = end + 1
            continue
        if token.text == "new":  # a created type's arguments (`HashMap<K, V>`) hold commas of their own
            end = _type_end(items, index + 1)
            current.extend(items[index:end])
            index = end
            continue
        if token.kind == "op" and token.text == ",":
            parts.append(current)
            current = []
        else:
            current.append(token)
        index += 1
    if current or parts:
        parts.append(current)
    return parts


def _callee_end(items: list[Token]) -> int:
    """The index of the call's opening parenthesis after a dotted name (`a.b.c(`)."""
    index = 0
    if not items or items[0].kind != "word":
        raise DecodeError("no function call found")
    while index + 2 < len(items) and items[index + 1].text == "." and items[index + 2].kind == "word":
        index += 2
    if index + 1 >= len(items) or items[index + 1].text != "(":
        raise DecodeError("no function call found")
    return index + 1


def _named(part: list[Token]) -> int | None:
    """The index of `=` in `name = value` (name possibly dotted), else None."""
    index = 0
    while index + 2 < len(part) and part[index].kind == "word" and part[index + 1].text == ".":
        index += 2
    if len(part) > index + 2 and part[index].kind == "word" and part[index + 1].text == "=":
        return index + 1
    return None


def _arguments(source: str, parts: list[list[Token]], value: Callable[[str, list[Token]], str],
               positional: Callable[[list[Token]], bool]) -> dict:
    """`name=value` arguments by name; a positional one that tree-sitter's readers keep (a name, a class literal)
    under None; the others left out."""
    arguments: dict = {}
    for part in parts:
        equals = _named(part)
        if equals is not None:
            name, found = source[part[0].start:part[equals - 1].end], value(source, part[equals + 1:])
        elif positional(part):
            name, found = None, source[part[0].start:part[-1].end]
        else:
            continue
        if name in arguments:
            raise DecodeError("Multiple arguments with the same name are not supported.")
        arguments[name] = found
    return arguments


def _first_call(source: str, language: str) -> tuple[list[Token], str, list[list[Token]], list[Token]]:
    items = tokens(source, language)
    _check_adjacent(items, language)
    opening = _callee_end(items)
    closing = _closing(items, opening)
    name = "".join(token.text for token in items[:opening])
    return items, name, _split_arguments(items[opening + 1:closing]), items[closing + 1:]


def javascript_call(text: str) -> list[Call] | None:
    """The first call of a JavaScript reply (its brackets already added); None when the statement is not a call."""
    if not tokens(text[1:-1], "JavaScript"):
        return None
    items, name, parts, rest = _first_call(text[1:-1], "JavaScript")
    if rest and rest[0].text == ",":
        return None
    if rest and rest[0].text != ";":
        raise DecodeError("Error js parsing the source code.")
    source = text[1:-1]
    arguments = _arguments(source, parts, _js_value, _js_positional)
    return [{name: arguments}]


def _js_positional(part: list[Token]) -> bool:
    """A positional argument tree-sitter's JavaScript reader keeps: a name, or `true` (not `false`, `null` …, which
    are node types of their own)."""
    return len(part) == 1 and part[0].kind == "word" and part[0].text not in ("false", "null", "undefined", "this",
                                                                              "super")


def _js_value(source: str, part: list[Token]) -> str:
    value = source[part[0].start:part[-1].end]
    return value[1:-1] if value[:1] in ("\"", "'") and value.endswith(value[0]) else value


def java_call(text: str) -> list[Call] | dict:
    """The first call of a Java reply (its brackets already added); {} when there is none."""
    source = text[1:-1]
    try:
        items, name, parts, rest = _first_call(source, "Java")
    except DecodeError:
        if not tokens(source, "Java"):
            return {}
        raise
    if rest and rest[0].text != ";":
        raise DecodeError("Error parsing java the source code.")
    return [{name: _arguments(source, parts, _java_value, _java_positional)}]


def _java_positional(part: list[Token]) -> bool:
    return (len(part) == 1 and part[0].kind == "word") or (
        len(part) == 3 and part[1].text == "." and part[2].text == "class")


def _java_value(source: str, part: list[Token]) -> str:
    """An argument's value as bfcl-eval rebuilds it: a string or char literal without its quotes; a name, class
    literal or method call as written; anything else from its tokens (spaces dropped, `new` expressions rebuilt)."""
    if len(part) == 1 and part[0].kind in ("string", "quote"):
        return part[0].text[1:-1]
    if _is_invocation(part) or (len(part) == 1 and part[0].kind == "word") or (
            len(part) == 3 and part[1].text == "." and part[2].text == "class"):
        return source[part[0].start:part[-1].end]
    return _rebuilt(source, part)


def _is_invocation(part: list[Token]) -> bool:
    """A method call (or a chain of them) spanning the whole argument."""
    try:
        opening = _callee_end(part)
    except DecodeError:
        return False
    index = _closing(part, opening)
    while index + 3 < len(part) and part[index + 1].text == "." and part[index + 2].kind == "word" \
            and part[index + 3].text == "(":
        index = _closing(part, index + 3)
    return index == len(part) - 1


def _rebuilt(source: str, part: list[Token]) -> str:
    """A Java expression from its tokens, as tree-sitter's node texts joined: method calls written as they are,
    `new T[]{…}` and `new T(a, b)` rebuilt, everything else joined without spaces."""
    pieces, index = [], 0
    while index < len(part):
        token = part[index]
        if token.text == "new":
            text, index = _creation(source, part, index)
            pieces.append(text)
            continue
        if token.kind == "word" and (index == 0 or part[index - 1].text != "."):
            end = _invocation_end(part, index)
            if end is not None:
                pieces.append(source[token.start:part[end].end])
                index = end + 1
                continue
        pieces.append(token.text)
        index += 1
    return "".join(pieces)


def _invocation_end(part: list[Token], start: int) -> int | None:
    """The last token of a method call starting at `start`, or None when no call starts there."""
    index = start
    while index + 2 < len(part) and part[index + 1].text == "." and part[index + 2].kind == "word":
        index += 2
    if index + 1 < len(part) and part[index + 1].text == "(":
        return _closing(part, index + 1)
    return None


def _creation(source: str, part: list[Token], start: int) -> tuple[str, int]:
    """`new …` at `start`: its text as bfcl-eval rebuilds it and the index after it."""
    index = start + 1
    type_end = _type_end(part, index)
    type_text = "".join(token.text for token in part[index:type_end])
    if type_end < len(part) and part[type_end].text == "[":
        index = type_end
        while index < len(part) and part[index].text == "[":
            index = _closing(part, index) + 1
        if index >= len(part) or part[index].text != "{":
            raise DecodeError("an array created without its values")
        end = _closing(part, index)
        return f"new {type_text}[]" + _rebuilt(source, part[index:end + 1]), end + 1
    if type_end < len(part) and part[type_end].text == "(":
        end = _closing(part, type_end)
        arguments = ", ".join(_rebuilt_nested(source, piece) for piece in _split_arguments(part[type_end + 1:end])
                              if piece)
        after = end + 1
        if after < len(part) and part[after].text == "{":  # an anonymous class body: tree-sitter's text leaves it out
            after = _closing(part, after) + 1
        return f"new {type_text}({arguments})", after
    raise DecodeError("a `new` expression that creates nothing")


def _rebuilt_nested(source: str, part: list[Token]) -> str:
    if _is_invocation(part):
        return source[part[0].start:part[-1].end]
    return _rebuilt(source, part)


def _type_end(part: list[Token], start: int) -> int:
    """The index after the type named from `start` (`int`, `HashMap<String, List<Integer>>`)."""
    index = start
    while index < len(part) and part[index].text not in ("(", "[", "{"):
        if part[index].text == "<":
            index = _angle_end(part, index)
        index += 1
    return index


def _angle_end(part: list[Token], start: int) -> int:
    depth = 0
    for index in range(start, len(part)):
        depth += part[index].text.count("<") - part[index].text.count(">")
        if depth <= 0:
            return index
    raise DecodeError("type arguments that never close")
