"""tau2's trials asked of scripted agent and user chat servers on 127.0.0.1: the gold calls then the user's stop
score 1 by evalpipe's evaluator; `samples` trials per task; a rerun asks nothing; a dead user server fails the
trial with its cause, not scored."""
import json

import pytest

from stages.chat.generation import GenerateConfig
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import evaluate
from stages.kinds.tau2.live import ask_trials, user_scenario_text
from tests.pipeline.chat_server import ChatServer
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


def _task():
    return next(t for t in json.loads((DOMAINS / "mock" / "tasks.json").read_text()) if t["id"] == "create_task_1")


def _questions(task):
    return {"id": [task["id"]], "task": [json.dumps(task)], "domain_folder": [str(DOMAINS / "mock")]}


def _agent(server, task):
    """The agent makes the task's gold calls one per request, then says it is done."""
    actions = task["evaluation_criteria"]["actions"]

    def calls(messages, tools):
        done = sum(message["role"] == "tool" for message in messages)
        if done >= len(actions):
            return None
        action = actions[done]
        return [{"id": f"call_{done}", "type": "function",
                 "function": {"name": action["name"], "arguments": json.dumps(action["arguments"])}}]
    server.agent = calls
    server.answer = lambda message: "Done."


def _config(server, model, **settings):
    return GenerateConfig(protocol="openai", url=server.url, models=(model,), retries=0, backoff=0, **settings)


def test_a_trial_asked_of_agent_and_user_servers_scores_1_and_a_rerun_asks_nothing(tmp_path):
    task = _task()
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, task)
        user.answer = lambda message: "Thanks ###STOP###" if "Done" in message else "Please create my task."
        store = tmp_path / "answers.jsonl"
        loaded, summary = ask_trials(_questions(task), _config(agent, "m", samples=2), _config(user, "u"), "m", store)
        trials = json.loads(loaded.columns["prediction"][0])
        assert [t["trial"] for t in trials] == [0, 1] and not loaded.rejects
        data = read_domain(DOMAINS / "mock")
        for trial in trials:
            assert trial["termination_reason"] == "user_stop"
            assert evaluate(task, data, trial["messages"], trial["termination_reason"]).reward == 1.0
        first_user = user.chats()[0]["body"]["messages"]
        assert first_user[0]["content"].endswith(f"<scenario>\n{user_scenario_text(task['user_scenario'])}\n</scenario>")
        assert first_user[1] == {"role": "user", "content": "Hi! How can I help you today?"}
        assert agent.chats()[0]["body"]["tools"][0]["type"] == "function"
        asked = (len(agent.chats()), len(user.chats()))
        assert summary["answers"] == asked[0] and summary["user"]["answers"] == asked[1]
        again, _ = ask_trials(_questions(task), _config(agent, "m", samples=2), _config(user, "u"), "m", store)
        assert (len(agent.chats()), len(user.chats())) == asked
        assert again.columns["prediction"] == loaded.columns["prediction"]


def test_a_dead_user_server_fails_the_trial_with_its_cause_not_scored(tmp_path):
    task = _task()
    with ChatServer() as agent:
        _agent(agent, task)
        dead = ChatServer()  # never started: its port is refused
        dead.httpd.server_close()
        loaded, _ = ask_trials(_questions(task), _config(agent, "m"), _config(dead, "u"), "m", tmp_path / "a.jsonl")
    assert not loaded.columns["id"] and len(loaded.rejects) == 1
    reject = loaded.rejects[0]
    assert reject.location == task["id"] and "the user at step 0" in reject.reason
    assert reject.unscored.endswith("(connection refused)")
    assert not agent.chats()


def test_a_user_server_dead_mid_trial_then_back_asks_only_the_missing_steps(tmp_path):
    task = _task()
    store = tmp_path / "answers.jsonl"
    stop = lambda message: "Thanks ###STOP###" if "Done" in message else "Please create my task."  # noqa: E731
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, task)
        user.answer, user.dies_after = stop, 1
        loaded, _ = ask_trials(_questions(task), _config(agent, "m"), _config(user, "u"), "m", store)
        assert not loaded.columns["id"] and "the user at step 4" in loaded.rejects[0].reason  # user 0, agent 1, tool 2, agent 3
        asked_agent = len(agent.chats())
        assert asked_agent == 2  # the gold call, then "Done."
        with ChatServer() as back:
            back.answer = stop
            resumed, _ = ask_trials(_questions(task), _config(agent, "m"), _config(back, "u"), "m", store)
            assert len(agent.chats()) == asked_agent and len(back.chats()) == 1
    trial = json.loads(resumed.columns["prediction"][0])[0]
    assert trial["termination_reason"] == "user_stop" and not resumed.rejects
    assert evaluate(task, read_domain(DOMAINS / "mock"), trial["messages"], "user_stop").reward == 1.0


@pytest.mark.parametrize("null", [False, True])
def test_a_blank_or_null_user_reply_is_retried_then_the_trials_infrastructure_error_with_why(tmp_path, null):
    task = _task()
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, task)
        user.answer = lambda message: "" if null else " "  # a null content, or blank: an empty message
        if null:
            user.reasoning = lambda message: (None, "stop")  # no reasoning either: the content alone is null
        loaded, _ = ask_trials(_questions(task), _config(agent, "m"), _config(user, "u"), "m", tmp_path / "a.jsonl")
    (trial,) = json.loads(loaded.columns["prediction"][0])
    assert (trial["termination_reason"], trial["problem"]) == ("infrastructure_error",
                                                               "the user at step 0: an empty message")
    assert not agent.chats() and not loaded.rejects and len(user.chats()) == 4  # tau2's runner: 3 retries
