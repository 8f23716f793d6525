"""Trajectories the tau2 tests score: a task's gold actions made as an agent's (or user's) calls, answered by
evalpipe's tools, then the agent's closing words."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from stages.kinds.tau2.domains import DomainData
from stages.kinds.tau2.environment import Environment

# the shared data beside the checkout, or tau2's own TAU2_DATA_DIR (its data/ folder) when set
DOMAINS = (Path(os.environ["TAU2_DATA_DIR"]) if os.environ.get("TAU2_DATA_DIR")
           else Path(__file__).resolve().parents[4].parent / "shared" / "data" / "real") / "tau2" / "domains"


def calls_trajectory(task: dict[str, Any], data: DomainData, actions: list[dict[str, Any]],
                     closing: str = "Done.") -> list[dict[str, Any]]:
    """The task's initial history, then each action as a call and its tool message, then `closing`."""
    initial = task.get("initial_state") or {}
    env = Environment(data)
    env.set_state(initial, initial.get("message_history") or [])
    messages = list(initial.get("message_history") or [])
    for number, action in enumerate(actions):
        requestor = action.get("requestor", "assistant")
        call = {"id": f"call_{number}", "name": action["name"], "arguments": action["arguments"],
                "requestor": requestor}
        content, error = env.respond(action["name"], requestor, action["arguments"])
        messages.append({"role": requestor, "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "id": call["id"], "content": content, "requestor": requestor,
                         "error": error})
    messages.append({"role": "assistant", "content": closing})
    return messages


def answer_digest(content: Any) -> str:
    """A tool answer's sha256 as the reference fixtures record it: of its JSON with sorted keys, else of its text."""
    try:
        canonical = json.dumps(json.loads(content), sort_keys=True)
    except (TypeError, ValueError):
        canonical = str(content)
    return hashlib.sha256(canonical.encode()).hexdigest()
