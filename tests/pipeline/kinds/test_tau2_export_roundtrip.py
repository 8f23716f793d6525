"""`evalpipe export tau2` then `evalpipe import tau2`: a run of retail, mock and telecom tasks (each task's gold calls,
then the same with its last call dropped; retail's task 2 not judged, its NL assertions asked of no judge) exported as tau2 1.0.1's results file is imported as tau2's own (not set
aside as another version's) and rescored to the very rewards the file carries — no disagreement named."""
import json
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from stages.kinds.tau2.domains import read_domain
from tests.pipeline.workspace import run, write_jsonl
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")
TASKS = {"retail": ("tasks.json", "base", ("0", "1", "2")),
         "mock": ("tasks.json", "base", ("create_task_1", "update_task_1", "impossible_task_1")),
         "telecom": ("tasks_small.json", "small", ("[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]",
                                          "[service_issue]overdue_bill_suspension[PERSONA:Easy]"))}


def _exported(workspace: Path, domain: str) -> Path:
    """A run of the domain's tasks by model `agent-x` (trial 0 all gold calls, trial 1 the last one dropped) and
    the results file `evalpipe export tau2` writes of it."""
    file_name, split, ids = TASKS[domain]
    folder = DOMAINS / domain
    tasks = [task for task in json.loads((folder / file_name).read_text(encoding="utf-8")) if task["id"] in ids]
    dataset = workspace / "inputs" / domain
    dataset.mkdir(parents=True)
    (dataset / "questions.json").write_text(json.dumps(tasks), encoding="utf-8")
    (dataset / "dataset.toml").write_text(f'kind = "tau2"\n[params]\ndomain_folder = "{folder.resolve()}"\n'
                                          f'split = "{split}"\n',
                                          encoding="utf-8")
    data = read_domain(folder)
    write_jsonl(dataset / "predictions" / "agent-x.jsonl", [
        {"id": task["id"], "trials": [
            {"trial": trial, "termination_reason": "user_stop",
             "messages": calls_trajectory(task, data, task["evaluation_criteria"]["actions"][:keep])}
            for trial, keep in enumerate((None, -1))]} for task in tasks])
    assert run(workspace) == 0
    out = workspace / "results.json"
    assert main(["export", "tau2", "--outputs", str(workspace / "outputs"), "--dataset", domain,
                 "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("domain", sorted(TASKS))
def test_an_exported_run_imports_as_tau2s_file_and_rescores_to_its_own_rewards(tmp_path, domain):
    exported = _exported(tmp_path / "first", domain)
    written = {f"{s['task_id']}/{s['trial']}": (s["reward_info"] or {}).get("reward")  # None: not judged
               for s in json.loads(exported.read_text(encoding="utf-8"))["simulations"]}
    assert len(written) == 2 * len(TASKS[domain][2]) and 1.0 in written.values() and 0.0 in written.values()
    again = tmp_path / "second"
    assert main(["import", "tau2", str(exported), "--data", str(DOMAINS), "--inputs", str(again / "inputs")]) == 0
    assert run(again) == 0
    report = read_artifact_json(again / "outputs" / f"tau2_{domain}" / "B6_report.json")["report"]
    assert report["problems"] == [] and report["models"]["agent-x"]["disagreements_with_file"] == []
    b4 = read_columns(again / "outputs" / f"tau2_{domain}" / "agent-x" / "B4_matches.json")
    assert {f"{task}/{e['trial']}": e["reward"] for task, text in zip(b4["id"], b4["evaluations"])
            for e in json.loads(text)} == written
