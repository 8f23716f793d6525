"""Java and JavaScript argument values, which BFCL's models write as source text, read into Python values by the
rules of bfcl-eval's type converters (a text that does not fit its type stays text, so the checker calls it wrong)."""
from __future__ import annotations

import re
from typing import Any

JAVA_TYPES: dict[str, type] = {"byte": int, "short": int, "integer": int, "float": float, "double": float,
                               "long": int, "boolean": bool, "char": str, "Array": list, "ArrayList": list,
                               "Set": set, "HashMap": dict, "Hashtable": dict, "Queue": list, "Stack": list,
                               "String": str, "any": str}
JS_TYPES: dict[str, type] = {"String": str, "integer": int, "float": float, "Bigint": int, "Boolean": bool,
                             "dict": dict, "array": list, "any": str}

_INT = re.compile(r"^-?\d+$")
_JAVA_FLOAT = re.compile(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$")
_JAVA_DOUBLE = re.compile(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$")
_JAVA_LONG = re.compile(r"^-?\d+[lL]$")
_JS_FLOAT = re.compile(r"^-?\d+(\.\d+)?$")
_JS_BIGINT = re.compile(r"^-?\d+n$")
_AS_LIST = re.compile(r"new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)")
_ADDS = re.compile(r"new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}", re.DOTALL)
_EMPTY_LIST = re.compile(r"new\s+ArrayList<\w*>\(\)")
_ARRAY = re.compile(r"new\s+\w+\[\]\s*\{(.*?)\}")
_HASHMAP = re.compile(r"new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}", re.DOTALL)
_EMPTY_MAP = re.compile(r"new\s+HashMap<.*?>\s*\(\)")
_JS_2D = re.compile(r"\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)")
_JS_1D = re.compile(r"\[(.*?)\]|\bnew\s+Array\((.*?)\)")
_JS_PAIRS = re.compile(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)")


class UnsupportedType(ValueError):
    """A parameter type bfcl-eval's converters do not read (its evaluation stops there)."""


def java_value(text: str, type_name: str, item_type: str | None = None) -> Any:
    """A Java argument's text as the value of `type_name` (with `item_type` for arrays)."""
    if type_name not in JAVA_TYPES:
        raise UnsupportedType(f"unsupported Java type {type_name}")
    if type_name in ("byte", "short", "integer"):
        return int(text) if _INT.match(text) else text
    if type_name == "float":
        return float(re.sub(r"[fF]$", "", text)) if _JAVA_FLOAT.match(text) else text
    if type_name == "double":
        return float(text) if _JAVA_DOUBLE.match(text) else text
    if type_name == "long":
        return int(re.sub(r"[lL]$", "", text)) if _JAVA_LONG.match(text) else text
    if type_name == "boolean":
        return text == "true" if text in ("true", "false") else text
    if type_name == "ArrayList":
        return _java_array_list(text, item_type)
    if type_name == "Array":
        return _java_array(text, item_type)
    if type_name == "HashMap":
        return _java_hash_map(text)
    if type_name in ("Set", "Hashtable", "Queue", "Stack"):
        raise UnsupportedType(f"{type_name} conversion is not implemented")
    return text


def _java_element(text: str, item_type: str | None) -> Any:
    if item_type in ("char", "String"):
        return text[1:-1]
    return java_value(text, item_type) if item_type else java_literal(text)


def _java_array_list(text: str, item_type: str | None) -> Any:
    found = _AS_LIST.search(text)
    if found:
        return [_java_element(part.strip(), item_type) for part in found.group(1).split(",")]
    found = _ADDS.search(text)
    if found:
        return [_java_element(part.strip(), item_type) for part in re.findall(r"add\((.+?)\)", found.group(1))]
    return [] if _EMPTY_LIST.search(text) else text


def _java_array(text: str, item_type: str | None) -> Any:
    found = _ARRAY.search(text)
    if not found:
        return text
    parts = [part.strip() for part in found.group(1).split(",") if part.strip()]
    return [java_value(part, item_type) if item_type else java_literal(part) for part in parts]


def _java_hash_map(text: str) -> Any:
    found = _HASHMAP.search(text)
    if found:
        return {key: java_literal(value.strip()) for key, value in re.findall(r"put\(\"(.*?)\",\s*(.*?)\)",
                                                                              found.group(1))}
    return {} if _EMPTY_MAP.search(text) else text


def java_literal(text: str) -> Any:
    """A Java literal of no declared type: boolean, string, long, float, then any number, else the text."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    if _JAVA_LONG.match(text):
        return int(text[:-1])
    if _JAVA_FLOAT.match(text):
        return float(re.sub(r"[fF]$", "", text))
    return _number_or_text(text)


def _number_or_text(text: str) -> Any:
    for read in (int, float):
        try:
            return read(text)
        except ValueError:
            pass
    return text


def js_value(text: str, type_name: str, item_type: str | None = None) -> Any:
    """A JavaScript argument's text as the value of `type_name` (with `item_type` for arrays)."""
    if type_name not in JS_TYPES:
        raise UnsupportedType(f"unsupported JavaScript type {type_name}")
    if type_name == "String":
        return text[1:-1] if text[:1] in ("\"", "'") and text.endswith(text[0]) else text
    if type_name == "integer":
        return int(text) if _INT.match(text) else text
    if type_name == "float":
        return float(text) if _JS_FLOAT.match(text) else text
    if type_name == "Bigint":
        return int(text[:-1]) if _JS_BIGINT.match(text) else text
    if type_name == "Boolean":
        return text == "true" if text in ("true", "false") else text
    if type_name == "dict":
        return _js_object(text.strip())
    if type_name == "array":
        return _js_array(text.strip(), item_type)
    return text


def _js_array(code: str, item_type: str | None) -> Any:
    try:
        two_d = _JS_2D.match(code)
        if two_d:
            rows = []
            for index, inner in enumerate(re.findall(r"\[(.*?)\]", two_d.group(0))):
                inner = inner.strip()
                if index == 0 and inner.startswith("["):
                    inner = inner[1:]
                rows.append([js_literal(part.strip()) for part in inner.split(",")])
            return rows
        one_d = _JS_1D.match(code)
        if not one_d:
            return code
        body = one_d.group(1) if one_d.group(1) is not None else one_d.group(2)
        parts = body.strip().split(",") if body is not None and body.strip() else []
        if not item_type:
            return [js_literal(part.strip()) for part in parts]
        return [js_value(part.strip(), item_type) for part in parts]
    except (ValueError, IndexError):
        return code


def _js_object(code: str) -> Any:
    if code == "{}":
        return {}
    found = re.match(r"\{(.*?)\}", code)
    if not found:
        return code
    entries: dict[str, Any] = {}
    for key, value in _JS_PAIRS.findall(found.group(1)):
        key, value = key.strip().strip("'\""), value.strip()
        if value.startswith("[") and value.endswith("]"):
            entries[key] = _js_array(value, None)
        elif value.startswith("{") and value.endswith("}"):
            entries[key] = _js_object(value)
        else:
            entries[key] = js_literal(value.strip("'\""))
    return entries


def js_literal(text: str) -> Any:
    """A JavaScript literal of no declared type: boolean, quoted string, number, else the text."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text[:1] in ("\"", "'") and text.endswith(text[0]):
        return text[1:-1]
    return _number_or_text(text)
