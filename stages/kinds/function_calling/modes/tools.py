"""BFCL's function-calling mode (the default): the functions as OpenAI `tools`, the reply's tool_calls read, each
call's result sent back as a `tool` message with its tool_call_id."""
from __future__ import annotations

from typing import Any

from ..episodes import execution_strings
from ..prompting import ADDED_FUNCTIONS
from ..tools import openai_tools
from . import Mode, register_mode


class ToolsMode(Mode):
    """The functions as tools; calls as {name: "<JSON arguments>"}."""

    name = "tools"

    def opening(self, messages: list[dict[str, Any]], functions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return messages

    def tools(self, functions: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        return openai_tools(functions) if functions else None

    def added_functions(self, docs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
        return docs, {"role": "user", "content": ADDED_FUNCTIONS}

    def step_reply(self, record: dict[str, Any]) -> Any:
        calls = record.get("tool_calls")
        return [_name_and_arguments(call) for call in calls] if calls else record["prediction"]

    def execution_strings(self, reply: Any) -> list[str]:
        return execution_strings(reply, True)

    def results_messages(self, record: dict[str, Any], calls: list[str], results: list[str]) -> list[dict[str, Any]]:
        return [{"role": "tool", "content": result, "tool_call_id": call.get("id")}
                for result, call in zip(results, record["tool_calls"])]


def _name_and_arguments(call: Any) -> Any:
    """An OpenAI tool call as {name: "<JSON arguments>"} (as bfcl-eval records it); anything else as it came."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return call
    return {function["name"]: function.get("arguments")}


TOOLS = register_mode(ToolsMode())
