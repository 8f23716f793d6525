"""Writes what tau2-bench 1.0.1 itself says of telecom trajectories (not part of the suite), as make_tau2_reference.py
does for retail and mock. tau2 reads telecom's tasks from a tasks.json the shared data does not hold, so the tasks
are read here from tasks_small.json (the small split, as shipped) and validated as tau2's Task.

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_telecom_reference.py

For every small task: its gold actions made as the agent's or the user's calls (each call by its action's
requestor) — as they are; after the reads (every read tool of the agent and of the user once); after writes
(every write tool of both, most twice, some failing, reads between); after calls with arguments of the wrong type; with the last
state-changing action dropped (the last action where none changes state); with one argument of the last action that
has arguments changed (text gets "X" appended, a number 1 more); after failing calls (an unknown tool, the last
action without its first argument, with an argument it does not take) — each answered by tau2's own environment, and
the gold trial ended by max_steps. tau2_reference/telecom.jsonl keeps per trajectory the calls, the sha256 of each tool
answer (its JSON with sorted keys) and whether it was an error, tau2's reward from evaluate_simulation (evaluation
type ALL, lenient replay as evaluate-trajs), its ENV-only reward, and whether the agent's and the user's databases
matched the gold actions' (db_check.db_match). tau2_reference/telecom_policy.json keeps the sha256 of the policy
tau2's telecom environment gives its agent."""
from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
from pathlib import Path

from tau2.data_model.message import AssistantMessage, ToolCall, UserMessage
from tau2.data_model.simulation import SimulationRun, TerminationReason
from tau2.data_model.tasks import Task
from tau2.domains.telecom.user_data_model import PerformanceLevel, VpnDetails
from tau2.domains.telecom.user_tools import TelecomUserTools
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.registry import registry

HERE = Path(__file__).resolve().parent
FOLDER = Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains" / "telecom"
OUT = HERE / "tau2_reference" / "telecom.jsonl"
READS = [
    ("assistant", "get_customer_by_phone", {"phone_number": "555-123-2002"}),
    ("assistant", "get_customer_by_id", {"customer_id": "C1001"}),
    ("assistant", "get_customer_by_name", {"full_name": "john smith", "dob": "1985-06-15"}),
    ("assistant", "get_details_by_id", {"id": "L1002"}),
    ("assistant", "get_details_by_id", {"id": "D1001"}),
    ("assistant", "get_details_by_id", {"id": "B1002"}),
    ("assistant", "get_details_by_id", {"id": "P1001"}),
    ("assistant", "get_details_by_id", {"id": "X1"}),
    ("assistant", "get_bills_for_customer", {"customer_id": "C1001"}),
    ("assistant", "get_bills_for_customer", {"customer_id": "C1002", "limit": 1}),
    ("assistant", "get_data_usage", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "get_data_usage", {"customer_id": "C1001", "line_id": "L9"}),
    ("assistant", "transfer_to_human_agents", {"summary": "s"}),
    *[("user", name, {}) for name in (
        "check_status_bar", "check_network_status", "check_network_mode_preference", "run_speed_test",
        "check_sim_status", "check_data_restriction_status", "check_apn_settings", "check_wifi_status",
        "check_wifi_calling_status", "check_vpn_status", "check_installed_apps", "can_send_mms",
        "check_payment_request")],
    ("user", "check_app_status", {"app_name": "messaging"}),
    ("user", "check_app_status", {"app_name": "camera"}),
    ("user", "check_app_permissions", {"app_name": "browser"}),
]

