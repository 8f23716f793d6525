"""BFCL's AST checker, verdict for verdict with bfcl-eval's: decoded calls against an item's function docs and
possible answer. Every check gives (valid, bfcl-eval's error_type, a short reason)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .python_calls import Call
from .values import JAVA_TYPES, JS_TYPES, UnsupportedType, java_value, js_value

PYTHON_TYPES: dict[str, type] = {"string": str, "integer": int, "float": float, "boolean": bool, "array": list,
                                 "tuple": list, "dict": dict, "any": str}
_SOURCE_ARRAYS = ("Array", "ArrayList", "array")
_STANDARDIZE = re.compile(r"[ \,\.\/\-\_\*\^]")


@dataclass(frozen=True)
class Verdict:
    valid: bool
    error_type: str | None = None
    reason: str = ""
    turns: list[dict[str, Any]] | None = field(default=None, compare=False)  # a multi-turn episode's (episodes.py)


VALID = Verdict(True)


def standardize(text: str) -> str:
    """BFCL's string comparison form: no spaces or `,./-_*^`, lower case, `'` as `"`."""
    return _STANDARDIZE.sub("", text).lower().replace("'", '"')


def check_calls(functions: list[dict], calls: list[Call], answer: list[dict], language: str, category: str,
                underscore_to_dot: bool) -> Verdict:
    """The verdict on decoded calls by the category's rule: parallel (any order), multiple, else simple."""
    if "parallel" in category:
        return _parallel(functions, calls, answer, language, underscore_to_dot)
    if "multiple" in category:
        if len(calls) != len(answer):
            return Verdict(False, "multiple_function_checker:wrong_count", f"{len(calls)} calls, expected "
                                                                           f"{len(answer)}")
        return check_call(_doc(functions, answer[0]), calls[0], answer[0], language, underscore_to_dot)
    if len(calls) != 1:
        return Verdict(False, "simple_function_checker:wrong_count", f"{len(calls)} calls, expected 1")
    return check_call(functions[0], calls[0], answer[0], language, underscore_to_dot)


def _doc(functions: list[dict], answer: dict) -> dict | None:
    name = next(iter(answer))
    return next((doc for doc in functions if doc["name"] == name), None)


def _parallel(functions: list[dict], calls: list[Call], answer: list[dict], language: str,
              underscore_to_dot: bool) -> Verdict:
    if len(calls) != len(answer):
        return Verdict(False, "parallel_function_checker_no_order:wrong_count",
                       f"{len(calls)} calls, expected {len(answer)}")
    matched: set[int] = set()
    for number, expected in enumerate(answer):
        doc, last = _doc(functions, expected), VALID
        for index, call in enumerate(calls):
            if index in matched:
                continue
            last = check_call(doc, call, expected, language, underscore_to_dot)
            if last.valid:
                matched.add(index)
                break
        if not last.valid:
            return Verdict(False, "parallel_function_checker_no_order:cannot_find_match",
                           f"no call matches expected call {number} ({next(iter(expected))}): {last.reason}")
    return VALID


def check_call(doc: dict | None, call: Call, answer: dict, language: str, underscore_to_dot: bool) -> Verdict:
    """One call against one function doc and its acceptable values (bfcl-eval's simple_function_checker)."""
    if doc is None:
        return Verdict(False, "simple_function_checker:wrong_func_name", "the expected function has no doc")
    accepted = next(iter(answer.values()))
    name = re.sub(r"\.", "_", doc["name"]) if underscore_to_dot and "." in doc["name"] else doc["name"]
    if name not in call:
        return Verdict(False, "simple_function_checker:wrong_func_name", f"function {name!r} not called")
    given = call[name]
    properties = doc["parameters"]["properties"]
    for param in doc["parameters"].get("required", []):
        if param not in given:
            return Verdict(False, "simple_function_checker:missing_required", f"missing required {param!r}")
    for param, value in given.items():
        if param not in properties or param not in accepted:
            return Verdict(False, "simple_function_checker:unexpected_param", f"unexpected parameter {param!r}")
        verdict = _check_value(param, value, properties[param], accepted[param], language)
        if not verdict.valid:
            return verdict
    for param, values in accepted.items():
        if param not in given and "" not in values:
            return Verdict(False, "simple_function_checker:missing_optional",
                           f"{param!r} left out, and the answer does not allow it")
    return VALID


