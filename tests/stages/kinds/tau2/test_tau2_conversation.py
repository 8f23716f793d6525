"""A tau2 trial asked live with scripted sides: the gold actions then the user's ###STOP### score 1 (as the offline
evaluator scores the same calls); a wrong argument 0 by DB; tau2's stop signals (the user's; the agent's ends nothing), max steps, max errors, malformed
calls, an empty message and an unanswered request end the trial as tau2's orchestrator and runner end it; a replayed journal asks nothing."""
import json

import pytest

from stages.kinds.base import get_kind
from stages.kinds.tau2.conversation import (
    FIRST_AGENT_MESSAGE,
    MAX_STEPS,
    Trial,
    agent_system_prompt,
    run_trial,
    user_system_prompt,
)
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.environment import Environment
from stages.kinds.tau2.evaluation import evaluate
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


class Scripted:
    """A side that answers each step from a script of replies (text, or a list of (name, arguments-JSON) calls),
    remembering what it was asked; a journal of earlier replies is answered without asking."""

    def __init__(self, script, journal=None, fail_at=None):
        self.script, self.asked, self.journal, self.fail_at = list(script), [], dict(journal or {}), fail_at
        self.store, self.kept = self, []

    def append(self, record):
        self.kept.append(record)

    def reply(self, step_id, messages, tools):
        if step_id in self.journal:
            return self.journal[step_id], None, False
        if self.fail_at is not None and len(self.asked) == self.fail_at:
            return None, "generation failed after 3 attempt(s): connection refused", True
        self.asked.append((step_id, messages, tools))
        answer = self.script.pop(0)
        record = ({"prediction": answer} if isinstance(answer, str) else
                  {"prediction": "", "tool_calls": [{"id": f"c{len(self.asked)}_{n}", "type": "function",
                                                      "function": {"name": name, "arguments": args}}
                                                     for n, (name, args) in enumerate(answer)]})
        return {**record, "id": step_id}, None, True


def _task(task_id):
    return next(t for t in json.loads((DOMAINS / "mock" / "tasks.json").read_text()) if t["id"] == task_id)


def _trial(task):
    return Trial("t#trial0", agent_system_prompt("POLICY"), user_system_prompt("GUIDE<PERSONA_GUIDELINES>", "SCENE"),
                 [{"type": "function", "function": {"name": "create_task"}}])


def _gold_calls(task):
    return [[(a["name"], json.dumps(a["arguments"]))] for a in task["evaluation_criteria"]["actions"]]


def _run(task, agent, user):
    data = read_domain(DOMAINS / "mock")
    env = Environment(data)
    env.set_state(task.get("initial_state") or {}, [])
    return run_trial(_trial(task), env, agent, user), data


def test_the_gold_actions_then_the_users_stop_score_1_and_a_wrong_argument_0_by_db():
    task = _task("create_task_1")
    closing = " ".join(task["evaluation_criteria"].get("communicate_info") or []) or "Done."
    agent = Scripted(_gold_calls(task) + [closing])
    user = Scripted(["Please create the task.", "Thanks ###STOP###"])
    outcome, data = _run(task, agent, user)
    assert outcome.termination_reason == "user_stop" and outcome.failure is None
    assert outcome.messages[0] == {"role": "assistant", "content": FIRST_AGENT_MESSAGE}
    assert evaluate(task, data, outcome.messages, outcome.termination_reason).reward == 1.0
    system, first = user.asked[0][1][0], user.asked[0][1][1]
    assert system["content"].startswith("GUIDE\n\n<scenario>\nSCENE") and first == {"role": "user",
                                                                                 "content": FIRST_AGENT_MESSAGE}
    assert agent.asked[0][1][0]["content"].startswith("<instructions>\nYou are a customer service agent")
    assert agent.asked[1][1][-1]["role"] == "tool"  # the call's result goes back to the agent

    wrong = [[(name, args.replace(task["evaluation_criteria"]["actions"][0]["arguments"]["title"], "Other"))
              for name, args in step] for step in _gold_calls(task)]
    outcome, data = _run(task, Scripted(wrong + [closing]), Scripted(["Create it.", "###STOP###"]))
    evaluation = evaluate(task, data, outcome.messages, outcome.termination_reason)
    assert evaluation.reward == 0.0 and "DB" in evaluation.note


@pytest.mark.parametrize("signal", ["###TRANSFER###", "###OUT-OF-SCOPE###"])
def test_a_transfer_or_out_of_scope_is_the_users_stop(signal):
    outcome, _ = _run(_task("create_task_1"), Scripted([]), Scripted([f"Bye {signal}"]))
    assert outcome.termination_reason == "user_stop" and len(outcome.messages) == 2


