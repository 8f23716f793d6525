"""One tau2 trial asked live, half duplex as tau2 1.0.1's orchestrator runs it: the agent's greeting first (or the
task's message history, continued by whoever its last message is for), then the user simulator, the agent and the
environment (answering the agent's calls, and the user's with the user's tools; the user's tools synced after each
step) in turn until the user's stop signal, max steps (200) or max errors (10) — tau2's LLMAgent never stops. Each
side is an asker whose every request is journaled by step (`<id>#step<s>`): a rerun replays, asking nothing."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from .environment import Environment

MAX_STEPS, MAX_ERRORS = 200, 10  # tau2's defaults
FIRST_AGENT_MESSAGE = "Hi! How can I help you today?"
USER_STOP_SIGNALS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")
STEP_MARK = "#step{step}"
INFRASTRUCTURE_ERROR = "infrastructure_error"  # what tau2's runner records when a trial raised (after its retries)
AGENT_INSTRUCTION = ("You are a customer service agent that helps the user according to the <policy> provided below.\n"
                     "In each turn you can either:\n- Send a message to the user.\n- Make a tool call.\n"
                     "You cannot do both at the same time.\n\n"
                     "Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.")


class Journal(Protocol):
    def append(self, record: dict[str, Any]) -> None:
        ...


class StepAsker(Protocol):
    """A side of the conversation (chat.step_asker.Asker): a step's journaled reply, why none, asked now;
    a reply asked now is kept in its store as the step is taken (a killed trial resumes at the step in flight)."""

    store: Journal

    def reply(self, step_id: str, messages: list[dict], tools: list | None) -> tuple[dict | None, str | None, bool]:
        ...


@dataclass
class Trial:
    """What one trial is asked with: its journal id, both sides' system prompts and tools (the user's None when the
    domain gives the user none)."""

    id: str
    agent_system: str
    user_system: str
    agent_tools: list[dict[str, Any]]
    user_tools: list[dict[str, Any]] | None = None


@dataclass
class Outcome:
    """The trial's messages (tau2's trajectory shape), its termination reason, why it failed (an outage) and what a
    reply that ended it as an infrastructure error broke (an empty message, arguments that do not parse)."""

    messages: list[dict[str, Any]]
    termination_reason: str | None
    failure: str | None = None
    problem: str | None = None


def agent_system_prompt(policy: str) -> str:
    """tau2's LLMAgent system prompt: its instructions, then the domain policy."""
    return f"<instructions>\n{AGENT_INSTRUCTION}\n</instructions>\n<policy>\n{policy}\n</policy>"


def user_system_prompt(guidelines: str, scenario: str) -> str:
    """tau2's user simulator system prompt: the simulation guidelines (no persona), then the task's scenario."""
    return f"{guidelines.replace('<PERSONA_GUIDELINES>', '')}\n\n<scenario>\n{scenario}\n</scenario>".strip()


def run_trial(trial: Trial, env: Environment, agent: StepAsker, user: StepAsker,
              history: list[dict[str, Any]] | None = None) -> Outcome:
    """The trial asked step by step (each step's reply journaled by its asker); an unanswered request fails it. A
    side's tool calls are answered by the environment and go back to that side (tau2's to_role = from_role). With a
    message history (`env` already set up from it) the trial continues it as tau2's orchestrator does."""
    messages = [history_message(message) for message in history] if history else [
        {"role": "assistant", "content": FIRST_AGENT_MESSAGE}]
    to_role = _next_role(messages[-1])
    if to_role == "agent" and messages[-1]["role"] == "user" and _user_stops(messages[-1]):
        return Outcome(messages, "user_stop")
    steps, errors = 0, 0
    while True:
        side = user if to_role == "user" else agent
        view = _user_view(trial, messages) if to_role == "user" else _agent_view(trial, messages)
        tools = trial.agent_tools if to_role == "agent" else trial.user_tools
        record, error, fresh = side.reply(trial.id + STEP_MARK.format(step=steps), view, tools)
        if error is not None:
            return Outcome(messages, None, f"the {to_role} at step {steps}: {error}")
        if fresh:
            side.store.append(record)
        message, problem = _message(record, "assistant" if to_role == "agent" else "user", steps)
        if problem is not None:  # tau2 raises here (message.validate(), json.loads): its runner's infrastructure error
            return Outcome(messages, INFRASTRUCTURE_ERROR, problem=f"the {to_role} at step {steps}: {problem}")
        messages.append(message)
        steps += 1
        if to_role == "user" and _user_stops(message):
            return Outcome(messages, "user_stop")
        if message.get("tool_calls"):
            errors += _answer_calls(env, message, messages)
            try:
                env.sync()  # tau2 syncs the tools after every step (a failing call's change included)
            except Exception as error:  # noqa: BLE001 — tau2's step raises: its runner's infrastructure error
                return Outcome(messages, INFRASTRUCTURE_ERROR, problem=f"the tools' sync at step {steps}: {error}")
            steps += 1  # the environment's step
        else:
            to_role = "agent" if to_role == "user" else "user"
        if steps >= MAX_STEPS:
            return Outcome(messages, "max_steps")
        if errors >= MAX_ERRORS:
            return Outcome(messages, "too_many_errors")


