"""A model's tau2 trials written as tau2 1.0.1's results file (`info`, `tasks`, `simulations`), so tau2's
`evaluate-trajs` loads and rescores them; each simulation's `reward_info` carries evalpipe's reward (none where a
trial is not judged or unscorable)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...core.errors import UsageError
from ...io.artifacts import iter_rows
from ..exporters import Documents, Exporter, register_exporter
from .conversation import MAX_ERRORS, MAX_STEPS
from .domains import domain_of, read_domain

TAU2_COMMIT = "a2c0247"  # the tau2-bench commit (1.0.1) whose results format this is
WRITTEN_FIELDS = ("role", "content", "tool_calls", "id", "requestor", "error")  # a message's fields tau2 reads


def tau2_message(message: dict[str, Any]) -> dict[str, Any]:
    """A trial's message as tau2's Message model holds it (evalpipe's messages are tau2's shape already)."""
    return {name: message[name] for name in WRITTEN_FIELDS if name in message}


def reward_info(evaluation: dict[str, Any], basis: list[str]) -> dict[str, Any] | None:
    """tau2's RewardInfo of evalpipe's evaluation: the reward, its basis and each decided component's value."""
    if evaluation.get("reward") is None:
        return None
    breakdown = {name: part["value"] for name, part in (evaluation.get("components") or {}).items()
                 if part.get("value") is not None}
    return {"reward": evaluation["reward"], "reward_basis": basis, "reward_breakdown": breakdown or None,
            "info": {"evalpipe": evaluation.get("note") or evaluation.get("status")}}


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
        tasks.append(task)
        policy = policy or read_domain(Path(row["domain_folder"])).policy
        trials_per_task = max(trials_per_task, len(trials))
        basis = (task.get("evaluation_criteria") or {}).get("reward_basis") or ["DB", "COMMUNICATE"]
        judged = {e["trial"]: e for e in evaluations.get(str(row["id"]), [])}
        for number, trial in enumerate(trials):
            index = trial.get("trial", number)
            simulations.append({
                "id": f"{task['id']}-{index}", "task_id": str(task["id"]), "timestamp": timestamp,
                "start_time": timestamp, "end_time": timestamp, "duration": 0.0,
                "termination_reason": trial["termination_reason"], "agent_cost": None, "user_cost": None,
                "reward_info": reward_info(judged[index], basis) if index in judged else None,
                "messages": [tau2_message(message) for message in trial["messages"]], "trial": index, "seed": None})
    info = {"git_commit": TAU2_COMMIT, "num_trials": trials_per_task, "max_steps": MAX_STEPS,
            "max_errors": MAX_ERRORS, "seed": None,
            "user_info": {"implementation": "user_simulator", "llm": user, "llm_args": None,
                          "global_simulation_guidelines": None},
            "agent_info": {"implementation": "llm_agent", "llm": agent, "llm_args": None},
            "environment_info": {"domain_name": domain, "policy": policy, "tool_defs": None}}
    return {"timestamp": timestamp, "info": info, "tasks": tasks, "simulations": simulations}


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
