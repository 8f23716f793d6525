"""A task's message history continued, and telecom's user acting on the phone, against tau2 1.0.1's orchestrator on
the same scripts (tau2_reference/live_history.json, make_tau2_live_history.py): who is asked first and with what,
every request of both sides, the trajectory, the termination and the reward equal tau2's — the phone synced with the
agent's database after each step; a task whose initial state tau2 cannot set up is set aside, the rest asked."""
import dataclasses
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.conversation import Trial, agent_system_prompt, run_trial, user_system_prompt
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.environment import Environment
from stages.kinds.tau2.evaluation import evaluate
from stages.kinds.tau2.live import GUIDELINES_TOOLS, _environment, ask_trials, offered_user_tools, user_scenario_text
from stages.kinds.tau2.mock import MockTools, MockUserTools
from stages.kinds.tau2.schemas import tool_schemas
from stages.kinds.tau2.toolkit import tool
from tests.pipeline.chat_server import ChatServer
from tests.stages.kinds.tau2.test_tau2_user_tools import (
    Side,
    _config,
    _evalpipe_messages,
    _server_side,
    _tau2_messages,
    _tau2_request,
)
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not (DOMAINS / "telecom").is_dir(), reason="the shared tau2 data is not here")
REFERENCE = json.loads((Path(__file__).parent / "tau2_reference" / "live_history.json").read_text(encoding="utf-8"))
ASKED = [name for name, scenario in REFERENCE.items() if scenario["termination_reason"] != "infrastructure_error"]


def _own_before(scenario):
    """How many messages of each side (agent, user) come before the trial's first request: the history's, else the
    greeting."""
    history = (scenario["task"].get("initial_state") or {}).get("message_history")
    if not history:
        return 1, 0
    return sum(m["role"] == "assistant" for m in history), sum(m["role"] == "user" for m in history)


def _trial(task, domain):
    data = read_domain(DOMAINS / domain)
    tools = offered_user_tools(domain, data.domain.user_tools is not None, task.get("user_tools"))
    guidelines = (DOMAINS.parent / GUIDELINES_TOOLS).read_text(encoding="utf-8")
    return Trial("t#trial0", agent_system_prompt(data.policy),
                 user_system_prompt(guidelines, user_scenario_text(task["user_scenario"])),
                 tool_schemas(domain)["agent"], tools), data


def _requests(side):
    return [{"messages": r["messages"], "tools": r["tools"]} for r in side.requests]


@pytest.mark.parametrize("name", ASKED)
def test_a_scripted_trial_from_the_tasks_initial_state_is_tau2s(name):
    scenario = REFERENCE[name]
    task, domain = scenario["task"], scenario["domain"]
    trial, data = _trial(task, domain)
    agent_before, user_before = _own_before(scenario)
    agent, user = Side(scenario["agent_script"], agent_before), Side(scenario["user_script"], user_before)
    env, history = _environment(task, data)
    outcome = run_trial(trial, env, agent, user, history)
    assert (outcome.termination_reason, outcome.failure) == (scenario["termination_reason"], None)
    assert _requests(user) == [_tau2_request(r) for r in scenario["user_requests"]]
    assert _requests(agent) == [_tau2_request(r) for r in scenario["agent_requests"]]
    assert _evalpipe_messages(outcome.messages) == _tau2_messages(scenario["messages"])
    assert evaluate(task, data, outcome.messages, outcome.termination_reason).reward == scenario["reward"]


def test_a_history_ending_in_an_unanswered_call_is_set_aside_as_tau2_fails_on_it():
    scenario = REFERENCE["history_ends_on_a_call"]
    assert (scenario["attempts"], scenario["error"]) == (4, "Tool message expected. Got None.")
    with pytest.raises(ValueError, match="has no tool message after it"):
        _environment(scenario["task"], read_domain(DOMAINS / "mock"))


def _row(task, domain):
    return {"id": task["id"], "task": json.dumps(task), "domain_folder": str(DOMAINS / domain)}


