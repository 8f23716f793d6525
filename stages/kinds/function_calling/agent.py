"""A multi-turn item asked live as bfcl-eval's multi-turn inference asks it: each user turn sent, every call of the
model's reply run on the item's instances of BFCL's mock APIs and its result sent back (a `tool` message with its
tool_call_id; in prompt mode a user message: the mode's handler says), until a reply holds no call or the turn's steps pass bfcl-eval's
MAXIMUM_STEP_LIMIT (the episode then stops). Missed functions are withheld until their turn. Every request is
journaled with its reply and the results of its calls; a rerun replays the journal, running the calls again on fresh
instances, and asks only from the first step not answered."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...chat.step_asker import Asker
from .episodes import Instances
from .modes import Mode
from .python_calls import DecodeError

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


def run_episode(episode: Episode, asker: Asker, mode: Mode) -> tuple[list[list[Any]] | None, str | None]:
    """(bfcl-eval's result: per turn, per step, the model's reply — its calls as {name: arguments} or its text), or
    (None, why a request failed); asked in `mode`."""
    instances = Instances(episode.involved, episode.initial_config,
                          "long_context" in episode.category or "composite" in episode.category)
    functions, messages, result = list(episode.functions), [], []
    for number, turn in enumerate(episode.turns):
        if str(number) in episode.missed:
            added, message = mode.added_functions(episode.missed[str(number)])
            functions, turn = functions + added, [message]
        messages += mode.opening(turn, functions) if number == 0 else turn
        steps, forced, error = _run_turn(episode.id, number, messages, mode.tools(functions), instances, asker, mode)
        if error is not None:
            return None, error
        result.append(steps)
        if forced:
            break
    return result, None


def _run_turn(item: str, number: int, messages: list[dict], tools: list | None, instances: Instances,
              asker: Asker, mode: Mode) -> tuple[list[Any], bool, str | None]:
    """(the turn's step replies, whether the step limit stopped it, why a request failed); `messages` grows."""
    steps: list[Any] = []
    for step in range(STEP_LIMIT + 1):
        step_id = item + STEP_MARK.format(turn=number, step=step)
        record, error, fresh = asker.reply(step_id, messages, tools)
        if error is not None:
            return steps, False, f"turn {number} step {step}: {error}"
        response, calls = _decoded(record, mode)
        steps.append(response)
        messages.append(_assistant_message(record))
        results = [instances.run(call) for call in calls]
        if fresh:
            asker.store.append({**record, "tool_results": results})
        if not calls:
            return steps, False, None
        messages += mode.results_messages(record, calls, results)
    return steps, True, None


def _decoded(record: dict, mode: Mode) -> tuple[Any, list[str]]:
    """(the step's reply as bfcl-eval records it, its calls as texts to run — none when the reply does not decode
    or holds no call, which ends the turn)."""
    response = mode.step_reply(record)
    try:
        texts = mode.execution_strings(response)
    except (DecodeError, RecursionError, ValueError, TypeError, AttributeError):
        return response, []
    return response, [] if not texts or (len(texts) == 1 and not texts[0]) else texts


def _assistant_message(record: dict) -> dict[str, Any]:
    """The reply as it goes back into the conversation (without its reasoning)."""
    calls = record.get("tool_calls")
    if calls:
        return {"role": "assistant", "content": record["prediction"] or None, "tool_calls": calls}
    return {"role": "assistant", "content": record["prediction"]}
