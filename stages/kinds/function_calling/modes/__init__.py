"""BFCL's ways of asking ([generate] mode), one handler each, registered by name: how a request carries the item's
functions, how a missed function's turn offers them, how a step's reply is read and its calls' results sent back."""
from __future__ import annotations

from typing import Any

from ....core.registry import Registry

DEFAULT_MODE = "tools"  # BFCL's function-calling mode, asked when [generate] names none


class Mode:
    """A handler of one [generate] mode of function_calling."""

    name: str = ""

    def opening(self, messages: list[dict[str, Any]], functions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The first turn's messages as sent."""
        raise NotImplementedError

    def tools(self, functions: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The request's `tools` (None: the request has none)."""
        raise NotImplementedError

    def added_functions(self, docs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """A missed function's turn: (the docs added to the request's functions, the turn's user message)."""
        raise NotImplementedError

    def step_reply(self, record: dict[str, Any]) -> Any:
        """A step's reply as bfcl-eval records it: the text, or the calls as {name: "<JSON arguments>"}."""
        raise NotImplementedError

    def execution_strings(self, reply: Any) -> list[str]:
        """The reply's calls as texts to run (raises when it does not decode)."""
        raise NotImplementedError

    def results_messages(self, record: dict[str, Any], calls: list[str], results: list[str]) -> list[dict[str, Any]]:
        """The messages that send a step's results back."""
        raise NotImplementedError


MODES: Registry[Mode] = Registry("function_calling mode", __name__)


def register_mode(mode: Any) -> Any:
    """Make `mode` available by its name."""
    return MODES.register(mode.name)(mode)


def get_mode(name: str | None) -> Mode:
    """The handler registered as `name` (None: the default mode)."""
    return MODES.get(name or DEFAULT_MODE)


def mode_names() -> tuple[str, ...]:
    """Every mode's name, the default first."""
    return (DEFAULT_MODE, *(name for name in MODES.names() if name != DEFAULT_MODE))