WRITES = [
    ("assistant", "suspend_line", {"customer_id": "C1001", "line_id": "L1002", "reason": "travel"}),
    ("assistant", "suspend_line", {"customer_id": "C1001", "line_id": "L1002", "reason": "again"}),
    ("assistant", "resume_line", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "resume_line", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "disable_roaming", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "disable_roaming", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "enable_roaming", {"customer_id": "C1001", "line_id": "L1002"}),
    ("assistant", "enable_roaming", {"customer_id": "C1002", "line_id": "L1002"}),
    ("assistant", "refuel_data", {"customer_id": "C1001", "line_id": "L1002", "gb_amount": 0}),
    ("assistant", "refuel_data", {"customer_id": "C1001", "line_id": "L1002", "gb_amount": 1.5}),
    ("assistant", "send_payment_request", {"customer_id": "C1001", "bill_id": "B9"}),
    *[("user", name, {}) for name in (
        "toggle_wifi", "check_wifi_status", "toggle_wifi", "toggle_airplane_mode", "toggle_wifi",
        "check_status_bar", "toggle_airplane_mode", "connect_vpn", "connect_vpn", "check_vpn_status",
        "run_speed_test", "disconnect_vpn", "disconnect_vpn", "toggle_wifi_calling", "check_wifi_calling_status",
        "toggle_wifi_calling", "reset_apn_settings", "reboot_device", "check_apn_settings", "toggle_data_saver_mode",
        "run_speed_test", "toggle_data_saver_mode", "toggle_roaming", "toggle_roaming", "toggle_data",
        "toggle_data", "reseat_sim_card", "make_payment", "check_payment_request")],
    ("user", "set_apn_settings", {"apn_settings": {"apn_name": "internet", "mmsc_url": None}}),
    ("user", "can_send_mms", {}),
    ("user", "set_apn_settings", {"apn_settings": {"apn_name": "internet"}}),
    ("user", "set_network_mode_preference", {"mode": "2g_only"}),
    ("user", "run_speed_test", {}),
    ("user", "set_network_mode_preference", {"mode": "3g_only"}),
    ("user", "check_network_status", {}),
    ("user", "set_network_mode_preference", {"mode": "4g_5g_preferred"}),
    ("user", "grant_app_permission", {"app_name": "messaging", "permission": "Camera"}),
    ("user", "grant_app_permission", {"app_name": "notes", "permission": "sms"}),
    ("user", "grant_app_permission", {"app_name": "browser", "permission": "SMS"}),
    ("user", "check_app_status", {"app_name": "browser"}),
]

ODD = [  # arguments of the wrong type, as a model may send them
    ("user", "set_network_mode_preference", {"mode": None}),
    ("user", "check_network_mode_preference", {}),
    ("user", "run_speed_test", {}),
    ("user", "set_network_mode_preference", {"mode": "4g_only"}),
    ("user", "grant_app_permission", {"app_name": "messaging", "permission": 5}),
    ("user", "check_app_status", {"app_name": 5}),
    ("user", "set_network_mode_preference", {"mode": 5}),
    ("user", "check_network_mode_preference", {}),
    ("user", "set_network_mode_preference", {"mode": "4g_5g_preferred"}),
    ("user", "set_apn_settings", {"apn_settings": {"apn_name": "bogus", "proxy": 1}}),
    ("user", "set_apn_settings", {"apn_settings": "internet"}),
    ("user", "reboot_device", {}),
    ("user", "toggle_data", {}),
    ("user", "check_apn_settings", {}),
    ("user", "reset_apn_settings", {}),
    ("user", "can_send_mms", {}),
    ("user", "toggle_data", {}),
    ("user", "set_apn_settings", {"apn_settings": {"apn_name": "internet"}}),
    ("assistant", "get_details_by_id", {"id": 1001}),
    ("assistant", "get_bills_for_customer", {"customer_id": "C1001", "limit": "2"}),
    ("assistant", "refuel_data", {"customer_id": "C1001", "line_id": "L1002", "gb_amount": 2}),
    ("assistant", "refuel_data", {"customer_id": "C1001", "line_id": "L1002", "gb_amount": "2"}),
    ("assistant", "get_customer_by_name", {"full_name": "John Smith"}),
]


def writes(env, actions: list[dict]) -> list[int]:
    kits = [kit for kit in (env.tools, env.user_tools) if kit is not None]
    return [i for i, a in enumerate(actions)
            if any(k.has_tool(a["name"]) and k.tool_mutates_state(a["name"]) for k in kits)]


def changed(actions: list[dict]) -> list[dict] | None:
    """The actions with one argument of the last action that has arguments changed (the rule evalpipe's test
    applies too)."""
    places = [i for i, a in enumerate(actions) if a["arguments"]]
    if not places:
        return None
    actions = copy.deepcopy(actions)
    arguments = actions[places[-1]]["arguments"]
    name = list(arguments)[-1]
    value = arguments[name]
    arguments[name] = value + "X" if isinstance(value, str) else value + 1
    return actions


