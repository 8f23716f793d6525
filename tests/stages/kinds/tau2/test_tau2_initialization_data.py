"""A telecom task with `initialization_data` (none shipped has one) scored as tau2-bench 1.0.1 scores it
(tau2_reference/initialization_data.json, make_tau2_initialization_reference.py in tau2's venv): tau2's set_state
hands one side's tools the other side's database, so its evaluator fails on every such task — evalpipe says the trial
cannot be evaluated, and why, rather than give it a reward; mock's shipped task with agent_data still scores."""
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import UNSCORABLE, evaluate
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

REFERENCE = Path(__file__).resolve().parent / "tau2_reference" / "initialization_data.json"
pytestmark = pytest.mark.skipif(not (DOMAINS / "telecom").is_dir(), reason="the shared tau2 data is not here")


def test_telecom_initialization_data_is_unscorable_where_tau2s_evaluator_fails_on_it():
    cases = json.loads(REFERENCE.read_text(encoding="utf-8"))["cases"]
    assert len(cases) == 4 and all("raised" in case and "reward" not in case for case in cases)
    data = read_domain(DOMAINS / "telecom")
    for case in cases:
        evaluation = evaluate(case["task"], data, [{"role": "assistant", "content": "Done."}], "user_stop")
        assert (evaluation.status, evaluation.reward) == (UNSCORABLE, None), case["case"]
        assert evaluation.note == ("cannot evaluate (tau2 fails too): telecom's initialization_data: tau2 1.0.1's "
                                   "set_state then gives one side's tools the other side's database and fails")


def test_mocks_task_with_agent_data_still_scores_its_gold_calls_to_1():
    data = read_domain(DOMAINS / "mock")
    (task,) = [t for t in json.loads((DOMAINS / "mock" / "tasks.json").read_text(encoding="utf-8"))
               if t["id"] == "update_task_with_initialization_data"]
    task = {**task, "evaluation_criteria": {**task["evaluation_criteria"], "reward_basis": ["DB"]}}
    messages = calls_trajectory(task, data, task["evaluation_criteria"]["actions"])
    assert evaluate(task, data, messages, "user_stop").reward == 1.0
    assert evaluate(task, data, calls_trajectory(task, data, []), "user_stop").reward == 0.0
