"""The user simulator's own tools, against tau2 1.0.1's orchestrator on the same scripts (tau2_reference/
user_tools.json, make_tau2_user_tools.py): mock's user offered its tools with tau2's tools prompt, its calls answered
from the user's database and returned to it, errors, step and error counting, replies tau2 raises on (an empty or
null message, arguments that do not parse: its runner's infrastructure error after 3 retries) — every request the
user is sent, the trajectory, the termination and the reward equal to tau2's; asked live of scripted servers on
127.0.0.1, journaled so a rerun asks nothing."""
import json
from pathlib import Path

import pytest

from stages.chat.generation import GenerateConfig
from stages.kinds.tau2.conversation import Trial, agent_system_prompt, run_trial, user_system_prompt
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.environment import Environment
from stages.kinds.tau2.evaluation import evaluate
from stages.kinds.tau2.live import GUIDELINES_TOOLS, MAX_RETRIES, ask_trials, offered_user_tools, user_scenario_text
from stages.kinds.tau2.schemas import tool_schemas
from tests.pipeline.chat_server import ChatServer
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")
REFERENCE = json.loads((Path(__file__).parent / "tau2_reference" / "user_tools.json").read_text(encoding="utf-8"))


def _task(task_id):
    return next(t for t in json.loads((DOMAINS / "mock" / "tasks.json").read_text()) if t["id"] == task_id)


def _record(reply, position):
    """A scripted reply as the chat client journals it (tau2's script: text, calls, or {text, calls})."""
    text, calls = ((reply["text"], reply["calls"]) if isinstance(reply, dict) else
                   (None, reply) if isinstance(reply, list) else (reply, None))
    return {"prediction": text or "", "tool_calls": [
        {"id": f"call_{position}_{n}", "type": "function", "function": {"name": name, "arguments": arguments}}
        for n, (name, arguments) in enumerate(calls)] if calls else None}


class Side:
    """A side answering each request from its script by how many of its own messages the request holds (so a
    retried trial starts the script again, as tau2's scripted generate does), remembering every request."""

    def __init__(self, script, own_before=0):
        self.script, self.own_before, self.requests, self.store = script, own_before, [], self

    def append(self, record):
        pass

    def reply(self, step_id, messages, tools):
        self.requests.append({"messages": messages, "tools": tools})
        position = sum(m["role"] == "assistant" for m in messages) - self.own_before
        return {**_record(self.script[position], position + 1), "id": step_id}, None, True


def _trial(task):
    tools = offered_user_tools("mock", True, task.get("user_tools"))
    guidelines = (DOMAINS.parent / GUIDELINES_TOOLS).read_text(encoding="utf-8")
    return Trial("t#trial0", agent_system_prompt(read_domain(DOMAINS / "mock").policy),
                 user_system_prompt(guidelines, user_scenario_text(task["user_scenario"])),
                 tool_schemas("mock")["agent"], tools)


def _tau2_request(request):
    """tau2's request as litellm is handed it, in OpenAI's shape: no `tool_calls: null`, no name beside function."""
    messages = [{key: ([{k: v for k, v in call.items() if k != "name"} for call in value] if key == "tool_calls"
                       else value) for key, value in message.items() if not (key == "tool_calls" and value is None)}
                for message in request["messages"]]
    return {"messages": messages, "tools": request["tools"]}


def _tau2_messages(messages):
    return [{key: value for key, value in message.items() if not (key == "tool_calls" and value is None)}
            for message in messages]


