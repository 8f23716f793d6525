"""A domain's toolkit: methods marked as tools (whether a call changes the database, as tau2's tool types say),
called by name with keyword arguments, a failure raised as the exception tau2's tool would raise."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from .database import Database

_MUTATES = "__tau2_mutates__"


def tool(mutates: bool) -> Callable[[Callable], Callable]:
    """Mark a toolkit method as a tool; `mutates`: replaying it can change the database (tau2's WRITE tools)."""
    def mark(method: Callable) -> Callable:
        setattr(method, _MUTATES, mutates)
        return method
    return mark


class Toolkit:
    """Tools over one database; subclasses define the tools (and, unmarked, the functions assertions call)."""

    tool_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.tool_names = tuple(name for name, member in vars(cls).items() if hasattr(member, _MUTATES))

    def __init__(self, db: Database) -> None:
        self.db = db

    def has_tool(self, name: str) -> bool:
        return name in self.tool_names

    @classmethod
    def mutates(cls, name: str) -> bool:
        """Whether replaying tool `name` can change the database."""
        return getattr(getattr(cls, name), _MUTATES)

    def use_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call tool `name` (ValueError "Tool 'x' not found." as tau2 says when there is none)."""
        if name not in self.tool_names:
            raise ValueError(f"Tool '{name}' not found.")
        return getattr(self, name)(**arguments)

    def call_function(self, name: str, arguments: dict[str, Any]) -> Any:
        """Any function of the toolkit — tools and the helpers initialization actions and assertions name."""
        function = getattr(self, name, None)
        if function is None or name.startswith("_") or not callable(function):
            raise ValueError(f"Function {name} not found")
        return function(**arguments)


def tool_output(response: Any) -> str:
    """A tool's response as the text tau2 sends back: text as it is, anything else as JSON (numbers and booleans
    inside written as text, as tau2 writes them)."""
    if isinstance(response, str):
        return response
    return json.dumps(_plain(response), default=str)


def _plain(value: Any) -> Any:
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, Model):
        return value.fields
    return value


class Model:
    """A record a tool returns as tau2 returns a data model: dumped as it is (its numbers stay numbers)."""

    __slots__ = ("fields",)

    def __init__(self, fields: Any) -> None:
        self.fields = fields
