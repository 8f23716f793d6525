"""One item's verdict as bfcl-eval gives it: the reply decoded (a prompting model's text, a function-calling
model's list of {name: "<JSON arguments>"}, OpenAI tool_calls), then the AST checker, or, for relevance and
irrelevance items, only whether a call decoded."""
from __future__ import annotations

import json
from typing import Any

from .checker import Verdict, check_calls
from .python_calls import Call, DecodeError, python_calls
from .source_calls import java_call, javascript_call
from .values import UnsupportedType

TEXT, FUNCTION_CALLS, TOOL_CALLS = "text", "function_calls", "tool_calls"
REPLY_FORMATS = (TEXT, FUNCTION_CALLS, TOOL_CALLS)


def category_of(item_id: str) -> str:
    """BFCL's category from an item id: `simple_python_12` → simple_python, `live_simple_3-2-1` → live_simple."""
    return item_id.split(":")[0].rsplit("_", 1)[0]


def language_of(category: str) -> str:
    if "javascript" in category:
        return "javascript"
    return "java" if "java" in category else "python"


def is_relevance(category: str) -> bool:
    """Relevance and irrelevance items are scored by whether a call decodes, not against an answer."""
    return "relevance" in category


def decode_reply(reply: Any, reply_format: str, language: str) -> Any:
    """The calls a reply holds, decoded as bfcl-eval decodes it (DecodeError when it cannot be)."""
    if reply_format == TOOL_CALLS:
        reply = [_tool_call(call) for call in reply] if isinstance(reply, list) else reply
    if reply_format in (FUNCTION_CALLS, TOOL_CALLS):
        return _function_calls(reply)
    if not isinstance(reply, str):
        raise DecodeError(f"a {type(reply).__name__} where text was expected")
    if language == "python":
        return python_calls(reply)
    text = reply.strip("`\n ")
    text = ("" if text.startswith("[") else "[") + text + ("" if text.endswith("]") else "]")
    return java_call(text) if language == "java" else javascript_call(text)


def _tool_call(call: Any) -> Any:
    """An OpenAI tool call as {name: "<JSON arguments>"}."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return call
    arguments = function.get("arguments")
    return {function["name"]: arguments if isinstance(arguments, str) else json.dumps(arguments)}


def _function_calls(reply: Any) -> list[Call]:
    if not isinstance(reply, list):
        raise DecodeError(f"a {type(reply).__name__} where a list of calls was expected")
    calls = []
    for call in reply:
        if not isinstance(call, dict) or not call:
            raise DecodeError(f"{call!r} is not a {{name: arguments}} call")
        name = next(iter(call))
        try:
            calls.append({name: json.loads(call[name])})
        except (TypeError, ValueError) as exc:
            raise DecodeError(f"the arguments of {name} are not JSON text: {exc}") from None
    return calls


def function_calling_steps(reply: Any) -> bool:
    """A multi-turn result is a function-calling model's when some step holds calls rather than text."""
    return isinstance(reply, list) and any(isinstance(step, (list, dict)) for turn in reply
                                           if isinstance(turn, list) for step in turn)


def is_call_list(decoded: Any) -> bool:
    """bfcl-eval's function-calling format: a list of one-key dicts, each holding a dict of arguments."""
    return isinstance(decoded, list) and all(
        type(call) is dict and len(call) == 1 and type(next(iter(call.values()))) is dict for call in decoded)


def holds_a_call(decoded: Any) -> bool:
    return is_call_list(decoded) and bool(decoded) and not (len(decoded) == 1 and not decoded[0])


def item_verdict(category: str, functions: list[dict], answer: list | None, reply: Any, reply_format: str,
                 episode: dict | None = None) -> tuple[Verdict, Any]:
    """(the verdict, the decoded calls or None) for one reply; a multi-turn item's with its `episode`
    (initial_config, involved_classes)."""
    if "multi_turn" in category:
        from .episodes import episode_verdict

        return episode_verdict({**(episode or {}), "category": category}, answer or [], reply,
                               function_calling_steps(reply)), None
    language = language_of(category)
    if is_relevance(category):
        try:
            decoded = decode_reply(reply, reply_format, "python")
            called = holds_a_call(decoded)
        except DecodeError as exc:
            decoded, called, why = None, False, str(exc)
        if "irrelevance" in category:
            return (Verdict(False, "irrelevance_error:decoder_success", "a call decoded where none was wanted")
                    if called else Verdict(True)), decoded
        return (Verdict(True) if called else Verdict(False, "relevance_error:decoder_failed",
                                                     f"no call decoded: {why if decoded is None else 'empty'}")), decoded
    try:
        decoded = decode_reply(reply, reply_format, language)
    except DecodeError as exc:
        return Verdict(False, "ast_decoder:decoder_failed", f"cannot decode: {exc}"), None
    if not is_call_list(decoded):
        return Verdict(False, "ast_decoder:decoder_wrong_output_format", "not a list of calls"), decoded
    try:
        return check_calls(functions, decoded, answer or [], language, category,
                           underscore_to_dot=reply_format != TEXT), decoded
    except (UnsupportedType, KeyError, TypeError, AttributeError) as exc:
        return Verdict(False, "checker_error", f"bfcl-eval's checker stops here too: {exc!r}"), decoded