def _evalpipe_messages(messages):
    return [{**message, **({"tool_calls": [{k: call[k] for k in ("id", "name", "arguments", "requestor")}
                                           for call in message["tool_calls"]]} if message.get("tool_calls") else {})}
            for message in messages]


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_a_scripted_trial_asks_the_user_and_ends_and_scores_as_tau2s_orchestrator(name):
    scenario = REFERENCE[name]
    task, data = _task(scenario["task"]), read_domain(DOMAINS / "mock")
    user, agent = Side(scenario["user_script"]), Side(scenario["agent_script"], own_before=1)
    env = Environment(data)
    env.set_state(task.get("initial_state") or {}, [])
    outcome = run_trial(_trial(task), env, agent, user)
    assert outcome.termination_reason == scenario["termination_reason"] and outcome.failure is None
    assert [{"messages": r["messages"], "tools": r["tools"]} for r in user.requests] == \
        [_tau2_request(r) for r in scenario["user_requests"]]
    reward = evaluate(task, data, outcome.messages, outcome.termination_reason).reward
    assert reward == scenario["reward"]
    if scenario["termination_reason"] == "infrastructure_error":  # tau2 keeps no messages; evalpipe those before
        assert outcome.problem and not scenario["messages"]
    else:
        assert _evalpipe_messages(outcome.messages) == _tau2_messages(scenario["messages"])


def test_a_task_naming_no_user_tools_and_a_domain_without_them_offer_none():
    assert offered_user_tools("mock", True, []) is None and offered_user_tools("retail", False, None) is None
    assert [t["function"]["name"] for t in offered_user_tools("mock", True, ["dismiss_notification"])] == \
        ["dismiss_notification"]


def _server_side(server, script, own_before=0):
    """A chat server answering as Side does: tool calls through the `agent` hook, text through `answer`, a null
    content through `reasoning` (no reasoning, content null)."""
    def current():
        messages = server.requests[-1]["body"]["messages"]
        position = sum(m["role"] == "assistant" for m in messages) - own_before
        return script[position], position + 1

    def answer(message):
        reply, _ = current()
        return " " if reply == "" else "" if reply is None else reply if isinstance(reply, str) else "calls"

    def calls(messages, tools):
        return _record(*current())["tool_calls"]
    server.answer, server.agent = answer, calls
    server.reasoning = lambda message: (None, "stop")


def _config(server, model, **settings):
    return GenerateConfig(protocol="openai", url=server.url, models=(model,), retries=0, backoff=0, **settings)


@pytest.mark.parametrize("name", ["right", "read_only_check", "null_reply", "empty_reply", "malformed_arguments"])
def test_asked_live_of_servers_the_trial_is_tau2s_and_a_rerun_asks_nothing(tmp_path, name):
    scenario = REFERENCE[name]
    task = _task(scenario["task"])
    questions = {"id": [task["id"]], "task": [json.dumps(task)], "domain_folder": [str(DOMAINS / "mock")]}
    store = tmp_path / "answers.jsonl"
    with ChatServer() as agent, ChatServer() as user:
        _server_side(agent, scenario["agent_script"], own_before=1)
        _server_side(user, scenario["user_script"])
        loaded, summary = ask_trials(questions, _config(agent, "m"), _config(user, "u"), "m", store)
        (trial,) = json.loads(loaded.columns["prediction"][0])
        assert trial["termination_reason"] == scenario["termination_reason"] and not loaded.rejects
        first = [{"messages": chat["body"]["messages"], "tools": chat["body"].get("tools")}
                 for chat in user.chats()[:len(scenario["user_requests"])]]
        assert first == [_tau2_request(r) for r in scenario["user_requests"]]
        assert len(user.chats()) == scenario["attempts"] * len(scenario["user_requests"])
        assert scenario["attempts"] == (MAX_RETRIES + 1 if trial["termination_reason"] == "infrastructure_error"
                                        else 1)
        reward = evaluate(task, read_domain(DOMAINS / "mock"), trial["messages"], trial["termination_reason"]).reward
        assert reward == scenario["reward"]
        asked = (len(agent.chats()), len(user.chats()))
        again, _ = ask_trials(questions, _config(agent, "m"), _config(user, "u"), "m", store)
        assert (len(agent.chats()), len(user.chats())) == asked
        assert again.columns["prediction"] == loaded.columns["prediction"]
    if name in ("null_reply", "empty_reply"):
        assert trial["problem"] == "the user at step 2: an empty message"
