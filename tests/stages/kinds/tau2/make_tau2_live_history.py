"""Writes what tau2-bench 1.0.1's own orchestrator does (not part of the suite) with a task's
`initial_state.message_history` — mock's two shipped tasks, and the same history cut to end on the user, on a tool
message, on a stop (the agent's ###STOP### ends nothing: tau2's LLMAgent never stops), on an unanswered call — and with telecom's user acting on the phone (airplane mode toggled, the
agent's payment request paid: the phone synced with the agent's database after each step), run by
build_text_orchestrator and run_with_retry as `tau2 run` runs a trial, both sides' LLM calls answered from a script
(as make_tau2_user_tools.py). tau2_reference/live_history.json keeps per scenario the task, the scripts, every request
each side was sent, the trajectory, the termination reason, the attempts and evaluate_simulation's reward (type ALL).

    TAU2_DATA_DIR=/work/shared/data/real /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_live_history.py
"""
from __future__ import annotations

import json
import os
from copy import deepcopy
from pathlib import Path

import tau2.agent.llm_agent as llm_agent
import tau2.user.user_simulator as user_simulator
from make_tau2_user_tools import Script
from tau2.data_model.message import AssistantMessage, UserMessage
from tau2.data_model.simulation import TextRunConfig
from tau2.data_model.tasks import Task
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.registry import registry
from tau2.runner.build import build_text_orchestrator
from tau2.runner.progress import run_with_retry

OUT = Path(__file__).resolve().parent / "tau2_reference" / "live_history.json"
TELECOM = Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains" / "telecom" / "tasks_small.json"
HISTORY, ASSERTED = "update_task_with_message_history", "update_task_with_history_and_env_assertions"
AIRPLANE = "[service_issue]airplane_mode_on[PERSONA:None]"
UPDATE2 = [["update_task_status", json.dumps({"task_id": "task_2", "status": "completed"})]]
AGENT = [UPDATE2, "Task task_2 is now marked completed.", "Glad to help."]
USER = ["Thanks. Please also mark task_2 completed now.", "Thanks ###STOP###"]
PHONE = json.dumps({"phone_number": "555-123-2002"})
STATUS, TOGGLE = [["check_status_bar", "{}"]], [["toggle_airplane_mode", "{}"]]


def _scenarios(mock: dict, telecom: dict) -> dict:
    """name: (task, the user's script, the agent's)."""
    history = mock[HISTORY].initial_state.message_history

    def variant(name: str, end: int, *tail) -> Task:
        task = mock[HISTORY].model_copy(deep=True)
        task.id, task.initial_state.message_history = f"{HISTORY}:{name}", deepcopy(history[:end]) + list(tail)
        return task
    user_last = variant("user_last", 4, UserMessage(role="user", content="Please mark task_2 completed."))
    tool_last = variant("tool_last", 3)
    stop_last = variant("stop_last", 4, UserMessage(role="user", content="That is all. ###STOP###"))
    agent_stop = variant("agent_stop", 4, UserMessage(role="user", content="Bye."),
                         AssistantMessage(role="assistant", content="Goodbye ###STOP###"))
    unanswered = variant("unanswered", 2)
    airplane = telecom[AIRPLANE]
    payment = [["get_customer_by_phone", PHONE], ["get_bills_for_customer", json.dumps({"customer_id": "C1001"})]]
    return {
        "history_right": (mock[HISTORY], USER, AGENT),
        "history_wrong": (mock[HISTORY], USER, ["Task task_2 is now marked completed.", "Glad to help."]),
        "history_env_assertions": (mock[ASSERTED], USER, AGENT),
        "history_ends_on_user": (user_last, ["Thanks ###STOP###"], AGENT),
        "history_ends_on_tool": (tool_last, USER, ["Created task_2.", *AGENT]),
        "history_ends_on_user_stop": (stop_last, [], []),
        "history_ends_on_agent_stop": (agent_stop, ["Thanks ###STOP###"], []),
        "agent_says_stop_and_the_user_answers": (mock[HISTORY], ["Please mark task_2 completed.", "Thanks ###STOP###"],
                                                 [UPDATE2, "Done. ###STOP###"]),
        "history_ends_on_a_call": (unanswered, USER, AGENT),
        "phone_airplane_mode": (airplane, [
            STATUS, "My phone shows No Service. I am John Smith, 555-123-2002.", TOGGLE, STATUS,
            "The status bar shows signal now. ###STOP###"], [
            [["get_customer_by_phone", PHONE]], "Please turn airplane mode off.", "Glad it works."]),
        "phone_toggled_twice_then_agent_acts": (airplane, [
            TOGGLE, TOGGLE, "It still says No Service. I am 555-123-2002.", STATUS, TOGGLE,
            "Signal is back. ###STOP###"], [
            *[[call] for call in payment], "Please check the status bar.", "Please toggle airplane mode.",
            "Good."]),
        "phone_bad_argument": (airplane, [
            [["toggle_airplane_mode", json.dumps({"on": True})]], "No Service here, 555-123-2002.", TOGGLE,
            "Fixed. ###STOP###"], [[["get_customer_by_phone", PHONE]], "Please toggle airplane mode.", "Good."]),
    }


def _run(domain: str, task: Task, user_script: list, agent_script: list) -> dict:
    """One trial of `task` with the two scripts, as `tau2 run` runs it (retried up to 3 times on an exception)."""
    attempts: list[tuple[Script, Script]] = []
    config = TextRunConfig(domain=domain, agent="llm_agent", user="user_simulator", llm_agent="scripted-agent",
                           llm_user="scripted-user", max_retries=3)

    def run_once():
        user, agent = Script(user_script), Script(agent_script)
        attempts.append((user, agent))
        user_simulator.generate, llm_agent.generate = user.generate, agent.generate
        return build_text_orchestrator(config, task, seed=0).run()

    simulation = run_with_retry(run_once, task, 0, 0, max_retries=3, retry_delay=0.0, console_display=False)
    reward = evaluate_simulation(simulation, task, EvaluationType.ALL, solo_mode=False, domain=domain).reward
    return {"domain": domain, "task": _task_json(task), "user_script": user_script,
            "agent_script": agent_script, "attempts": len(attempts), "user_requests": attempts[0][0].requests,
            "agent_requests": attempts[0][1].requests, "termination_reason": simulation.termination_reason.value,
            "error": (simulation.info or {}).get("error"), "reward": reward,
            "messages": [message.model_dump(mode="json", include={"role", "content", "tool_calls", "requestor", "id",
                                                                   "error"}) for message in simulation.messages]}


def _task_json(task: Task) -> dict:
    """The task as tau2 dumps it, its history's timestamps (the time it was built) left out."""
    dumped = task.model_dump(mode="json")
    for message in (dumped.get("initial_state") or {}).get("message_history") or []:
        message.pop("timestamp", None)
    return dumped


def main() -> None:
    mock = {task.id: task for task in registry.get_tasks_loader("mock")()}
    telecom = {task["id"]: Task.model_validate(task) for task in json.loads(TELECOM.read_text(encoding="utf-8"))}
    found = {name: _run("telecom" if name.startswith("phone") else "mock", task, user, agent)
             for name, (task, user, agent) in _scenarios(mock, telecom).items()}
    OUT.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
