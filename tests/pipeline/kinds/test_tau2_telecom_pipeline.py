"""The tau2 kind on telecom's small split end to end: tasks read from the shared TOML domain folder, a model whose
trials are the gold calls (the agent's and the user's) scores pass^1 = pass^2 = 100%, one whose trials drop the last
state-changing call 0%, with the unmet env assertion named in B4."""
import json

import pytest

from stages.io.artifacts import read_columns
from stages.kinds.tau2.domains import read_domain
from tests.pipeline.workspace import run, write_jsonl
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

FOLDER = DOMAINS / "telecom"
pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason="the shared tau2 data is not here")


def test_telecoms_small_split_runs_gold_trials_to_1_and_dropped_ones_to_0(tmp_path):
    dataset = tmp_path / "inputs" / "telecom"
    dataset.mkdir(parents=True)
    tasks = json.loads((FOLDER / "tasks_small.json").read_text(encoding="utf-8"))
    (dataset / "questions.json").write_text(json.dumps(tasks), encoding="utf-8")
    (dataset / "dataset.toml").write_text(f'kind = "tau2"\n[params]\ndomain_folder = "{FOLDER.resolve()}"\n'
                                          'split = "small"\n', encoding="utf-8")
    data = read_domain(FOLDER)
    for model, keep in (("gold", None), ("lazy", -1)):
        write_jsonl(dataset / "predictions" / f"{model}.jsonl", [
            {"id": task["id"], "trials": [
                {"trial": trial, "termination_reason": "user_stop",
                 "messages": calls_trajectory(task, data, task["evaluation_criteria"]["actions"][:keep])}
                for trial in (0, 1)]} for task in tasks])
    assert run(tmp_path) == 0
    text = [" ".join(line.split()) for line in
            (tmp_path / "outputs" / "telecom" / "B6_report.txt").read_text(encoding="utf-8").splitlines()]
    assert "gold 20 40 100.00% 100.00% 100.00% 0 0" in text and "lazy 20 40 0.00% 0.00% 0.00% 0 0" in text
    b4 = read_columns(tmp_path / "outputs" / "telecom" / "lazy" / "B4_matches.json")
    trials = {task: json.loads(text) for task, text in zip(b4["id"], b4["evaluations"])}
    roaming = trials["[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]"][0]
    assert roaming["note"] == "0 by ENV_ASSERTION"
    assert roaming["components"]["ENV_ASSERTION"]["reason"].startswith("not met: assert_mobile_data_status(")
