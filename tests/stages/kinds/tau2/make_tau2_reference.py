"""Writes what tau2-bench 1.0.1 itself says of trajectories the tau2 tests score (not part of the suite).

    ~/.pyenv/versions/3.12.1/bin/python -m venv /work/tau2-venv
    git -C <tau2-bench mirror> ls-tree / show a2c0247 src pyproject.toml → /work/tau2-src
    /work/tau2-venv/bin/pip install /work/tau2-src
    mkdir -p /work/tau2-data/tau2/domains; ln -s ../shared/data/real/tau2/domains/{retail,mock} there
    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_reference.py

For every retail and mock task: its gold actions made as the agent's (or user's) calls — as they are, with the last
state-changing one dropped, with one argument changed (retail), after failing calls (an unknown tool, a missing and
an unexpected argument, an id not there) with the last write repeated — each answered by tau2's own environment, and
one trial ended by max_steps. tau2_reference/reference.jsonl keeps per trajectory the calls, the sha256 of each tool
answer tau2 gave (its JSON with sorted keys, so the test compares evalpipe's answers), tau2's reward from
evaluate_simulation (evaluation type ALL, lenient replay as evaluate-trajs) — null where the task's NL assertions
would ask an LLM — and its ENV-only reward; and tau2's pass_hat_k on a grid of (trials, successes, k).

It also writes two results files as tau2 writes them (Results.save): results_mock.json — every mock task, two
trials (the gold calls; then the gold calls with the last write dropped, or again the gold calls where tau2's evaluator
fails on the dropped ones), and one more trial of create_task_1 ended
by an infrastructure error — and results_retail.json — three retail tasks, two trials each (gold; gold then ended by
max_steps) — each trial's reward_info from tau2's evaluate_simulation, except mock update_task_1's trial 1, whose
recorded reward is set to 1.0 on purpose (tau2 gives 0) so the import names a disagreement; results.json beside
them says tau2's pass^k (compute_metrics) of each file after evaluate-trajs' rescoring. (tau2 stamps each message
with the time: a new run rewrites those two files with other timestamps and nothing else.)"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
from pathlib import Path

from tau2.data_model.message import AssistantMessage, ToolCall, UserMessage
from tau2.data_model.simulation import AgentInfo, Info, Results, RewardInfo, SimulationRun, TerminationReason, UserInfo
from tau2.data_model.tasks import Task
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.metrics.agent_metrics import compute_metrics, pass_hat_k
from tau2.registry import registry
from tau2.scripts.evaluate_trajectories import compute_simulation_rewards

HERE = Path(__file__).resolve().parent
DOMAINS = Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains"  # tau2's own data folder: where it reads them too
OUT = HERE / "tau2_reference"


def changed(actions: list[dict], writes: list[int]) -> list[dict] | None:
    """The actions with one argument of the last write changed (the rule the evalpipe test applies too)."""
    if not writes:
        return None
    actions = copy.deepcopy(actions)
    arguments = actions[writes[-1]]["arguments"]
    if "reason" in arguments:
        arguments["reason"] = "ordered by mistake" if arguments["reason"] != "ordered by mistake" else "no longer needed"
    elif "address1" in arguments:
        arguments["address1"] += " Annex"
    elif "item_ids" in arguments and len(arguments["item_ids"]) > 1:
        arguments["item_ids"] = arguments["item_ids"][:-1]
        if "new_item_ids" in arguments:
            arguments["new_item_ids"] = arguments["new_item_ids"][:-1]
    else:
        return None
    return actions


def noisy(actions: list[dict], writes: list[int]) -> list[dict]:
    """The gold calls after failing ones: a tool the domain lacks, the last write without its first argument and
    with an argument it does not take, a read of an id that is not there; then the last write made twice."""
    last = actions[writes[-1]]
    first = next(iter(last["arguments"]), None)
    wrong = [{"name": "delete_everything", "arguments": {}},
             {"name": last["name"], "arguments": {k: v for k, v in last["arguments"].items() if k != first}},
             {"name": last["name"], "arguments": {**last["arguments"], "note": "please"}}]
    read = next((a for a in actions if not a["arguments"] or isinstance(next(iter(a["arguments"].values())), str)),
                None)
    if read is not None and read["arguments"]:
        wrong.append({"name": read["name"], "arguments": {**read["arguments"],
                                                          next(iter(read["arguments"])): "nothing-here"}})
    return [*wrong, *actions, last]


def digest(content: str | None) -> str:
    try:
        canonical = json.dumps(json.loads(content), sort_keys=True)
    except (TypeError, ValueError):
        canonical = str(content)
    return hashlib.sha256(canonical.encode()).hexdigest()


def trajectory(domain: str, task: Task, actions: list[dict], closing: str) -> tuple[list, list[str], list[bool]]:
    env = registry.get_env_constructor(domain)()
    initial = task.initial_state
    history = list(initial.message_history or []) if initial else []
    env.set_state(initial.initialization_data if initial else None,
                  initial.initialization_actions if initial else None, history)
    messages, digests, errors = list(history), [], []
    for number, action in enumerate(actions):
        requestor = action.get("requestor", "assistant")
        call = ToolCall(id=f"call_{number}", name=action["name"], arguments=action["arguments"], requestor=requestor)
        kind = AssistantMessage if requestor == "assistant" else UserMessage
        messages.append(kind(role=requestor, content=None, tool_calls=[call]))
        answer = env.get_response(call)
        messages.append(answer)
        digests.append(digest(answer.content))
        errors.append(answer.error)
    messages.append(AssistantMessage(role="assistant", content=closing))
    return messages, digests, errors


def score(domain: str, task: Task, messages: list, reason: TerminationReason, kind: EvaluationType) -> float | str:
    """tau2's reward, or "error: …" where its evaluator raises (an assertion's function failing)."""
    run = SimulationRun(id="x", task_id=task.id, start_time="", end_time="", duration=0.0, termination_reason=reason,
                        messages=messages, trial=0, timestamp="", agent_cost=0.0, user_cost=0.0, reward_info=None)
    try:
        return evaluate_simulation(run, task, kind, solo_mode=False, domain=domain, strict_replay=False).reward
    except ValueError as error:
        return f"error: {error}"


def results_file(domain: str, task_ids: list[str], second: str) -> Results:
    """A tau2 results file of `task_ids`, two trials each: the gold calls, then `second` ("dropped": the last write
    left out; "max_steps": gold, ended by the step limit)."""
    env = registry.get_env_constructor(domain)()
    kits = [kit for kit in (env.tools, env.user_tools) if kit is not None]
    tasks = [Task.model_validate(raw) for raw in json.loads((DOMAINS / domain / "tasks.json").read_text())
             if raw["id"] in task_ids]
    simulations = []
    for task in tasks:
        raw = task.model_dump(mode="json")["evaluation_criteria"]
        actions = raw.get("actions") or []
        closing = " ".join(raw.get("communicate_info") or []) or "Done."
        writes = [i for i, a in enumerate(actions)
                  if any(k.has_tool(a["name"]) and k.tool_mutates_state(a["name"]) for k in kits)]
        for trial in (0, 1):
            calls, reason = actions, TerminationReason.AGENT_STOP
            if trial == 1 and second == "dropped" and writes:
                calls = [a for i, a in enumerate(actions) if i != writes[-1]]
            if trial == 1 and second == "max_steps":
                reason = TerminationReason.MAX_STEPS
            messages, _, _ = trajectory(domain, task, calls, closing)
            run = SimulationRun(id=f"{task.id}-{trial}", task_id=task.id, trial=trial, start_time="", end_time="",
                                duration=0.0, termination_reason=reason, messages=messages, timestamp="",
                                agent_cost=0.0, user_cost=0.0, reward_info=None, seed=trial)
            try:
                run.reward_info = evaluate_simulation(run, task, EvaluationType.ALL, solo_mode=False, domain=domain,
                                                      strict_replay=False)
            except ValueError:  # tau2's evaluator fails on it (an assertion's task missing): the gold calls instead
                run.messages = trajectory(domain, task, actions, closing)[0]
                run.reward_info = evaluate_simulation(run, task, EvaluationType.ALL, solo_mode=False, domain=domain,
                                                      strict_replay=False)
            if domain == "mock" and task.id == "update_task_1" and trial == 1:
                run.reward_info = RewardInfo(reward=1.0)
            simulations.append(run)
        if domain == "mock" and task.id == "create_task_1":
            simulations.append(SimulationRun(
                id="create_task_1-2", task_id=task.id, trial=2, start_time="", end_time="", duration=0.0,
                termination_reason=TerminationReason.INFRASTRUCTURE_ERROR, messages=[], timestamp="",
                agent_cost=0.0, user_cost=0.0, reward_info=RewardInfo(reward=0.0), seed=2))
    info = Info(git_commit="a2c0247", num_trials=2, max_steps=200, max_errors=10,
                user_info=UserInfo(implementation="user_simulator", llm="scripted-user"),
                agent_info=AgentInfo(implementation="llm_agent", llm="scripted-agent"),
                environment_info=env.get_info())
    return Results(timestamp="2026-11-28T00:00:00", info=info, tasks=tasks, simulations=simulations)


def write_results_files() -> None:
    figures = {}
    for domain, task_ids, second in (("mock", None, "dropped"), ("retail", ["1", "5", "20"], "max_steps")):
        if task_ids is None:
            task_ids = [raw["id"] for raw in json.loads((DOMAINS / domain / "tasks.json").read_text())]
        results = results_file(domain, task_ids, second)
        results.save(OUT / f"results_{domain}.json")
        rescored = compute_simulation_rewards(Results.load(OUT / f"results_{domain}.json"))
        metrics = compute_metrics(rescored)
        figures[domain] = {"pass_hat_k": {str(k): v for k, v in metrics.pass_hat_ks.items()},
                           "avg_reward": metrics.avg_reward, "infra_error_count": metrics.infra_error_count,
                           "rewards": {f"{sim.task_id}/{sim.trial}": sim.reward_info.reward
                                       for sim in rescored.simulations}}
    (OUT / "results.json").write_text(json.dumps(figures, indent=1) + "\n")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    lines = []
    for domain in ("retail", "mock"):
        env = registry.get_env_constructor(domain)()
        kits = [kit for kit in (env.tools, env.user_tools) if kit is not None]
        writes_of = lambda name: any(k.has_tool(name) and k.tool_mutates_state(name) for k in kits)  # noqa: E731
        for raw in json.loads((DOMAINS / domain / "tasks.json").read_text()):
            task = Task.model_validate(raw)
            criteria = raw["evaluation_criteria"]
            actions = criteria.get("actions") or []
            closing = " ".join(criteria.get("communicate_info") or []) or "Done."
            needs_judge = bool(criteria.get("nl_assertions")) and "NL_ASSERTION" in criteria.get(
                "reward_basis", ["DB", "COMMUNICATE"])
            writes = [i for i, a in enumerate(actions) if writes_of(a["name"])]
            variants = {"gold": actions}
            if writes:
                variants["dropped"] = [a for i, a in enumerate(actions) if i != writes[-1]]
                if domain == "retail":
                    variants["changed"] = changed(actions, writes)
                variants["noisy"] = noisy(actions, writes)
            for variant, calls in variants.items():
                if calls is None:
                    continue
                messages, digests, errors = trajectory(domain, task, calls, closing)
                reasons = [TerminationReason.AGENT_STOP] + ([TerminationReason.MAX_STEPS] if variant == "gold" else [])
                for reason in reasons:
                    lines.append({"domain": domain, "task": task.id, "variant": variant, "calls": calls,
                                  "closing": closing, "termination_reason": reason.value, "answers": digests,
                                  "errors": errors,
                                  "reward": None if needs_judge and reason == TerminationReason.AGENT_STOP else
                                  score(domain, task, messages, reason, EvaluationType.ALL),
                                  "env_reward": score(domain, task, messages, reason, EvaluationType.ENV)})
    (OUT / "reference.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    grid = [{"trials": n, "successes": s, "k": k, "pass_hat_k": pass_hat_k(n, s, k)}
            for n in range(1, 6) for s in range(n + 1) for k in range(1, n + 1)]
    (OUT / "pass_hat_k.json").write_text(json.dumps(grid, indent=0) + "\n")
    write_results_files()
    print(f"{len(lines)} trajectories, {len(grid)} pass^k values", file=sys.stderr)


if __name__ == "__main__":
    main()