def test_the_agents_stop_signal_ends_nothing_and_a_conversation_past_200_steps():
    # tau2 1.0.1's LLMAgent never stops (is_stop is its base's False): the user answers (live_history.json)
    outcome, _ = _run(_task("create_task_1"), Scripted(["###STOP###"]), Scripted(["hi", "Bye ###STOP###"]))
    assert outcome.termination_reason == "user_stop" and [m["content"] for m in outcome.messages[2:]] == \
        ["###STOP###", "Bye ###STOP###"]
    outcome, _ = _run(_task("create_task_1"), Scripted(["more?"] * MAX_STEPS), Scripted(["hm"] * MAX_STEPS))
    assert outcome.termination_reason == "max_steps" and len(outcome.messages) == MAX_STEPS + 1


def test_ten_failing_calls_end_it_and_a_malformed_call_or_an_empty_message_is_tau2s_infrastructure_error():
    bad = [[("create_task", json.dumps({"user_id": "nobody", "title": "x"}))]] * 10
    outcome, _ = _run(_task("create_task_1"), Scripted(bad), Scripted(["go"]))
    assert outcome.termination_reason == "too_many_errors"
    outcome, _ = _run(_task("create_task_1"), Scripted([[("create_task", "{not json")]]), Scripted(["go"]))
    assert (outcome.termination_reason, outcome.problem) == (
        "infrastructure_error", "the agent at step 1: tool call 'create_task': arguments that do not parse")
    outcome, _ = _run(_task("create_task_1"), Scripted([""]), Scripted(["go"]))
    assert (outcome.termination_reason, outcome.problem) == ("infrastructure_error",
                                                             "the agent at step 1: an empty message")
    assert len(outcome.messages) == 2  # the greeting and the user's: the empty reply is no tau2 message


def test_a_rerun_asks_nothing_a_resumed_trial_only_the_rest_and_a_dead_user_fails_it_with_its_cause():
    task = _task("create_task_1")
    script_agent, script_user = _gold_calls(task) + ["Done."], ["Create it.", "###STOP###"]
    agent, user = Scripted(script_agent), Scripted(script_user)
    first, _ = _run(task, agent, user)
    agent.journal, user.journal = {r["id"]: r for r in agent.kept}, {r["id"]: r for r in user.kept}
    assert len(agent.kept) == len(script_agent) and len(user.kept) == len(script_user)
    again_agent, again_user = Scripted([], agent.journal), Scripted([], user.journal)
    second, _ = _run(task, again_agent, again_user)
    assert second.messages == first.messages and not again_agent.asked and not again_user.asked

    kept = dict(list(agent.journal.items())[:1])
    resumed = Scripted(script_agent[1:], kept)
    third, _ = _run(task, resumed, Scripted([], user.journal))
    assert third.messages == first.messages and len(resumed.asked) == len(script_agent) - 1

    dead, _ = _run(task, Scripted(script_agent), Scripted(["Create it."], fail_at=1))
    assert dead.termination_reason is None and "the user at step" in dead.failure and "connection refused" in \
        dead.failure


def test_an_empty_user_reply_ends_the_trial_as_tau2s_infrastructure_error_with_why_and_b4_names_it():
    task = _task("create_task_1")
    outcome, data = _run(task, Scripted(["Hello"]), Scripted([""]))
    assert (outcome.termination_reason, outcome.problem) == ("infrastructure_error",
                                                             "the user at step 0: an empty message")
    assert outcome.failure is None and len(outcome.messages) == 1
    trial = {"trial": 0, "termination_reason": outcome.termination_reason, "messages": outcome.messages,
             "problem": outcome.problem}
    normalized = {"id": [task["id"]], "task": [json.dumps(task)], "domain_folder": [str(DOMAINS / "mock")],
                  "trials": [json.dumps([trial])]}
    (evaluation,) = json.loads(get_kind("tau2").match(normalized, {"domain": "mock"})[0]["evaluations"][0])
    assert evaluation["reward"] == 0.0
    assert evaluation["note"] == ("terminated prematurely: infrastructure_error (the user at step 0: an empty "
                                  "message)")
    metrics = get_kind("tau2").metrics_from_stats(get_kind("tau2").score_stats(
        get_kind("tau2").match(normalized, {"domain": "mock"})[0]))
    assert metrics["infrastructure_errors"] == 1 and metrics["terminations"] == {"infrastructure_error": 1}
