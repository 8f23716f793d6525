"""One trial scored as tau2 1.0.1's evaluate_simulation (half duplex): 0 unless the agent or the user ended it, else
the product of the task's reward_basis components — DB, ENV_ASSERTION, ACTION, COMMUNICATE, NL_ASSERTION. A task
whose NL assertions decide the reward (every other component 1) is `not judged` until the [judge]'s verdict is
given (nl_assertions.py asks it)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .domains import DomainData
from .environment import Environment, TrajectoryError, initialization_refused

ENDED = frozenset({"agent_stop", "user_stop"})
REWARD_TYPES = ("DB", "ENV_ASSERTION", "ACTION", "NL_ASSERTION", "COMMUNICATE")
DEFAULT_BASIS = ("DB", "COMMUNICATE")
SCORED, NOT_JUDGED, UNSCORABLE = "scored", "not judged", "unscorable"


@dataclass
class Evaluation:
    """A trial's reward (None when not judged or unscorable), each component's value and reason, and notes."""

    status: str
    reward: float | None
    components: dict[str, dict[str, Any]] = field(default_factory=dict)
    note: str = ""
    db_difference: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reward": self.reward, "components": self.components, "note": self.note,
                "db_difference": self.db_difference}


def evaluate(task: dict[str, Any], data: DomainData, messages: list[dict[str, Any]],
             termination_reason: str, judged: dict[str, Any] | None = None) -> Evaluation:
    """The trial's evaluation, as tau2's evaluate_simulation with evaluation type ALL and lenient replay; `judged` is
    the judge's NL_ASSERTION component for the trial, when it was asked."""
    if termination_reason not in ENDED:
        return Evaluation(SCORED, 0.0, note=f"terminated prematurely: {termination_reason}")
    criteria = task.get("evaluation_criteria")
    if criteria is None:
        return Evaluation(SCORED, 1.0, note="no evaluation criteria")
    basis = criteria.get("reward_basis", list(DEFAULT_BASIS))
    try:
        components, difference, note = _environment(task, criteria, data, messages)
    except (TrajectoryError, ValueError, TypeError, KeyError) as error:
        return Evaluation(UNSCORABLE, None, note=f"cannot evaluate (tau2 fails too): {error}")
    components["ACTION"] = _actions(criteria.get("actions"), messages)
    components["COMMUNICATE"] = _communicated(criteria.get("communicate_info"), messages)
    assertions = criteria.get("nl_assertions")
    components["NL_ASSERTION"] = ({"value": 1.0, "reason": "no nl_assertions to evaluate"} if not assertions else
                                  judged or {"value": None, "reason": f"{len(assertions)} NL assertions need a judge"})
    counted = {name: components[name] for name in REWARD_TYPES if name in basis}
    values = [part["value"] for part in counted.values()]
    if any(value == 0.0 for value in values):
        zero = ", ".join(name for name, part in counted.items() if part["value"] == 0.0)
        return Evaluation(SCORED, 0.0, counted, f"0 by {zero}" + (f"; {note}" if note else ""), difference)
    if any(value is None for value in values):
        return Evaluation(NOT_JUDGED, None, counted, note, difference)
    return Evaluation(SCORED, 1.0, counted, note, difference)


def _environment(task: dict[str, Any], criteria: dict[str, Any], data: DomainData,
                 messages: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], list[str], str]:
    """DB and ENV_ASSERTION: the trajectory's calls replayed on a fresh database against the gold actions' database;
    the assertions run on the replayed one."""
    actions, assertions = criteria.get("actions"), criteria.get("env_assertions")
    if actions is None and assertions is None:
        return ({"DB": {"value": 1.0, "reason": "no expected actions or env assertions"},
                 "ENV_ASSERTION": {"value": 1.0, "reason": "no env assertions"}}, [], "")
    initial_state = task.get("initial_state") or {}
    refused = initialization_refused(data, initial_state)
    if refused is not None:
        raise ValueError(refused)
    predicted = Environment(data)
    replay = predicted.set_state(initial_state, messages)
    gold = Environment(data)
    gold.set_state(initial_state, initial_state.get("message_history") or [])
    for action in actions or []:
        gold.apply(action["name"], action.get("requestor", "assistant"), action.get("arguments", {}))
    difference = predicted.db.differences(gold.db)
    if predicted.user_db is not None and gold.user_db is not None:
        difference += [f"user {place}" for place in predicted.user_db.differences(gold.user_db)]
    db = ({"value": 1.0, "reason": "the database ends as the gold actions leave it"} if not difference else
          {"value": 0.0, "reason": "the database differs from the gold actions' at " + ", ".join(difference)})
    failed = []
    for assertion in assertions or []:
        if not predicted.assertion_met(assertion):
            failed.append(assertion.get("message") or f"{assertion['func_name']}({assertion.get('arguments', {})})")
    env = ({"value": 1.0, "reason": f"{len(assertions or [])} env assertions met"} if not failed else
           {"value": 0.0, "reason": "not met: " + "; ".join(failed)})
    notes = []
    if replay.differing:
        notes.append(f"replayed calls that answered otherwise than recorded: {', '.join(replay.differing[:3])}")
    if replay.unknown_tools:
        notes.append(f"unknown tools skipped: {', '.join(sorted(set(replay.unknown_tools)))}")
    return {"DB": db, "ENV_ASSERTION": env}, difference, "; ".join(notes)


def tool_calls(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every tool call the agent and the user made, in order."""
    return [call for message in messages if message.get("role") in ("assistant", "user")
            for call in message.get("tool_calls") or []]


def _actions(actions: list[dict[str, Any]] | None, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """ACTION: each gold action matched by some call (its compare_args, else every argument the call gives)."""
    if not actions:
        return {"value": 1.0, "reason": "no actions to evaluate"}
    calls = tool_calls(messages)
    missing = [action.get("action_id") or action["name"] for action in actions
               if not any(_matches(action, call) for call in calls)]
    if missing:
        return {"value": 0.0, "reason": "no call matches " + ", ".join(map(str, missing))}
    return {"value": 1.0, "reason": f"all {len(actions)} actions matched"}


def _matches(action: dict[str, Any], call: dict[str, Any]) -> bool:
    if action["name"] != call.get("name"):
        return False
    arguments = call.get("arguments") or {}
    names = action.get("compare_args")
    names = list(arguments) if names is None else names
    if not names:
        return True
    wanted = action.get("arguments") or {}
    return {k: v for k, v in arguments.items() if k in names} == {k: v for k, v in wanted.items() if k in names}


def _communicated(infos: list[str] | None, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """COMMUNICATE: each string in some agent message, lower-cased, the message's commas dropped (tau2's rule)."""
    if not infos:
        return {"value": 1.0, "reason": "no communicate_info to evaluate"}
    texts = [message["content"].lower().replace(",", "") for message in messages
             if message.get("role") == "assistant" and isinstance(message.get("content"), str)
             and message["content"].strip()]
    missing = [info for info in infos if not any(info.lower() in text for text in texts)]
    if missing:
        return {"value": 0.0, "reason": "not said: " + "; ".join(missing)}
    return {"value": 1.0, "reason": f"all {len(infos)} said"}
