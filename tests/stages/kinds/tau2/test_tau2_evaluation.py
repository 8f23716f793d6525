"""Every retail and mock task's gold actions, replayed as an agent's calls, score as tau2 scores them; one action
dropped or one argument changed scores 0 with the DB component named; the termination and the other components
decide as tau2's evaluate_simulation does."""
import copy
import json

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import NOT_JUDGED, SCORED, UNSCORABLE, evaluate
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")

# the gold actions alone do not meet these tasks' env assertions (the agent must also act on task_2 / the user
# must dismiss the notification); tau2 1.0.1's evaluator gives 0 too (reference.json)
ASSERTION_NEEDS_MORE = {"update_task_with_history_and_env_assertions", "update_task_with_user_tools"}


def _tasks(domain):
    return json.loads((DOMAINS / domain / "tasks.json").read_text(encoding="utf-8"))


def _closing(task):
    return " ".join(task["evaluation_criteria"].get("communicate_info") or []) or "Done."


@pytest.mark.parametrize("domain", ["retail", "mock"])
def test_the_gold_actions_of_every_task_score_1_or_wait_for_the_judge(domain):
    data = read_domain(DOMAINS / domain)
    outcomes = {}
    for task in _tasks(domain):
        actions = task["evaluation_criteria"].get("actions") or []
        evaluation = evaluate(task, data, calls_trajectory(task, data, actions, _closing(task)), "agent_stop")
        outcomes[task["id"]] = (evaluation.status, evaluation.reward)
        if task["id"] in ASSERTION_NEEDS_MORE:
            assert (evaluation.reward, evaluation.components["ENV_ASSERTION"]["value"]) == (0.0, 0.0)
        elif task["evaluation_criteria"].get("nl_assertions") and "NL_ASSERTION" in task["evaluation_criteria"].get(
                "reward_basis", ["DB", "COMMUNICATE"]):
            assert (evaluation.status, evaluation.reward) == (NOT_JUDGED, None), task["id"]
            assert all(part["value"] == 1.0 for name, part in evaluation.components.items() if name != "NL_ASSERTION")
        else:
            assert (evaluation.status, evaluation.reward) == (SCORED, 1.0), (task["id"], evaluation)
    if domain == "retail":
        assert sum(o == (SCORED, 1.0) for o in outcomes.values()) == 74
        assert sum(o == (NOT_JUDGED, None) for o in outcomes.values()) == 40


def _writes(task, data):
    """Positions of the gold actions that change the database and succeed (a few tasks' gold write fails)."""
    actions = task["evaluation_criteria"]["actions"]
    answers = [m for m in calls_trajectory(task, data, actions) if m["role"] == "tool"]
    return [i for i, a in enumerate(actions)
            if data.domain.tools.mutates(a["name"]) and not answers[i]["error"]]


def test_a_dropped_write_or_a_changed_argument_scores_0_by_the_database():
    data = read_domain(DOMAINS / "retail")
    checked, failing_gold = 0, 0
    for task in _tasks("retail"):
        actions = task["evaluation_criteria"]["actions"]
        writes = _writes(task, data)
        if not writes:
            failing_gold += any(data.domain.tools.mutates(a["name"]) for a in actions)
            continue
        dropped = [a for i, a in enumerate(actions) if i != writes[-1]]
        evaluation = evaluate(task, data, calls_trajectory(task, data, dropped, _closing(task)), "agent_stop")
        assert evaluation.reward == 0.0 and evaluation.components["DB"]["value"] == 0.0, task["id"]
        assert "0 by DB" in evaluation.note and evaluation.db_difference
        changed = copy.deepcopy(actions)
        arguments = changed[writes[-1]]["arguments"]
        if "reason" in arguments:
            arguments["reason"] = "ordered by mistake" if arguments["reason"] != "ordered by mistake" else \
                "no longer needed"
        elif "address1" in arguments:
            arguments["address1"] = arguments["address1"] + " Annex"
        elif "item_ids" in arguments and len(arguments["item_ids"]) > 1:
            arguments["item_ids"] = arguments["item_ids"][:-1]
            if "new_item_ids" in arguments:
                arguments["new_item_ids"] = arguments["new_item_ids"][:-1]
        else:
            continue
        evaluation = evaluate(task, data, calls_trajectory(task, data, changed, _closing(task)), "agent_stop")
        assert evaluation.reward == 0.0 and evaluation.components["DB"]["value"] == 0.0, task["id"]
        checked += 1
    assert checked > 30 and failing_gold < 5


def test_a_trial_not_ended_by_agent_or_user_scores_0_whatever_it_did():
    data = read_domain(DOMAINS / "retail")
    task = _tasks("retail")[0]
    messages = calls_trajectory(task, data, task["evaluation_criteria"]["actions"])
    for reason in ("max_steps", "too_many_errors", "agent_error", "user_error", "infrastructure_error"):
        evaluation = evaluate(task, data, messages, reason)
        assert (evaluation.reward, evaluation.note) == (0.0, f"terminated prematurely: {reason}")
    assert evaluate(task, data, messages, "user_stop").reward == 1.0


def test_communicate_info_is_found_in_agent_messages_lower_cased_without_commas():
    data = read_domain(DOMAINS / "mock")
    task = {"id": "t", "evaluation_criteria": {"actions": [], "communicate_info": ["1000 dollars"],
                                               "reward_basis": ["COMMUNICATE"]}}
    said = [{"role": "assistant", "content": "That is 1,000 Dollars."}]
    assert evaluate(task, data, said, "agent_stop").reward == 1.0
    by_user = [{"role": "user", "content": "1000 dollars"}]
    evaluation = evaluate(task, data, by_user, "agent_stop")
    assert evaluation.reward == 0.0 and evaluation.components["COMMUNICATE"]["reason"] == "not said: 1000 dollars"


def test_action_matches_by_compare_args_and_a_nl_task_already_0_needs_no_judge():
    data = read_domain(DOMAINS / "mock")
    task = next(t for t in _tasks("mock") if t["id"] == "impossible_task_1")
    transfer = [{"name": "transfer_to_human_agents", "arguments": {"summary": "anything at all"}}]
    assert evaluate(task, data, calls_trajectory(task, data, transfer), "agent_stop").reward == 1.0
    evaluation = evaluate(task, data, calls_trajectory(task, data, []), "agent_stop")
    assert evaluation.reward == 0.0 and evaluation.components["ACTION"]["value"] == 0.0
    judged = next(t for t in _tasks("mock") if t["id"] == "create_task_1_nl_eval")
    evaluation = evaluate({**judged, "evaluation_criteria": {**judged["evaluation_criteria"],
                                                              "reward_basis": ["DB", "NL_ASSERTION"],
                                                              "actions": [{"action_id": "a", "name": "create_task",
                                                                           "arguments": {"user_id": "user_1",
                                                                                         "title": "x"}}]}},
                          data, calls_trajectory(judged, data, []), "agent_stop")
    assert (evaluation.status, evaluation.reward) == (SCORED, 0.0)


def test_a_trajectory_whose_tool_message_answers_no_call_is_unscorable():
    data = read_domain(DOMAINS / "mock")
    task = _tasks("mock")[0]
    broken = [{"role": "tool", "id": "x", "content": "{}"}]
    evaluation = evaluate(task, data, broken, "agent_stop")
    assert evaluation.status == UNSCORABLE and "follows no tool call" in evaluation.note
