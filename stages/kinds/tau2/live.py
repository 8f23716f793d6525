"""tau2's tasks asked live: `samples` trials per task, each a conversation (conversation.py) between the agent
([generate]: tau2's agent prompt with the domain policy, the tools as OpenAI tools) and the user simulator ([user]:
tau2's user prompt with the task's scenario, and the domain's user tools when it has some), from the task's initial
state (its message history continued). A task whose initial state cannot be set up is set aside (one reject naming
it and why), nothing asked. Both sides journal every request; a trial whose request went unanswered is set aside as
not scored, with its cause; a trial tau2 would have raised on is run again as tau2's runner retries it (3 times),
then kept as an infrastructure error."""
from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ...chat.call_pool import run_calls
from ...chat.client import ChatClient, CircuitBreaker
from ...chat.generation import GenerateConfig, generation_summary
from ...chat.journal import AnswerStore
from ...chat.outage import server_cause
from ...chat.step_asker import Asker
from ...core.errors import UsageError
from ...core.progress import Progress
from ...core.records import Columns, LoadResult, Reject
from .conversation import (
    INFRASTRUCTURE_ERROR,
    Outcome,
    Trial,
    agent_system_prompt,
    history_message,
    run_trial,
    user_system_prompt,
)
from .domains import read_domain
from .environment import Environment, initialization_refused
from .schemas import tool_schemas
from .tasks import PREDICTION_COLUMNS

GUIDELINES = Path("user_simulator") / "simulation_guidelines.md"  # beside domains/ in tau2's data folder
GUIDELINES_TOOLS = Path("user_simulator") / "simulation_guidelines_tools.md"  # a user with tools
MAX_RETRIES = 3  # tau2's runner: a trial that raised is run again, up to 3 times


@dataclass
class Sides:
    """The two askers of a model's trials: the agent (the model asked) and the user simulator."""

    agent: Asker
    user: Asker


def ask_trials(questions: Columns, agent_config: GenerateConfig, user_config: GenerateConfig, model: str,
               store: Path) -> tuple[LoadResult, dict[str, Any]]:
    """B2 of a tau2 dataset asked of `model` ([generate]) with [user]'s simulator: per task its trials, and the
    asking's summary (the agent's requests; the user's in its own journal beside the store)."""
    if agent_config.protocol != "openai" or user_config.protocol != "openai":
        raise UsageError("tau2's conversations are asked in OpenAI's chat protocol")
    user_store = store.with_name(store.stem + ".user" + store.suffix)
    sides = Sides(_asker(agent_config, model, store), _asker(user_config, user_config.models[0], user_store))
    rows = [dict(zip(questions, values)) for values in zip(*questions.values())]
    refused = {row["id"]: why for row in rows if (why := setup_refused(row)) is not None}
    runs = [(row, sample) for row in rows if row["id"] not in refused for sample in range(agent_config.samples)]
    found: dict[tuple[str, int], tuple[dict[str, Any] | None, str | None]] = {}

    def ask(row: dict[str, Any], sample: int, progress: Progress) -> None:
        found[(row["id"], sample)] = _ask_one(row, sample, sides)
        progress.advance()

    with Progress(f"asking {model} (tau2 trials)", len(runs)) as progress:
        run_calls([partial(ask, row, sample, progress) for row, sample in runs], agent_config.concurrency)
    result = LoadResult(columns={name: [] for name in PREDICTION_COLUMNS}, input_rows=len(rows))
    source = f"{agent_config.url} ({model}) / {user_config.url} ({user_config.models[0]})"
    for row in rows:
        if row["id"] in refused:  # the task set aside whole: one reject, as one question row
            result.rejects.append(Reject(row["domain_folder"], None, f"its {agent_config.samples} trial(s) not asked: "
                                         f"{refused[row['id']]}", str(row["id"])))
            continue
        trials = []
        for sample in range(agent_config.samples):
            trial, failure = found.get((row["id"], sample), (None, "not asked"))
            if trial is None:
                result.rejects.append(Reject(source, None, f"trial {sample}: {failure}", str(row["id"]),
                                             unscored=server_cause(failure or "")))
            else:
                trials.append(trial)
        if trials:
            for name, value in (("id", row["id"]), ("line", None),
                                ("prediction", json.dumps(trials, ensure_ascii=False)), ("trials", len(trials))):
                result.columns[name].append(value)
    summary = generation_summary(store, sides.agent.step_ids, agent_config.price, agent_config.samples)
    summary["user"] = {**generation_summary(user_store, sides.user.step_ids, user_config.price, 1),
                       "model": user_config.models[0]}
    return result, summary


