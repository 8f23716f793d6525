"""Databases compared as tau2 compares them — by their JSON dump (tau2's get_db_hash), so a number written as 2.0
where the gold call wrote 2 is another database: the rewards tau2-bench 1.0.1 gives (tau2_reference/db_hash.json,
make_tau2_db_hash_reference.py in tau2's venv) of a telecom task whose gold action is the user's set_apn_settings(2)."""
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import evaluate
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

REFERENCE = Path(__file__).resolve().parent / "tau2_reference" / "db_hash.json"
pytestmark = pytest.mark.skipif(not (DOMAINS / "telecom").is_dir(), reason="the shared tau2 data is not here")


def test_a_float_written_where_the_gold_wrote_an_equal_int_is_another_database_as_in_tau2():
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    data, task = read_domain(DOMAINS / "telecom"), reference["task"]
    scored = []
    for trial in reference["trials"]:
        messages = calls_trajectory(task, data, trial["calls"])
        assert [m["error"] for m in messages if m["role"] == "tool"] == trial["errors"]
        evaluation = evaluate(task, data, messages, "user_stop")
        scored.append((evaluation.reward, not evaluation.db_difference))
    assert scored == [(t["reward"], t["db_match"]) for t in reference["trials"]] == [
        (1.0, True), (0.0, False), (0.0, False)]
