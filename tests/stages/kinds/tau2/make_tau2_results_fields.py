"""Writes stages/kinds/tau2/results_fields.json: every field tau2 1.0.1's results models write (Results.save's
model_dump_json), in its order, with the value it holds when a run leaves it unset ("<required>": a field the
model requires) — what `evalpipe export tau2` fills so its file is the one tau2 1.0.1 writes. Made by instantiating
tau2's own models with their required fields only:

    /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_results_fields.py
"""
from __future__ import annotations

import json
from pathlib import Path

from tau2.data_model.message import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage
from tau2.data_model.simulation import (AgentInfo, EnvironmentInfo, Info, RewardInfo, SimulationRun, UserInfo)

OUT = Path(__file__).resolve().parents[4] / "stages" / "kinds" / "tau2" / "results_fields.json"
UNSET = "<required>"


def fields(instance) -> dict:
    """The instance's JSON dump, the fields its model requires (and a default factory's timestamp) marked unset."""
    required = {name for name, field in type(instance).model_fields.items() if field.is_required()}
    return {name: UNSET if name in required or name == "timestamp" else value
            for name, value in instance.model_dump(mode="json").items()}


def main() -> None:
    env = {"domain_name": "mock", "policy": ""}
    user, agent = {"implementation": "user_simulator"}, {"implementation": "llm_agent"}
    info = {"git_commit": "", "num_trials": 1, "max_steps": 1, "max_errors": 1, "user_info": UserInfo(**user),
            "agent_info": AgentInfo(**agent), "environment_info": EnvironmentInfo(**env)}
    simulation = {"id": "", "task_id": "", "start_time": "", "end_time": "", "duration": 0.0,
                  "termination_reason": "user_stop"}
    tables = {
        "info": fields(Info(**info)), "user_info": fields(UserInfo(**user)),
        "agent_info": fields(AgentInfo(**agent)),
        "environment_info": fields(EnvironmentInfo(**env)),
        "simulation": fields(SimulationRun(**simulation)),
        "reward_info": fields(RewardInfo(reward=1.0)),
        "tool_call": fields(ToolCall(name="f", arguments={})),
        "messages": {
            "system": fields(SystemMessage(role="system")),
            "assistant": fields(AssistantMessage(role="assistant", content=None)),
            "user": fields(UserMessage(role="user", content=None)),
            "tool": fields(ToolMessage(id="", role="tool"))}}
    OUT.write_text(json.dumps({"tool": "tau2 1.0.1 (a2c0247) data_model", "unset": UNSET, **tables}, indent=1) + "\n")


if __name__ == "__main__":
    main()
