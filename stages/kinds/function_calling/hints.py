"""The language hints bfcl-eval adds to every function doc before asking a model (its
_func_doc_language_specific_pre_processing): a note of the syntax on each description, and Java's and JavaScript's
parameters made strings whose description says their type."""
from __future__ import annotations

import copy
import json
from typing import Any

_SYNTAX = {"java": " Note that the provided function is in Java 8 SDK syntax.",
           "javascript": " Note that the provided function is in JavaScript syntax.",
           "python": " Note that the provided function is in Python 3 syntax."}
_NAMES = {"java": "Java", "javascript": "JavaScript"}


def with_language_hints(functions: list[dict[str, Any]], language: str) -> list[dict[str, Any]]:
    """A copy of the docs as bfcl-eval sends them for an item in `language`."""
    hinted = copy.deepcopy(functions)
    for doc in hinted:
        doc["description"] = doc.get("description", "") + _SYNTAX[language]
        if language in _NAMES:
            for spec in doc.get("parameters", {}).get("properties", {}).values():
                _as_string(spec, language)
    return hinted


def _as_string(spec: dict[str, Any], language: str) -> None:
    declared, name = spec.get("type"), _NAMES[language]
    spec["description"] = spec.get("description", "") + (
        f" This parameter can be of any type of {name} object in string representation." if declared == "any"
        else f" This is {name} {declared} type parameter in string representation.")
    if declared in (("ArrayList", "Array") if language == "java" else ("array",)):
        spec["description"] += (f" The list elements are of type {spec.get('items', {}).get('type')}; they are not in "
                                "string representation.")
        spec.pop("items", None)
    if language == "javascript" and declared == "dict" and "properties" in spec:
        spec["description"] += (" The dictionary entries have the following schema; they are not in string "
                                f"representation. {json.dumps(spec.pop('properties'))}")
    spec["type"] = "string"
