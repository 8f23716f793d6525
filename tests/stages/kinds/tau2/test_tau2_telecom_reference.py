"""Telecom (small split) against tau2-bench 1.0.1 itself (tau2_reference/telecom.jsonl, written by
make_tau2_telecom_reference.py in tau2's venv): every trajectory's calls — the agent's and the user's — answered with
the same text and errors, the same reward, ENV-only reward and database match, trial by trial."""
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import evaluate
from tests.stages.kinds.tau2.trajectories import DOMAINS, answer_digest, calls_trajectory

REFERENCE = Path(__file__).resolve().parent / "tau2_reference" / "telecom.jsonl"
FOLDER = DOMAINS / "telecom"
pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason="the shared tau2 data is not here")


@pytest.fixture(scope="module")
def telecom():
    return read_domain(FOLDER), {t["id"]: t for t in json.loads((FOLDER / "tasks_small.json").read_text())}


def test_every_trajectory_scores_as_tau2_scored_it_with_the_same_tool_answers(telecom):
    data, tasks = telecom
    rows = [json.loads(line) for line in REFERENCE.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 151 and {row["task"] for row in rows} == set(tasks)
    for row in rows:
        task, where = tasks[row["task"]], (row["task"], row["variant"], row["termination_reason"])
        messages = calls_trajectory(task, data, row["calls"])
        answers = [m for m in messages if m["role"] == "tool"]
        assert [answer_digest(m["content"]) for m in answers] == row["answers"], where
        assert [m["error"] for m in answers] == row["errors"], where
        evaluation = evaluate(task, data, messages, row["termination_reason"])
        assert evaluation.reward == row["reward"], where
        if row["termination_reason"] == "agent_stop":
            assert (not evaluation.db_difference) == row["db_match"], (where, evaluation.db_difference)
            env = evaluation.components.get("ENV_ASSERTION", {"value": 1.0})["value"]
            assert env == row["env_reward"], where
