"""Writes tau2_reference/db_hash.json: what tau2-bench 1.0.1 says of telecom trajectories whose database differs from
the gold one only by a number's type (not part of the suite). tau2 compares databases by the sha256 of their JSON dump
(Environment.get_db_hash: json.dumps(db.model_dump(), sort_keys=True, default=str)), so a value written as 2.0 where
the gold call wrote 2 is another database. The user's set_apn_settings keeps an argument that is not an object as the
phone's APN settings before it fails (its user database is changed), so the task below — the small split's first,
its gold action the user's set_apn_settings(2), reward basis DB — is scored on trajectories calling it with 2, 2.0 and 3:

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_db_hash_reference.py
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from tau2.data_model.simulation import TerminationReason
from tau2.data_model.tasks import Task
from tau2.evaluator.evaluator import EvaluationType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_tau2_telecom_reference import FOLDER, score, trajectory  # noqa: E402

OUT = Path(__file__).resolve().parent / "tau2_reference" / "db_hash.json"


def main() -> None:
    raw = copy.deepcopy(json.loads((FOLDER / "tasks_small.json").read_text())[0])
    raw["evaluation_criteria"] = {"actions": [{"action_id": "apn", "requestor": "user", "name": "set_apn_settings",
                                               "arguments": {"apn_settings": 2}}], "reward_basis": ["DB"]}
    task = Task.model_validate(raw)
    trials = []
    for value in (2, 2.0, 3):
        calls = [{"name": "set_apn_settings", "arguments": {"apn_settings": value}, "requestor": "user"}]
        messages, _, errors = trajectory(task, calls)
        reward, db_match = score(task, messages, TerminationReason.USER_STOP, EvaluationType.ALL)
        trials.append({"calls": calls, "errors": errors, "reward": reward, "db_match": db_match})
    OUT.write_text(json.dumps({"tool": "tau2 1.0.1 evaluate_simulation", "task": raw, "trials": trials},
                              indent=1) + "\n")
    print([(t["calls"][0]["arguments"], t["reward"], t["db_match"]) for t in trials], file=sys.stderr)


if __name__ == "__main__":
    main()
