"""evalpipe against tau2-bench 1.0.1 itself (tau2_reference/, written by make_tau2_reference.py in tau2's venv): the
same calls answered with the same JSON and errors, trial by trial the same reward (a task whose NL assertions decide
stays not judged), and pass^k equal to tau2's pass_hat_k."""
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import NOT_JUDGED, UNSCORABLE, evaluate
from stages.kinds.tau2.pass_k import pass_hat_k
from tests.stages.kinds.tau2.trajectories import DOMAINS, answer_digest, calls_trajectory

REFERENCE = Path(__file__).resolve().parent / "tau2_reference"
pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


def _rows():
    return [json.loads(line) for line in (REFERENCE / "reference.jsonl").read_text(encoding="utf-8").splitlines()]


def test_every_trajectory_scores_as_tau2_scored_it_with_the_same_tool_answers():
    tasks = {domain: {str(t["id"]): t for t in json.loads((DOMAINS / domain / "tasks.json").read_text())}
             for domain in ("retail", "mock")}
    data = {domain: read_domain(DOMAINS / domain) for domain in tasks}
    rows = _rows()
    assert len(rows) == 508
    for row in rows:
        task, domain_data = tasks[row["domain"]][row["task"]], data[row["domain"]]
        messages = calls_trajectory(task, domain_data, row["calls"], row["closing"])
        answers = [m for m in messages if m["role"] == "tool"][-len(row["calls"]):] if row["calls"] else []
        assert [answer_digest(m["content"]) for m in answers] == row["answers"], (row["task"], row["variant"])
        assert [m["error"] for m in answers] == row["errors"]
        evaluation = evaluate(task, domain_data, messages, row["termination_reason"])
        where = (row["domain"], row["task"], row["variant"], row["termination_reason"])
        if isinstance(row["reward"], str):
            assert evaluation.status == UNSCORABLE and row["reward"].removeprefix("error: ") in evaluation.note
        elif row["reward"] is None:
            expected = (NOT_JUDGED, None) if row["env_reward"] == 1.0 else ("scored", 0.0)
            assert (evaluation.status, evaluation.reward) == expected, where
        else:
            assert evaluation.reward == row["reward"], where
        if row["termination_reason"] == "agent_stop" and not isinstance(row["env_reward"], str):
            env = [evaluation.components.get(name, {"value": 1.0})["value"] for name in ("DB", "ENV_ASSERTION")]
            basis = task["evaluation_criteria"].get("reward_basis", ["DB", "COMMUNICATE"])
            counted = [v for name, v in zip(("DB", "ENV_ASSERTION"), env) if name in basis]
            assert float(all(v == 1.0 for v in counted)) == row["env_reward"], where


def test_pass_hat_k_equals_tau2s():
    for case in json.loads((REFERENCE / "pass_hat_k.json").read_text(encoding="utf-8")):
        assert pass_hat_k(case["trials"], case["successes"], case["k"]) == case["pass_hat_k"]
