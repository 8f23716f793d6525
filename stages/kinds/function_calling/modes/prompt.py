"""BFCL's prompt mode (`mode = "prompt"`): BFCL's system prompt with the functions before the first turn, no tools,
the reply's text read as Python calls and a step's results sent back in words."""
from __future__ import annotations

from typing import Any

from ..episodes import execution_strings
from ..prompting import ADDED_FUNCTIONS, results_message, with_system_prompt
from . import Mode, register_mode


class PromptMode(Mode):
    """The functions in the system prompt; calls as the reply's text."""

    name = "prompt"

    def opening(self, messages: list[dict[str, Any]], functions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return with_system_prompt(messages, functions)

    def tools(self, functions: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        return None

    def added_functions(self, docs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The docs come with the turn's message (as Python writes the list, as bfcl-eval formats it)."""
        return [], {"role": "user", "content": f"{docs}\n{ADDED_FUNCTIONS}"}

    def step_reply(self, record: dict[str, Any]) -> Any:
        return record["prediction"]

    def execution_strings(self, reply: Any) -> list[str]:
        return execution_strings(reply, False)

    def results_messages(self, record: dict[str, Any], calls: list[str], results: list[str]) -> list[dict[str, Any]]:
        return [results_message(calls, results)]


PROMPT = register_mode(PromptMode())
