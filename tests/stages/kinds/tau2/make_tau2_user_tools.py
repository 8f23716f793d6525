"""Writes what tau2-bench 1.0.1's own orchestrator does when the user simulator calls its tools (not part of the
suite): mock's update_task_with_user_tools (and update_task_1, whose user only needs to read) run by build_text_orchestrator and run_with_retry, as `tau2 run` runs a
trial, with the agent's and the user's LLM calls answered from a script (per scenario, a reply per request: text, or
tool calls as (name, arguments JSON), or both as {text, calls}). tau2_reference/user_tools.json keeps per scenario the scripts, every request
the user simulator was sent (its messages and tools as tau2 hands them to litellm), the trajectory, the termination
reason, the attempts run_with_retry made, and evaluate_simulation's reward (evaluation type ALL).

    TAU2_DATA_DIR=/work/shared/data/real /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_user_tools.py
"""
from __future__ import annotations

import json
from pathlib import Path

import tau2.agent.llm_agent as llm_agent
import tau2.user.user_simulator as user_simulator
from tau2.data_model.message import AssistantMessage, ToolCall
from tau2.data_model.simulation import TextRunConfig
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.registry import registry
from tau2.runner.build import build_text_orchestrator
from tau2.runner.progress import run_with_retry
from tau2.utils.llm_utils import to_litellm_messages

OUT = Path(__file__).resolve().parent / "tau2_reference" / "user_tools.json"
TASK, READ_ONLY = "update_task_with_user_tools", "update_task_1"
CHECK = [["check_notifications", "{}"]]
DISMISS = [["dismiss_notification", json.dumps({"notification_id": "notif_1"})]]
ASK = "I have completed task_1, please update its status to completed."
UPDATE = [["update_task_status", json.dumps({"task_id": "task_1", "status": "completed"})]]
AGENT = [UPDATE, "Task task_1 is now marked completed.", "Glad to help."]
SCENARIOS = {  # the task, the user's script, the agent's
    "right": (TASK, [CHECK, ASK, DISMISS, "Thanks ###STOP###"], AGENT),
    "not_dismissed": (TASK, [CHECK, ASK, "Thanks ###STOP###"], AGENT),
    "wrong_id_then_right": (TASK, [CHECK, ASK, [["dismiss_notification", json.dumps({"notification_id": "notif_9"})]],
                                   DISMISS, "Thanks ###STOP###"], AGENT),
    "agents_tool_then_two_calls": (TASK, [UPDATE, [CHECK[0], DISMISS[0]], ASK, "Thanks ###STOP###"], AGENT),
    "missing_argument": (TASK, [CHECK, ASK, [["dismiss_notification", "{}"]], DISMISS, "Thanks ###STOP###"], AGENT),
    "ten_failing_calls": (TASK, [[["dismiss_notification", json.dumps({"notification_id": "nope"})]]] * 10, AGENT),
    "malformed_arguments": (TASK, [CHECK, [["dismiss_notification", "{not json"]]], AGENT),
    "empty_reply": (TASK, [CHECK, ""], AGENT),
    "null_reply": (TASK, [CHECK, None], AGENT),
    "agent_empty_reply": (READ_ONLY, [CHECK, ASK], [""]),
    "agent_text_with_calls": (READ_ONLY, [CHECK, ASK, "Thanks ###STOP###"],
                              [{"text": "Updating it now.", "calls": UPDATE}, *AGENT[1:]]),
    "read_only_check": (READ_ONLY, [CHECK, ASK, "Thanks ###STOP###"], AGENT),
    "dismissed_where_not_asked": (READ_ONLY, [CHECK, DISMISS, ASK, "Thanks ###STOP###"], AGENT),
}


class Script:
    """Answers each generate() call of one side from its script, in order, restarting with each attempt."""

    def __init__(self, replies: list) -> None:
        self.replies, self.position, self.requests = replies, 0, []

    def generate(self, model, messages, tools=None, **kwargs):
        self.requests.append({"messages": to_litellm_messages(messages),
                              "tools": [tool.openai_schema for tool in tools] if tools else None})
        reply = self.replies[self.position]
        self.position += 1
        text, calls = ((reply["text"], reply["calls"]) if isinstance(reply, dict) else
                       (None, reply) if isinstance(reply, list) else (reply, None))
        return AssistantMessage(role="assistant", content=text, tool_calls=[
            ToolCall(id=f"call_{self.position}_{n}", name=name, arguments=json.loads(arguments))
            for n, (name, arguments) in enumerate(calls)] if calls else None)


def _run(task, user_script: list, agent_script: list) -> dict:
    """One trial of `task` with the two scripts, as `tau2 run` runs it (retried up to 3 times on an exception)."""
    attempts: list[Script] = []
    config = TextRunConfig(domain="mock", agent="llm_agent", user="user_simulator", llm_agent="scripted-agent",
                           llm_user="scripted-user", max_retries=3)

    def run_once():
        user, agent = Script(user_script), Script(agent_script)
        attempts.append(user)
        user_simulator.generate, llm_agent.generate = user.generate, agent.generate
        return build_text_orchestrator(config, task, seed=0).run()

    simulation = run_with_retry(run_once, task, 0, 0, max_retries=3, retry_delay=0.0, console_display=False)
    reward = evaluate_simulation(simulation, task, EvaluationType.ALL, solo_mode=False, domain="mock").reward
    return {"task": task.id, "user_script": user_script, "agent_script": agent_script, "attempts": len(attempts),
            "user_requests": attempts[0].requests, "termination_reason": simulation.termination_reason.value,
            "error": (simulation.info or {}).get("error"), "reward": reward,
            "messages": [message.model_dump(mode="json", include={"role", "content", "tool_calls", "requestor", "id",
                                                                   "error"}) for message in simulation.messages]}


def main() -> None:
    tasks = {task.id: task for task in registry.get_tasks_loader("mock")()}
    found = {name: _run(tasks[task], user, agent) for name, (task, user, agent) in SCENARIOS.items()}
    OUT.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