def history_message(message: dict[str, Any]) -> dict[str, Any]:
    """A message of a task's history in the trajectory's shape (tau2's defaults: a call's and a tool message's
    requestor `assistant`, a tool message not an error); ValueError where tau2's validate() raises (empty)."""
    role = message.get("role")
    if role == "tool":
        return {"role": "tool", "id": message.get("id"), "content": message.get("content"),
                "requestor": message.get("requestor") or "assistant", "error": bool(message.get("error"))}
    if role not in ("assistant", "user"):
        raise ValueError(f"a message history with a {role!r} message")
    calls = [{"id": call.get("id"), "name": call.get("name"), "arguments": call.get("arguments") or {},
              "requestor": call.get("requestor") or "assistant"} for call in message.get("tool_calls") or []]
    if not calls and not (message.get("content") or "").strip():
        raise ValueError(f"a message history with an empty {role} message")
    return {"role": role, "content": message.get("content"), **({"tool_calls": calls} if calls else {})}


def _next_role(last: dict[str, Any]) -> str:
    """Whom the conversation's last message is for (tau2's to_role): a text goes to the other side, a tool message
    back to its requestor (a call left unanswered fails set_state before this)."""
    if last["role"] == "tool":
        return "agent" if last["requestor"] == "assistant" else "user"
    return "user" if last["role"] == "assistant" else "agent"


def _user_stops(message: dict[str, Any]) -> bool:
    """tau2's UserSimulator.is_stop: a stop signal in a message without tool calls."""
    return not message.get("tool_calls") and any(signal in (message["content"] or "") for signal in USER_STOP_SIGNALS)


def _message(record: dict, role: str, step: int) -> tuple[dict[str, Any], str | None]:
    """The reply as a tau2 message, and why tau2 would raise on it (no text and no calls; arguments not JSON).
    Text beside tool calls is kept, as tau2 keeps it when it does not enforce its communication protocol."""
    content = record.get("prediction") or None
    calls, problem = [], None
    for number, call in enumerate(record.get("tool_calls") or []):
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            arguments, problem = {}, f"tool call {function.get('name')!r}: arguments that do not parse"
        calls.append({"id": call.get("id") or f"call_{step}_{number}", "name": function.get("name"),
                      "arguments": arguments, "requestor": role})
    if not calls and not (content or "").strip():
        problem = "an empty message"
    message: dict[str, Any] = {"role": role, "content": content}
    if calls:
        message["tool_calls"] = calls
    return message, problem


def _answer_calls(env: Environment, message: dict[str, Any], messages: list[dict[str, Any]]) -> int:
    """Each call answered by the environment as a tool message; the number of errors."""
    errors = 0
    for call in message["tool_calls"]:
        content, error = env.respond(call["name"], call["requestor"], call["arguments"])
        errors += error
        messages.append({"role": "tool", "id": call["id"], "content": content, "requestor": call["requestor"],
                         "error": error})
    return errors


def _agent_view(trial: Trial, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation as the agent's model is asked it: its calls as OpenAI tool calls, the user as `user`."""
    view: list[dict[str, Any]] = [{"role": "system", "content": trial.agent_system}]
    for message in messages:
        if message["role"] == "tool" and message["requestor"] == "assistant":
            view.append({"role": "tool", "tool_call_id": message["id"], "content": message["content"]})
        elif message["role"] == "assistant":
            view.append({"role": "assistant", "content": message["content"], **_openai_calls(message)})
        elif message["role"] == "user" and not message.get("tool_calls"):
            view.append({"role": message["role"], "content": message["content"]})
    return view


def _user_view(trial: Trial, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation as the user simulator is asked it (tau2's flip_roles): its own messages and calls as the
    `assistant`'s, the agent's words as `user`, its tools' answers; the agent's tool traffic not shown."""
    view: list[dict[str, Any]] = [{"role": "system", "content": trial.user_system}]
    for message in messages:
        if message["role"] == "tool" and message["requestor"] == "user":
            view.append({"role": "tool", "tool_call_id": message["id"], "content": message["content"]})
        elif message["role"] == "user":
            view.append({"role": "assistant", "content": message["content"], **_openai_calls(message)})
        elif message["role"] == "assistant" and not message.get("tool_calls") and (message["content"] or "").strip():
            view.append({"role": "user", "content": message["content"]})
    return view


def _openai_calls(message: dict[str, Any]) -> dict[str, Any]:
    """A message's tool calls as OpenAI's `tool_calls` (none when it has none)."""
    if not message.get("tool_calls"):
        return {}
    return {"tool_calls": [{"id": call["id"], "type": "function",
                            "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                           for call in message["tool_calls"]]}
