"""A domain's environment: the agent's and the user's toolkits over fresh databases, a tool call answered as tau2
answers it (failures as "Error: …"), initial state set and a trajectory's calls replayed as tau2's set_state does; a
domain that keeps the user's tools in step with the agent's (telecom) syncs them where tau2 does."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .database import Database
from .domains import DomainData
from .toolkit import Toolkit, tool_output


class TrajectoryError(ValueError):
    """A trajectory tau2 cannot replay: a tool result with no call before it, a call with no result after it."""


@dataclass
class Replay:
    """What replaying a trajectory did: calls run again, unknown tools skipped, results that came out otherwise."""

    replayed: int = 0
    unknown_tools: list[str] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)


def initialization_refused(data: DomainData, initial_state: dict[str, Any]) -> str | None:
    """Why tau2 1.0.1 fails to set up this initial state, or None: its set_state hands the user's tools the agent's
    database after initialization_data's agent_data (the agent's tools the user's after user_data), which a domain
    whose two databases are kept in step (telecom's phone sync) cannot survive."""
    update = initial_state.get("initialization_data") or {}
    if data.domain.sync is None or (update.get("agent_data") is None and update.get("user_data") is None):
        return None
    return (f"{data.domain.name}'s initialization_data: tau2 1.0.1's set_state then gives one side's tools the other "
            "side's database and fails")


class Environment:
    """Fresh databases of one domain folder (copies on write of its tables) with the agent's and user's tools."""

    def __init__(self, data: DomainData) -> None:
        self.db = Database(data.tables)
        self.tools: Toolkit = data.domain.tools(self.db)
        self.user_db = Database(data.user_tables) if data.user_tables is not None else None
        self.user_tools: Toolkit | None = (data.domain.user_tools(self.user_db)
                                           if data.domain.user_tools is not None and self.user_db is not None
                                           else None)
        self._sync = data.domain.sync if self.user_tools is not None else None
        self.sync()

    def sync(self) -> None:
        """The user's tools brought in step with the agent's database (tau2's sync_tools; nothing for most domains)."""
        if self._sync is not None:
            self._sync(self.tools, self.user_tools)

    def _toolkits(self) -> tuple[Toolkit, ...]:
        return (self.tools,) if self.user_tools is None else (self.tools, self.user_tools)

    def has_tool(self, name: str) -> bool:
        return any(kit.has_tool(name) for kit in self._toolkits())

    def mutates(self, name: str) -> bool:
        return next(kit.mutates(name) for kit in self._toolkits() if kit.has_tool(name))

    def make_tool_call(self, name: str, requestor: str, arguments: Any) -> Any:
        """Call tool `name` for the agent ("assistant") or the user; its exception as tau2 raises it."""
        if requestor == "user":
            if self.user_tools is None:
                raise ValueError("User tools not available")
            return self.user_tools.use_tool(name, arguments)
        if requestor == "assistant":
            return self.tools.use_tool(name, arguments)
        raise ValueError(f"Invalid requestor: {requestor}")

    def respond(self, name: str, requestor: str, arguments: Any) -> tuple[str, bool]:
        """(the tool message's content, whether it is an error) for one call, as tau2 answers it."""
        try:
            response = self.make_tool_call(name, requestor, arguments)
            self.sync()
            return tool_output(response), False
        except Exception as error:  # noqa: BLE001 — every failure of a tool is the caller's error message, as in tau2
            return f"Error: {error}", True

    def apply(self, name: str, requestor: str, arguments: Any) -> None:
        """A gold action made as tau2's evaluator makes it: its failure ignored, the tools not synced after it."""
        try:
            self.make_tool_call(name, requestor, arguments)
        except Exception:  # noqa: BLE001, S110 — tau2 logs a failing gold action and goes on
            pass

    def run_function(self, env_type: str, name: str, arguments: dict[str, Any]) -> Any:
        """A function of the agent's or user's toolkit (initialization actions, assertions), then the tools synced."""
        kit = {"assistant": self.tools, "user": self.user_tools}.get(env_type)
        if kit is None:
            raise ValueError(f"Invalid environment type: {env_type}")
        result = kit.call_function(name, arguments)
        self.sync()
        return result

    def assertion_met(self, assertion: dict[str, Any]) -> bool:
        """Whether an env assertion holds (its function's bool equals assert_value, true by default)."""
        result = self.run_function(assertion.get("env_type", "assistant"), assertion["func_name"],
                                   assertion.get("arguments", {}))
        if not isinstance(result, bool):
            raise ValueError(f"Function {assertion['func_name']} returned {type(result)} instead of bool")
        return result == assertion.get("assert_value", True)

    def set_state(self, initial_state: dict[str, Any] | None, messages: list[dict[str, Any]]) -> Replay:
        """Initialization data merged, initialization actions run, then every state-changing call of `messages`
        replayed (tau2's set_state, lenient as its evaluate-trajs: a result that differs is noted, not fatal)."""
        initial_state = initial_state or {}
        data = initial_state.get("initialization_data") or {}
        for side in ("agent_data", "user_data"):
            if data.get(side) is not None and not isinstance(data[side], dict):
                raise ValueError(f"initialization_data's {side} is a {type(data[side]).__name__}, not tables of records")
        if data.get("agent_data") is not None:
            self.db.merge(data["agent_data"])
        if data.get("user_data") is not None:
            if self.user_db is None:
                raise ValueError("User tools not available")
            self.user_db.merge(data["user_data"])
        for action in initial_state.get("initialization_actions") or []:
            self.run_function(action.get("env_type", "assistant"), action["func_name"], action.get("arguments", {}))
        replay = Replay()
        for call, result in tool_exchanges(messages):
            name = call.get("name")
            if not isinstance(name, str) or not self.has_tool(name):
                replay.unknown_tools.append(str(name))
                continue
            if not self.mutates(name):
                continue
            content, _ = self.respond(name, call.get("requestor", "assistant"), call.get("arguments", {}))
            replay.replayed += 1
            if _parsed(content) != _parsed(result.get("content")):
                replay.differing.append(f"{name} (call {call.get('id', '')!r})")
        self.sync()
        return replay


def tool_exchanges(messages: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each tool call of the agent or user paired with the tool message after it (TrajectoryError when a trajectory
    breaks tau2's rule: every call answered in order, by id, and no tool message without its call)."""
    pairs, position = [], 0
    while position < len(messages):
        message = messages[position]
        position += 1
        role = message.get("role")
        if role == "tool":
            raise TrajectoryError(f"message {position}: a tool message that follows no tool call")
        calls = message.get("tool_calls") if role in ("assistant", "user") else None
        for call in calls or []:
            if position >= len(messages):
                raise TrajectoryError(f"message {position}: tool call {call.get('id')!r} has no tool message after it")
            answer = messages[position]
            position += 1
            if answer.get("role") != "tool":
                raise TrajectoryError(f"message {position}: a {answer.get('role')} message where the tool message of "
                                      f"call {call.get('id')!r} should be")
            if answer.get("id") != call.get("id"):
                raise TrajectoryError(f"message {position}: tool call id {call.get('id')!r} answered by "
                                      f"{answer.get('id')!r}")
            pairs.append((call, answer))
    return pairs


def _parsed(content: Any) -> Any:
    if not isinstance(content, str):
        return content
    try:
        return json.loads(content)
    except ValueError:
        return content