def _check_value(param: str, value: Any, spec: dict, accepted: list, language: str) -> Verdict:
    type_name = spec["type"]
    item_type = spec.get("items", {}).get("type") if type_name in _SOURCE_ARRAYS else None
    if language in ("java", "javascript"):
        types, read = (JAVA_TYPES, java_value) if language == "java" else (JS_TYPES, js_value)
        if type_name not in types:
            raise UnsupportedType(f"unsupported {language} type {type_name}")
        expected = types[type_name]
        if type(value) is not str:
            return Verdict(False, f"type_error:{'java' if language == 'java' else 'js'}",
                           f"{param!r} is a {type(value).__name__}, expected source text")
        item = types[item_type] if item_type else None
        value = read(value, type_name, item_type) if item_type else read(value, type_name)
    else:
        if type_name not in PYTHON_TYPES:
            raise UnsupportedType(f"unsupported type {type_name}")
        expected = PYTHON_TYPES[type_name]
        item = PYTHON_TYPES[spec["items"]["type"]] if type_name in ("array", "tuple") else None
    if type_name == "tuple" and type(value) is tuple:
        value = list(value)
    if language == "python" and type_name == "float" and type(value) is int:
        value = float(value)
    typed = _type_check(param, value, accepted, type_name, expected, item)
    if not typed.valid:
        return typed
    if not typed.is_variable:
        if expected is dict:
            return _dict_check(param, value, accepted)
        if expected is list and item is dict:
            return _dict_list_check(param, value, accepted)
        if expected is str:
            return _string_check(param, value, accepted)
        if expected is list:
            return _list_check(param, value, accepted)
    if value not in accepted:
        return Verdict(False, "value_error:others", f"{param!r} = {value!r}, expected one of {accepted!r}")
    return VALID


@dataclass(frozen=True)
class _Typed:
    valid: bool
    is_variable: bool
    error_type: str = ""
    reason: str = ""


def _answer_type(accepted: list) -> type | None:
    return next((type(value) for value in accepted if value != ""), None)


def _type_check(param: str, value: Any, accepted: list, described: str, expected: type,
                item: type | None) -> _Typed | Verdict:
    """bfcl-eval's type_checker: the value's exact type, one level into lists; a value of the answer's own type is a
    variable name the answer allows (is_variable)."""
    answer_type = _answer_type(accepted)
    is_variable = answer_type is not None and answer_type is not expected
    failure = ("type_error:simple", f"{param!r} is a {type(value).__name__}, expected {described}")
    if type(value) is expected:
        if item is None:
            return _Typed(True, is_variable)
        for option in accepted:
            if type(option) is not list or all(_type_check(param, element, option, str(item), item, None).valid
                                               for element in value):
                return _Typed(True, is_variable)
        failure = ("type_error:nested", f"{param!r} holds an element that is not {item.__name__}")
        if answer_type is not None and type(value) is answer_type:
            return Verdict(False, *failure)
        return Verdict(False, "type_error:simple", failure[1])
    if answer_type is not None and type(value) is answer_type:
        return _Typed(True, True)
    return Verdict(False, *failure)


def _string_check(param: str, value: str, accepted: list) -> Verdict:
    if standardize(value) in [standardize(option) for option in accepted if type(option) is str]:
        return VALID
    return Verdict(False, "value_error:string", f"{param!r} = {value!r}, expected one of {accepted!r}")


def _standardized(values: Any) -> Any:
    return [standardize(v) if type(v) is str else v for v in values]


def _list_check(param: str, value: list, accepted: list) -> Verdict:
    if _standardized(value) in [_standardized(option) for option in accepted]:
        return VALID
    return Verdict(False, "value_error:list/tuple", f"{param!r} = {value!r}, expected one of {accepted!r}")


def _dict_check(param: str, value: Any, options: list) -> Verdict:
    """bfcl-eval's dict_checker: every key of the value allowed with an accepted value, every needed key there."""
    verdict = Verdict(False, "dict_checker:unclear", f"{param!r}: no dict to compare with")
    if not isinstance(value, dict):
        return Verdict(False, "value_error:dict_value", f"{param!r} holds {value!r}, not a dict")
    for option in options:
        if option == "":
            continue
        verdict = VALID
        for key, found in value.items():
            if key not in option:
                verdict = Verdict(False, "value_error:dict_key", f"{param!r}: unexpected key {key!r}")
                break
            compared = standardize(found) if type(found) is str else found
            if compared not in _standardized(option[key]):
                verdict = Verdict(False, "value_error:dict_value", f"{param!r}: {key!r} = {found!r}")
                break
        missing = next((key for key, allowed in option.items() if key not in value and "" not in allowed), None)
        if missing is not None:  # bfcl-eval looks for a missing key even after a wrong value, and names it last
            verdict = Verdict(False, "value_error:dict_key", f"{param!r}: missing key {missing!r}")
        if verdict.valid:
            return VALID
    return verdict


def _dict_list_check(param: str, value: list, options: list) -> Verdict:
    verdict = Verdict(False, "list_dict_checker:unclear", f"{param!r}: no list of dicts to compare with")
    for option in options:
        if len(value) != len(option):
            verdict = Verdict(False, "value_error:list_dict_count", f"{param!r}: {len(value)} dicts, expected "
                                                                    f"{len(option)}")
            continue
        for element, expected in zip(value, option):
            verdict = _dict_check(param, element, [expected])
            if not verdict.valid:
                break
        else:
            return VALID
    return verdict
