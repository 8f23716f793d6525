"""A multi-turn item asked live as bfcl-eval's multi-turn inference asks it: each user turn sent, every call of the
model's reply run on the item's instances of BFCL's mock APIs and its result sent back (a `tool` message with its
tool_call_id; in prompt mode a user message), until a reply holds no call or the turn's steps pass bfcl-eval's
MAXIMUM_STEP_LIMIT (the episode then stops). Missed functions are withheld until their turn. Every request is
journaled with its reply and the results of its calls; a rerun replays the journal, running the calls again on fresh
instances, and asks only from the first step not answered."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...chat.step_asker import Asker
from .episodes import Instances, execution_strings
from .prompting import added_functions_message, results_message, with_system_prompt
from .python_calls import DecodeError
from .tools import openai_tools

STEP_LIMIT = 20  # bfcl-eval's MAXIMUM_STEP_LIMIT: a turn whose executed steps exceed it ends the episode
STEP_MARK = "#turn{turn}#step{step}"  # a request's journal id: <item id>#turn<t>#step<s>, both from 0


@dataclass
class Episode:
    """A multi-turn item as it is asked: its turns of messages, the docs offered from the start and those withheld
    until their turn (missed functions)."""

    id: str
    category: str
    turns: list[list[dict[str, Any]]]
    functions: list[dict[str, Any]]
    missed: dict[str, list[dict[str, Any]]]
    involved: list[str]
    initial_config: dict[str, Any]


def run_episode(episode: Episode, asker: Asker) -> tuple[list[list[Any]] | None, str | None]:
    """(bfcl-eval's result: per turn, per step, the model's reply — its calls as {name: arguments} or its text), or
    (None, why a request failed)."""
    instances = Instances(episode.involved, episode.initial_config,
                          "long_context" in episode.category or "composite" in episode.category)
    functions, messages, result = list(episode.functions), [], []
    for number, turn in enumerate(episode.turns):
        if str(number) in episode.missed:
            functions += [] if asker.prompt_mode else episode.missed[str(number)]
            turn = [added_functions_message(episode.missed[str(number)], asker.prompt_mode)]
        messages += with_system_prompt(turn, functions) if asker.prompt_mode and number == 0 else turn
        tools = None if asker.prompt_mode or not functions else openai_tools(functions)
        steps, forced, error = _run_turn(episode.id, number, messages, tools, instances, asker)
        if error is not None:
            return None, error
        result.append(steps)
        if forced:
            break
    return result, None


def _run_turn(item: str, number: int, messages: list[dict], tools: list | None, instances: Instances,
              asker: Asker) -> tuple[list[Any], bool, str | None]:
    """(the turn's step replies, whether the step limit stopped it, why a request failed); `messages` grows."""
    steps: list[Any] = []
    for step in range(STEP_LIMIT + 1):
        step_id = item + STEP_MARK.format(turn=number, step=step)
        record, error, fresh = asker.reply(step_id, messages, tools)
        if error is not None:
            return steps, False, f"turn {number} step {step}: {error}"
        response, calls = _decoded(record, asker.prompt_mode)
        steps.append(response)
        messages.append(_assistant_message(record))
        results = [instances.run(call) for call in calls]
        if fresh:
            asker.store.append({**record, "tool_results": results})
        if not calls:
            return steps, False, None
        messages += [results_message(calls, results)] if asker.prompt_mode else [
            {"role": "tool", "content": result, "tool_call_id": call.get("id")}
            for result, call in zip(results, record["tool_calls"])]
    return steps, True, None


def _decoded(record: dict, prompt_mode: bool) -> tuple[Any, list[str]]:
    """(the step's reply as bfcl-eval records it, its calls as texts to run — none when the reply does not decode
    or holds no call, which ends the turn)."""
    calls = record.get("tool_calls")
    response = record["prediction"] if prompt_mode or not calls else [_name_and_arguments(call) for call in calls]
    try:
        texts = execution_strings(response, not prompt_mode)
    except (DecodeError, RecursionError, ValueError, TypeError, AttributeError):
        return response, []
    return response, [] if not texts or (len(texts) == 1 and not texts[0]) else texts


def _name_and_arguments(call: Any) -> Any:
    """An OpenAI tool call as {name: "<JSON arguments>"} (as bfcl-eval records it); anything else as it came."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return call
    return {function["name"]: function.get("arguments")}


def _assistant_message(record: dict) -> dict[str, Any]:
    """The reply as it goes back into the conversation (without its reasoning)."""
    calls = record.get("tool_calls")
    if calls:
        return {"role": "assistant", "content": record["prediction"] or None, "tool_calls": calls}
    return {"role": "assistant", "content": record["prediction"]}