def _asker(config: GenerateConfig, model: str, store: Path) -> Asker:
    journal = AnswerStore(store)
    return Asker(config, ChatClient(config, config.served(model)), journal.load(), journal,
                 CircuitBreaker(config.circuit_breaker), null_is_empty=True)


def _ask_one(row: dict[str, Any], sample: int, sides: Sides) -> tuple[dict[str, Any] | None, str | None]:
    """(the trial as tau2 records it, None), or (None, why it failed: the request left unanswered). A trial that
    ended as an infrastructure error is asked again (`#retry<n>` in its journal ids) up to MAX_RETRIES times."""
    task, data = json.loads(row["task"]), read_domain(Path(row["domain_folder"]))
    user_tools = offered_user_tools(data.domain.name, data.domain.user_tools is not None, task.get("user_tools"))
    guidelines = (Path(row["domain_folder"]).parent.parent / (GUIDELINES_TOOLS if user_tools else GUIDELINES)
                  ).read_text(encoding="utf-8")
    attempts: list[str] = []
    for attempt in range(MAX_RETRIES + 1):
        trial = Trial(f"{row['id']}#trial{sample}" + (f"#retry{attempt}" if attempt else ""),
                      agent_system_prompt(data.policy),
                      user_system_prompt(guidelines, user_scenario_text(task.get("user_scenario") or {})),
                      tool_schemas(data.domain.name)["agent"], user_tools)
        outcome = _run(trial, task, data, sides)
        if outcome.termination_reason != INFRASTRUCTURE_ERROR:
            break
        attempts.append(outcome.problem or "")
    if outcome.failure is not None:
        return None, outcome.failure
    problem = {"problem": outcome.problem} if outcome.problem else {}
    retried = {"retries": attempts} if attempts and outcome.termination_reason != INFRASTRUCTURE_ERROR else {}
    return {"trial": sample, "termination_reason": outcome.termination_reason, "messages": outcome.messages,
            **problem, **retried}, None


def setup_refused(row: dict[str, Any]) -> str | None:
    """Why the task's initial state cannot be set up (nothing is asked of it), or None: tau2's orchestrator raises on
    it before the first request, on every attempt, as tau2's evaluator does on its trials (B4's "cannot evaluate")."""
    task = json.loads(row["task"])
    try:
        _environment(task, read_domain(Path(row["domain_folder"])))
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        return f"cannot set up the initial state (tau2 fails too): {error}"
    return None


def _environment(task: dict[str, Any], data: Any) -> tuple[Environment, list[dict[str, Any]]]:
    """The task's environment set up as tau2's orchestrator sets it up, and its message history."""
    initial = task.get("initial_state") or {}
    if not isinstance(initial, dict):
        raise ValueError(f"initial_state is a {type(initial).__name__}")
    refused = initialization_refused(data, initial)
    if refused is not None:
        raise ValueError(refused)
    history = initial.get("message_history") or []
    for message in history:
        history_message(message)
    env = Environment(data)
    env.set_state(initial, history)
    return env, history


def _run(trial: Trial, task: dict[str, Any], data: Any, sides: Sides) -> Outcome:
    env, history = _environment(task, data)
    return run_trial(trial, env, sides.agent, sides.user, history)


def offered_user_tools(domain: str, has_user_tools: bool, include: list[str] | None) -> list[dict[str, Any]] | None:
    """The user tools tau2 offers the user simulator: the domain's (in tau2's order), only those a task's
    `user_tools` names when it names some; None when that leaves none (the user then has no tools)."""
    if not has_user_tools:
        return None
    tools = [tool for tool in tool_schemas(domain).get("user") or []
             if include is None or tool["function"]["name"] in include]
    return tools or None


def user_scenario_text(scenario: dict[str, Any]) -> str:
    """The task's user scenario as tau2 writes it into the user's prompt (str(UserScenario))."""
    lines = ["Persona:", textwrap.indent(scenario["persona"], "\t")] if scenario.get("persona") is not None else []
    instructions = scenario.get("instructions")
    if isinstance(instructions, dict):
        parts = [f"Domain: {instructions.get('domain')}",
                 f"Reason for call:\n{textwrap.indent(str(instructions.get('reason_for_call')), chr(9))}"]
        for key, title in (("known_info", "Known info"), ("unknown_info", "Unknown info")):
            if instructions.get(key) is not None:
                parts.append(f"{title}:\n{textwrap.indent(instructions[key], chr(9))}")
        parts.append(f"Task instructions:\n{textwrap.indent(str(instructions.get('task_instructions')), chr(9))}")
        instructions = "\n".join(parts)
    return "\n".join([*lines, "Instructions:", textwrap.indent(str(instructions), "\t")])