def test_asked_live_the_phone_is_synced_as_tau2s_and_a_task_that_cannot_be_set_up_is_set_aside(tmp_path):
    scenario = REFERENCE["phone_toggled_twice_then_agent_acts"]
    task = scenario["task"]
    broken = {**task, "id": "list_shaped_agent_data",
              "initial_state": {**task["initial_state"], "initialization_data": {"agent_data": [{"lines": {}}]}}}
    unanswered = REFERENCE["history_ends_on_a_call"]["task"]
    rows = [_row(broken, "telecom"), _row(task, "telecom"), _row(unanswered, "mock")]
    questions = {key: [row[key] for row in rows] for key in rows[0]}
    with ChatServer() as agent, ChatServer() as user:
        _server_side(agent, scenario["agent_script"], own_before=1)
        _server_side(user, scenario["user_script"])
        loaded, _ = ask_trials(questions, _config(agent, "m", samples=2), _config(user, "u"), "m",
                               tmp_path / "answers.jsonl")
        assert loaded.columns["id"] == [task["id"]] and loaded.columns["trials"] == [2]
        trials = json.loads(loaded.columns["prediction"][0])
        assert len(user.chats()) == 2 * len(scenario["user_requests"])
        assert [{"messages": c["body"]["messages"], "tools": c["body"].get("tools")}
                for c in user.chats()[:len(scenario["user_requests"])]] == \
            [_tau2_request(r) for r in scenario["user_requests"]]
    data = read_domain(DOMAINS / "telecom")
    for trial in trials:
        assert trial["termination_reason"] == scenario["termination_reason"]
        assert _evalpipe_messages(trial["messages"]) == _tau2_messages(scenario["messages"])
        assert evaluate(task, data, trial["messages"], trial["termination_reason"]).reward == scenario["reward"]
    assert [(r.location, r.reason, r.unscored) for r in loaded.rejects] == [
        ("list_shaped_agent_data", "its 2 trial(s) not asked: cannot set up the initial state (tau2 fails too): "
         "telecom's initialization_data: tau2 1.0.1's set_state then gives one side's tools the other side's "
         "database and fails", None),
        (unanswered["id"], "its 2 trial(s) not asked: cannot set up the initial state (tau2 fails too): message 2: "
         "tool call 'call_1' has no tool message after it", None)]


class WritesThenFails(MockTools):
    """A tool that changes the database and then raises (its change stays, as in tau2)."""

    @tool(mutates=True)
    def archive_task(self, task_id: str) -> str:
        self.db.writable("tasks", task_id)["status"] = "archived"
        raise ValueError("archiving failed halfway")


class ReadsInbox(MockUserTools):
    """The user's inbox read as text when called (as telecom's status bar is)."""

    @tool(mutates=False)
    def read_inbox(self) -> str:
        return f"notif_1: {self.db.tables['notifications']['notif_1']['message']}"


def _task_status_into_inbox(tools, user_tools):
    """A sync: the user's notif_1 says task_1's status as the agent's database has it."""
    user_tools.db.writable("notifications", "notif_1")["message"] = tools.db.tables["tasks"]["task_1"]["status"]


def test_the_tools_are_synced_after_a_step_whose_call_failed_as_tau2s_orchestrator_does():
    # tau2's Orchestrator.step ends with environment.sync_tools(), whatever its calls did; get_response syncs only
    # after a call that succeeded — so a failing call's change reaches the user's tools before the user is asked
    mock = read_domain(DOMAINS / "mock")
    domain = dataclasses.replace(mock.domain, tools=WritesThenFails, user_tools=ReadsInbox,
                                 sync=_task_status_into_inbox)
    env = Environment(dataclasses.replace(mock, domain=domain))
    trial = Trial("t#trial0", "AGENT", "USER", [], [])
    agent = Side([[["archive_task", json.dumps({"task_id": "task_1"})]], "Sorry, that failed."], own_before=1)
    user = Side(["Archive task_1.", [["read_inbox", "{}"]], "Thanks ###STOP###"])
    outcome = run_trial(trial, env, agent, user)
    assert outcome.termination_reason == "user_stop"
    failed, inbox = outcome.messages[3], outcome.messages[6]
    assert failed == {"role": "tool", "id": "call_1_0", "content": "Error: archiving failed halfway",
                      "requestor": "assistant", "error": True}
    assert inbox["content"] == "notif_1: archived"
