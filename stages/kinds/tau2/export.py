"""A model's tau2 trials written as tau2 1.0.1's results file (`info`, `tasks`, `simulations`, every field its
models write: results_fields.json), so tau2's `evaluate-trajs` rescores them and `evalpipe import tau2` reads them
back; each simulation's `reward_info` carries evalpipe's reward (none where a trial is not judged or unscorable)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ...core.errors import UsageError
from ...io.artifacts import iter_rows
from ..exporters import Documents, Exporter, register_exporter
from .conversation import MAX_ERRORS, MAX_STEPS
from .domains import domain_of, read_domain

TAU2_COMMIT = "a2c0247"  # the tau2-bench commit (1.0.1) whose results format this is


@cache
def results_fields() -> dict[str, Any]:
    """tau2 1.0.1's results models' fields in their order with their unset values (make_tau2_results_fields.py)."""
    return json.loads(Path(__file__).with_name("results_fields.json").read_text(encoding="utf-8"))


def as_written(model: str | dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """`given` as tau2's model (a results_fields.json table, or its name) writes it: each of its fields in its
    order, those `given` lacks at their default (ValueError for a required one)."""
    table = results_fields()[model] if isinstance(model, str) else model
    missing = [name for name, value in table.items() if value == results_fields()["unset"] and name not in given]
    if missing:
        raise ValueError(f"tau2's results file needs {', '.join(missing)}")
    return {name: given.get(name, default) for name, default in table.items()}


def tau2_message(message: dict[str, Any], timestamp: str) -> dict[str, Any]:
    """A trial's message as tau2's Message model writes it (evalpipe's messages are tau2's shape already); the run's
    timestamp where the message has none."""
    given = {"timestamp": timestamp, **message}
    if given.get("tool_calls"):
        given["tool_calls"] = [as_written("tool_call", call) for call in given["tool_calls"]]
    return as_written(results_fields()["messages"][message["role"]], given)


def tau2_task(model: str, given: Any, timestamp: str) -> Any:
    """A task (or the part of it `model` names) as tau2's Task model writes it: its fields in order, unset ones at
    their defaults, those tau2's models do not have left out; a value that is not an object (an instructions text)
    as it is."""
    if not isinstance(given, dict):
        return given
    known = results_fields()["task_models"][model]
    written = {name: given.get(name, default) for name, default in known["fields"].items()
               if name in given or default != results_fields()["unset"]}
    for name, (shape, held) in known["holds"].items():
        if shape == "one":
            written[name] = tau2_task(held, written[name], timestamp)
        elif isinstance(written[name], list):
            written[name] = [tau2_task(held, item, timestamp) for item in written[name]]
    history = written.get("message_history")
    if model == "InitialState" and isinstance(history, list):
        written["message_history"] = [tau2_message(message, timestamp) for message in history]
    return written


def reward_info(evaluation: dict[str, Any], basis: list[str]) -> dict[str, Any] | None:
    """tau2's RewardInfo of evalpipe's evaluation: the reward, its basis and each decided component's value."""
    if evaluation.get("reward") is None:
        return None
    breakdown = {name: part["value"] for name, part in (evaluation.get("components") or {}).items()
                 if part.get("value") is not None}
    return as_written("reward_info", {"reward": evaluation["reward"], "reward_basis": basis,
                                      "reward_breakdown": breakdown or None,
                                      "info": {"evalpipe": evaluation.get("note") or evaluation.get("status")}})


def tau2_results(rows: list[dict[str, Any]], evaluations: dict[str, list[dict[str, Any]]], domain: str,
                 agent: str, user: str | None, timestamp: str) -> dict[str, Any]:
    """The results file of B3 rows (id, task, domain_folder, trials) and B4's evaluations per task id."""
    tasks, simulations = [], []
    policy = ""
    trials_per_task = 0
    for row in rows:
        task = json.loads(row["task"])
        trials = json.loads(row["trials"])
        if not trials:
            continue
        tasks.append(tau2_task("Task", task, timestamp))
        policy = policy or read_domain(Path(row["domain_folder"])).policy
        trials_per_task = max(trials_per_task, len(trials))
        basis = (task.get("evaluation_criteria") or {}).get("reward_basis") or ["DB", "COMMUNICATE"]
        judged = {e["trial"]: e for e in evaluations.get(str(row["id"]), [])}
        for number, trial in enumerate(trials):
            index = trial.get("trial", number)
            simulations.append(as_written("simulation", {
                "id": f"{task['id']}-{index}", "task_id": str(task["id"]), "timestamp": timestamp,
                "start_time": timestamp, "end_time": timestamp, "duration": 0.0,
                "termination_reason": trial["termination_reason"],
                "reward_info": reward_info(judged[index], basis) if index in judged else None,
                "messages": [tau2_message(message, timestamp) for message in trial["messages"]], "trial": index}))
    info = as_written("info", {
        "git_commit": TAU2_COMMIT, "num_trials": trials_per_task, "max_steps": MAX_STEPS, "max_errors": MAX_ERRORS,
        "user_info": as_written("user_info", {"implementation": "user_simulator", "llm": user}),
        "agent_info": as_written("agent_info", {"implementation": "llm_agent", "llm": agent}),
        "environment_info": as_written("environment_info", {"domain_name": domain, "policy": policy})})
    return {"timestamp": timestamp, "info": info, "tasks": tasks, "simulations": simulations,
            "simulation_index": None}


def export_tau2_run(documents: Documents, model: str) -> tuple[dict[str, Any], str]:
    """One model's B2–B4 artifacts of a tau2 run as tau2's results file, and a line saying what it holds."""
    rows = [row for path, _ in documents["B3"] for row in iter_rows(path)]
    if not rows:
        raise UsageError(f"{model}: no tasks to export")
    evaluations = {str(row["id"]): json.loads(row["evaluations"]) for path, _ in documents["B4"]
                   for row in iter_rows(path)}
    user = (documents["B2"][0][1]["header"]["parameters"].get("user") or {}).get("models") or [None]
    b4_header = documents["B4"][0][1]["header"]
    domain = domain_of(Path(rows[0]["domain_folder"]), b4_header["parameters"].get("domain") or "").name
    results = tau2_results(rows, evaluations, domain, model, user[0], b4_header.get("created_at") or "")
    return results, f"{len(results['simulations'])} trials of {len(results['tasks'])} tasks written as tau2's results"


register_exporter("tau2", Exporter(kind="tau2", file_name="tau2_results.json", write=export_tau2_run))