def noisy(actions: list[dict]) -> list[dict]:
    last = actions[-1]
    first = next(iter(last["arguments"]), None)
    wrong = [{"name": "delete_everything", "arguments": {}, "requestor": "assistant"},
             {**last, "arguments": {**last["arguments"], "note": "please"}}]
    if first is not None:
        wrong.insert(1, {**last, "arguments": {k: v for k, v in last["arguments"].items() if k != first}})
    return [*wrong, *actions]


def fresh_vpn_default() -> None:
    """tau2's break_vpn makes the VPN every later connect_vpn of the process gets a poor one (it changes the class's
    default VPN in place): set back before each trajectory and each evaluation, so each is as in a fresh process."""
    TelecomUserTools.default_vpn_details = VpnDetails(server_address="192.168.1.1", protocol="OpenVPN",
                                                      server_performance=PerformanceLevel.EXCELLENT)


def trajectory(task: Task, actions: list[dict]) -> tuple[list, list[str], list[bool]]:
    fresh_vpn_default()
    env = registry.get_env_constructor("telecom")()
    initial = task.initial_state
    env.set_state(initial.initialization_data, initial.initialization_actions, [])
    messages, digests, errors = [], [], []
    for number, action in enumerate(actions):
        requestor = action.get("requestor", "assistant")
        call = ToolCall(id=f"call_{number}", name=action["name"], arguments=action["arguments"], requestor=requestor)
        kind = AssistantMessage if requestor == "assistant" else UserMessage
        messages.append(kind(role=requestor, content=None, tool_calls=[call]))
        answer = env.get_response(call)
        messages.append(answer)
        try:
            canonical = json.dumps(json.loads(answer.content), sort_keys=True)
        except (TypeError, ValueError):
            canonical = str(answer.content)
        digests.append(hashlib.sha256(canonical.encode()).hexdigest())
        errors.append(answer.error)
    messages.append(AssistantMessage(role="assistant", content="Done."))
    return messages, digests, errors


def score(task: Task, messages: list, reason: TerminationReason, kind: EvaluationType) -> tuple:
    fresh_vpn_default()
    run = SimulationRun(id="x", task_id=task.id, start_time="", end_time="", duration=0.0, termination_reason=reason,
                        messages=messages, trial=0, timestamp="", agent_cost=0.0, user_cost=0.0, reward_info=None)
    try:
        info = evaluate_simulation(run, task, kind, solo_mode=False, domain="telecom", strict_replay=False)
    except ValueError as error:
        return f"error: {error}", None
    return info.reward, info.db_check.db_match if info.db_check else None


def main() -> None:
    env = registry.get_env_constructor("telecom")()
    lines = []
    for raw in json.loads((FOLDER / "tasks_small.json").read_text()):
        task = Task.model_validate(raw)
        actions = [{"name": a["name"], "arguments": a["arguments"], "requestor": a["requestor"]}
                   for a in raw["evaluation_criteria"]["actions"] or []]
        last = (writes(env, actions) or [len(actions) - 1])[-1]
        variants = {"gold": actions, "reads": [{"name": n, "arguments": a, "requestor": r} for r, n, a in READS]
                    + actions, "writes": [{"name": n, "arguments": a, "requestor": r} for r, n, a in WRITES]
                    + actions, "odd": [{"name": n, "arguments": a, "requestor": r} for r, n, a in ODD]
                    + actions, "dropped": [a for i, a in enumerate(actions) if i != last],
                    "changed": changed(actions), "noisy": noisy(actions)}
        for variant, calls in variants.items():
            if calls is None:
                continue
            messages, digests, errors = trajectory(task, calls)
            reasons = [TerminationReason.AGENT_STOP] + ([TerminationReason.MAX_STEPS] if variant == "gold" else [])
            for reason in reasons:
                reward, db_match = score(task, messages, reason, EvaluationType.ALL)
                env_reward, _ = score(task, messages, reason, EvaluationType.ENV)
                lines.append({"task": task.id, "variant": variant, "calls": calls,
                              "termination_reason": reason.value, "answers": digests, "errors": errors,
                              "reward": reward, "env_reward": env_reward, "db_match": db_match})
    OUT.write_text("".join(json.dumps(line) + "\n" for line in lines))
    policy = env.get_policy()
    (OUT.parent / "telecom_policy.json").write_text(json.dumps(
        {"sha256": hashlib.sha256(policy.encode()).hexdigest(), "characters": len(policy)}) + "\n")
    print(f"{len(lines)} trajectories", file=sys.stderr)


if __name__ == "__main__":
    main()
