"""The tau2 kind on telecom's small split end to end: tasks read from the shared TOML domain folder, a model whose
trials are the gold calls (the agent's and the user's) scores pass^1 = pass^2 = 100%, one whose trials drop the last
state-changing call 0%, with the unmet env assertion named in B4; and such a run of four tasks written by `evalpipe
export tau2` as tau2's results file (committed as tau2_reference/exported_telecom.json), which tau2 1.0.1's own
`tau2 evaluate-trajs` rescores to evalpipe's rewards (telecom_export_rescored.json, make_tau2_export_check.py) —
the file tau2 wrote then (results_telecom.json) imported and rescored alike."""
import json
import sys
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from stages.kinds.tau2.domains import read_domain
from tests.pipeline.kinds.tau2_runs import exported_results, trial_rewards
from tests.pipeline.workspace import run, write_jsonl
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

FOLDER = DOMAINS / "telecom"
REFERENCE = Path(__file__).resolve().parents[2] / "stages" / "kinds" / "tau2" / "tau2_reference"
EXPORTED = ("[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]",
            "[mobile_data_issue]data_usage_exceeded[PERSONA:Easy]",
            "[service_issue]overdue_bill_suspension[PERSONA:Easy]", "[service_issue]lock_sim_card_pin[PERSONA:Hard]")
pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason="the shared tau2 data is not here")


def _dataset(workspace: Path, task_ids: tuple[str, ...] | None, models: dict[str, tuple]) -> list[dict]:
    """A telecom dataset of the small split's tasks (those named, else all) and per model a trial a task for each of
    `models[model]`: its gold calls up to there (None: all of them), ended by the user."""
    dataset = workspace / "inputs" / "telecom"
    dataset.mkdir(parents=True)
    tasks = [task for task in json.loads((FOLDER / "tasks_small.json").read_text(encoding="utf-8"))
             if task_ids is None or task["id"] in task_ids]
    (dataset / "questions.json").write_text(json.dumps(tasks), encoding="utf-8")
    (dataset / "dataset.toml").write_text(f'kind = "tau2"\n[params]\ndomain_folder = "{FOLDER.resolve()}"\n'
                                          'split = "small"\n', encoding="utf-8")
    data = read_domain(FOLDER)
    for model, keeps in models.items():
        write_jsonl(dataset / "predictions" / f"{model}.jsonl", [
            {"id": task["id"], "trials": [
                {"trial": trial, "termination_reason": "user_stop",
                 "messages": calls_trajectory(task, data, task["evaluation_criteria"]["actions"][:keep])}
                for trial, keep in enumerate(keeps)]} for task in tasks])
    return tasks


def test_telecoms_small_split_runs_gold_trials_to_1_and_dropped_ones_to_0(tmp_path):
    assert len(_dataset(tmp_path, None, {"gold": (None, None), "lazy": (-1, -1)})) == 20
    assert run(tmp_path) == 0
    text = [" ".join(line.split()) for line in
            (tmp_path / "outputs" / "telecom" / "B6_report.txt").read_text(encoding="utf-8").splitlines()]
    assert "gold 20 40 100.00% 100.00% 100.00% 0 0" in text and "lazy 20 40 0.00% 0.00% 0.00% 0 0" in text
    b4 = read_columns(tmp_path / "outputs" / "telecom" / "lazy" / "B4_matches.json")
    trials = {task: json.loads(text) for task, text in zip(b4["id"], b4["evaluations"])}
    roaming = trials["[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]"][0]
    assert roaming["note"] == "0 by ENV_ASSERTION"
    assert roaming["components"]["ENV_ASSERTION"]["reason"].startswith("not met: assert_mobile_data_status(")


def exported_run(workspace: Path) -> dict:
    """The four tasks' run (gold calls; the last dropped) as `evalpipe export tau2` writes it, timestamps blanked."""
    assert len(_dataset(workspace, EXPORTED, {"agent-t": (None, -1)})) == 4
    assert run(workspace) == 0
    return exported_results(workspace, "telecom")


def test_the_exported_telecom_run_is_rescored_by_tau2s_evaluate_trajs_to_evalpipes_rewards(tmp_path):
    results = exported_run(tmp_path)
    assert results == json.loads((REFERENCE / "exported_telecom.json").read_text(encoding="utf-8"))
    assert results["info"]["environment_info"]["domain_name"] == "telecom"
    assert results["info"]["environment_info"]["policy"] == read_domain(FOLDER).policy
    ours = trial_rewards(tmp_path / "outputs" / "telecom" / "agent-t" / "B4_matches.json")
    rescored = json.loads((REFERENCE / "telecom_export_rescored.json").read_text(encoding="utf-8"))
    assert ours == rescored["rewards"] and sorted(set(ours.values())) == [0.0, 1.0]
    assert rescored["rewritten"] == []  # tau2's Results model loads and dumps the export back as written


if __name__ == "__main__":  # the fixture tau2 rescores: python -m tests.pipeline.kinds.test_tau2_telecom_pipeline DIR
    (REFERENCE / "exported_telecom.json").write_text(json.dumps(exported_run(Path(sys.argv[1])), indent=1) + "\n")


def test_a_telecom_results_file_imports_and_rescores_to_tau2s_rewards(tmp_path):
    inputs = tmp_path / "inputs"
    assert main(["import", "tau2", str(REFERENCE / "results_telecom.json"), "--data", str(DOMAINS),
                 "--inputs", str(inputs)]) == 0
    assert run(tmp_path) == 0
    b4 = read_columns(tmp_path / "outputs" / "tau2_telecom" / "agent-t" / "B4_matches.json")
    rewards = {f"{task}/{e['trial']}": e["reward"] for task, text in zip(b4["id"], b4["evaluations"])
               for e in json.loads(text)}
    assert rewards == json.loads((REFERENCE / "telecom_export_rescored.json").read_text(encoding="utf-8"))["rewards"]
    report = read_artifact_json(tmp_path / "outputs" / "tau2_telecom" / "B6_report.json")["report"]
    assert report["models"]["agent-t"]["disagreements_with_file"] == []
    assert report["models"]["agent-t"]["pass_hat_k"] == {"1": 0.5, "2": 0.0}
