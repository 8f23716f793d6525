"""Writes stages/kinds/tau2/results_fields.json: every field tau2 1.0.1's results models write (Results.save's
model_dump_json), in its order, with the value it holds when a run leaves it unset ("<required>": a field the
model requires), and for the tasks every model a Task holds — what `evalpipe export tau2` fills so its file is the one
tau2 1.0.1 writes. Made from tau2's own models (instantiated with their required fields only, or their field
defaults):

    /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_results_fields.py
"""
from __future__ import annotations

import json
import types
import typing
from pathlib import Path

from pydantic import BaseModel, TypeAdapter
from tau2.data_model.message import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage
from tau2.data_model.simulation import AgentInfo, EnvironmentInfo, Info, RewardInfo, SimulationRun, UserInfo
from tau2.data_model.tasks import Task

OUT = Path(__file__).resolve().parents[4] / "stages" / "kinds" / "tau2" / "results_fields.json"
UNSET = "<required>"


def fields(instance) -> dict:
    """The instance's JSON dump, the fields its model requires (and a default factory's timestamp) marked unset."""
    required = {name for name, field in type(instance).model_fields.items() if field.is_required()}
    return {name: UNSET if name in required or name == "timestamp" else value
            for name, value in instance.model_dump(mode="json").items()}


def nested(annotation) -> tuple[str, type[BaseModel]] | None:
    """("one" | "list", the model) a field holds, looking through Optional and unions with one model; else None."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "one", annotation
    if origin is list and args and nested(args[0]) and nested(args[0])[0] == "one":
        return "list", nested(args[0])[1]
    if origin in (typing.Union, types.UnionType):
        found = [n for n in map(nested, args) if n is not None]
        return found[0] if len(found) == 1 else None
    return None


def task_models(model: type[BaseModel], into: dict) -> dict:
    """Each model a task holds (not messages: their own tables): its fields with their unset values, and which
    field holds which model."""
    if model.__name__ in into:
        return into
    table, holds = {}, {}
    into[model.__name__] = {"fields": table, "holds": holds}
    for name, field in model.model_fields.items():
        table[name] = UNSET if field.is_required() else TypeAdapter(field.annotation).dump_python(
            field.get_default(call_default_factory=True), mode="json")
        held = nested(field.annotation)
        if held is not None and name != "message_history":
            holds[name] = [held[0], held[1].__name__]
            task_models(held[1], into)
    return into


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
    tables["task_models"] = task_models(Task, {})
    OUT.write_text(json.dumps({"tool": "tau2 1.0.1 (a2c0247) data_model", "unset": UNSET, **tables}, indent=1) + "\n")


if __name__ == "__main__":
    main()
