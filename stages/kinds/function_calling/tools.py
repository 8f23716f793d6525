"""BFCL's function docs as OpenAI `tools`, as bfcl-eval's function-calling handlers send them: names with dots made
legal (`_`), BFCL's types mapped to JSON Schema's (dict → object, float → number with format float, tuple → array,
any → string, Java's and JavaScript's types by kind), nested properties and items mapped the same way."""
from __future__ import annotations

import copy
from typing import Any

OPENAPI_TYPES = {"integer": "integer", "number": "number", "float": "number", "string": "string",
                 "boolean": "boolean", "bool": "boolean", "array": "array", "list": "array", "dict": "object",
                 "object": "object", "tuple": "array", "any": "string", "byte": "integer", "short": "integer",
                 "long": "integer", "double": "number", "char": "string", "ArrayList": "array", "Array": "array",
                 "HashMap": "object", "Hashtable": "object", "Queue": "array", "Stack": "array", "Any": "string",
                 "String": "string", "Bigint": "integer"}


def tool_name(name: str) -> str:
    """A function name OpenAI accepts (`^[a-zA-Z0-9_-]{1,64}$`): dots made underscores."""
    return name.replace(".", "_")


def openai_tools(functions: list[dict]) -> list[dict[str, Any]]:
    """The item's function docs as the `tools` of a chat request."""
    tools = []
    for doc in copy.deepcopy(functions):
        parameters = doc.get("parameters", {})
        parameters["type"] = "object"
        parameters["properties"] = _properties(parameters.get("properties", {}))
        tools.append({"type": "function", "function": {**doc, "name": tool_name(doc["name"]),
                                                       "parameters": parameters}})
    return tools


def _properties(properties: dict[str, Any]) -> dict[str, Any]:
    for spec in properties.values():
        declared = spec.get("type")
        if declared == "float":
            spec["format"] = "float"
            spec["description"] = spec.get("description", "") + " This is a float type value."
        spec["type"] = OPENAPI_TYPES.get(declared, "string")
        if spec["type"] in ("array", "object"):
            if "properties" in spec:
                spec["properties"] = _properties(spec["properties"])
            elif isinstance(spec.get("items"), dict):
                spec["items"] = _items(spec["items"])
    return properties


def _items(items: dict[str, Any]) -> dict[str, Any]:
    items["type"] = OPENAPI_TYPES.get(items.get("type"), "string")
    if items["type"] == "array" and isinstance(items.get("items"), dict):
        items["items"]["type"] = OPENAPI_TYPES.get(items["items"].get("type"), "string")
    elif items["type"] == "object" and "properties" in items:
        items["properties"] = _properties(items["properties"])
    return items
