"""The telecom domain (small split): its gold actions replayed as the agent's and the user's calls score 1, one left
out or changed scores 0 with the component named; its databases read from TOML, its policy as tau2 composes it, its
tools answering and failing as tau2's, the phone kept in step with the agent's database."""
import copy
import hashlib
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.environment import Environment
from stages.kinds.tau2.evaluation import evaluate
from stages.kinds.tau2.schemas import tool_schemas
from stages.kinds.tau2.tasks import load_tasks
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

FOLDER = DOMAINS / "telecom"
REFERENCE = Path(__file__).resolve().parent / "tau2_reference"
pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason="the shared tau2 data is not here")


@pytest.fixture(scope="module")
def telecom():
    return read_domain(FOLDER)


@pytest.fixture(scope="module")
def tasks():
    return json.loads((FOLDER / "tasks_small.json").read_text(encoding="utf-8"))


def _task(tasks, name):
    return next(task for task in tasks if name in task["id"])


def test_every_small_task_scores_1_on_its_gold_actions_and_0_without_or_with_one_changed(telecom, tasks):
    assert len(tasks) == 20
    for task in tasks:
        actions = task["evaluation_criteria"]["actions"]
        gold = evaluate(task, telecom, calls_trajectory(task, telecom, actions), "agent_stop")
        assert (gold.reward, gold.components["ENV_ASSERTION"]["value"]) == (1.0, 1.0), task["id"]
        dropped = evaluate(task, telecom, calls_trajectory(task, telecom, actions[:-1]), "agent_stop")
        named = "ACTION" if actions[-1]["name"] == "transfer_to_human_agents" else "ENV_ASSERTION"
        assert dropped.reward == 0.0 and dropped.note.startswith(f"0 by {named}"), task["id"]
    refuel = _task(tasks, "data_usage_exceeded")
    actions = copy.deepcopy(refuel["evaluation_criteria"]["actions"])
    (call,) = [action for action in actions if action["name"] == "refuel_data"]
    call["arguments"]["gb_amount"] = 1.0
    changed = evaluate(refuel, telecom, calls_trajectory(refuel, telecom, actions), "agent_stop")
    assert changed.reward == 0.0 and changed.note == "0 by ENV_ASSERTION"
    assert "assert_data_refueling_amount" in changed.components["ENV_ASSERTION"]["reason"]
    # the line's refuelled data and the draft bill's charge differ; the phone's allowance too, since tau2 does not
    # sync the gold environment after its actions
    assert changed.db_difference == ["lines/L1002", "bills/B1003", "user surroundings/mobile_data_usage_exceeded"]


def test_the_databases_are_read_from_toml_with_tau2s_defaults(telecom):
    assert {name: len(table) for name, table in telecom.tables.items()} == {
        "plans": 5, "customers": 4, "lines": 9, "bills": 6, "devices": 9}
    customer = telecom.tables["customers"]["C1001"]
    assert customer["created_at"] == "2025-01-15 10:30:00" and customer["bill_ids"] == ["B1001", "B1002", "B1003"]
    assert customer["address"]["zip_code"] == "90210" and customer["payment_methods"][0]["method_type"] == "Credit Card"
    assert telecom.tables["bills"]["B1001"]["total_due"] == 160.5
    assert telecom.tables["devices"]["D1001"]["activation_date"] == "2025-01-20 14:30:00"
    assert telecom.user_tables["device"]["active_apn_settings"]["mms_port"] is None
    assert telecom.user_tables["surroundings"]["signal_strength"]["5G"] == "excellent"
    assert telecom.user_tables["surroundings"]["line_active"] is True


def test_the_policy_is_tau2s_main_policy_and_tech_support_manual(telecom):
    expected = json.loads((REFERENCE / "telecom_policy.json").read_text(encoding="utf-8"))
    assert hashlib.sha256(telecom.policy.encode()).hexdigest() == expected["sha256"]
    assert telecom.policy.startswith("<main_policy>\n") and telecom.policy.endswith("\n</tech_support_policy>")


def test_tools_fail_as_tau2s_and_the_user_has_a_phone_the_agent_does_not(telecom):
    env = Environment(telecom)
    assert env.respond("get_customer_by_id", "assistant", {"customer_id": "C9"}) == (
        "Error: Customer with ID C9 not found", True)
    assert env.respond("suspend_line", "assistant", {"customer_id": "C1001", "line_id": "L1002"}) == (
        "Error: TelecomTools.suspend_line() missing 1 required positional argument: 'reason'", True)
    assert env.respond("toggle_data", "assistant", {}) == ("Error: Tool 'toggle_data' not found.", True)
    assert env.respond("toggle_data", "user", {}) == (
        "Mobile Data is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%", False)
    assert env.respond("set_network_mode_preference", "user", {"mode": "6g"})[0].startswith(
        "Failed to set network mode: '6g' is not a valid option. Please use one of: 4g_5g_preferred, 4g_only")


def test_a_payment_made_on_the_phone_pays_the_bill_in_the_agents_database(telecom, tasks):
    task = _task(tasks, "overdue_bill_suspension")
    env = Environment(telecom)
    env.set_state(task["initial_state"], [])
    customer, bill = "C1001", task["evaluation_criteria"]["actions"][0]["arguments"]["bill_id"]
    assert env.respond("check_payment_request", "user", {}) == ("No payment request has been made.", False)
    assert env.respond("send_payment_request", "assistant", {"customer_id": customer, "bill_id": bill})[1] is False
    assert env.db.tables["bills"][bill]["status"] == "Awaiting Payment"
    amount = env.db.tables["bills"][bill]["total_due"]
    assert env.respond("check_payment_request", "user", {}) == (
        f"You have a payment request for bill {bill} of {amount} USD.", False)
    assert env.respond("make_payment", "user", {}) == (
        f"Payment of {amount} USD has been made for bill {bill}.", False)
    assert env.db.tables["bills"][bill]["status"] == "Paid"
    assert env.user_db.tables["surroundings"]["payment_request"] is None


def test_the_small_split_loads_its_20_tasks_from_the_toml_folder(tmp_path, tasks):
    questions = tmp_path / "tasks_small.json"
    questions.write_text(json.dumps(tasks), encoding="utf-8")
    result = load_tasks(questions, {"domain_folder": str(FOLDER), "split": "small"})
    assert len(result.columns["id"]) == 20 and not result.rejects
    assert load_tasks(questions, {"domain_folder": str(FOLDER), "split": "base"}).columns["id"] == []


def test_the_agent_and_the_user_are_sent_tau2s_telecom_tools():
    schemas = tool_schemas("telecom")
    assert [s["function"]["name"] for s in schemas["agent"]][:4] == [
        "get_customer_by_phone", "get_customer_by_id", "get_customer_by_name", "get_details_by_id"]
    assert len(schemas["agent"]) == 13 and len(schemas["user"]) == 30
    mode = next(s["function"] for s in schemas["user"] if s["function"]["name"] == "set_network_mode_preference")
    assert mode["parameters"]["$defs"]["NetworkModePreference"]["enum"] == [
        "4g_5g_preferred", "4g_only", "3g_only", "2g_only"]
