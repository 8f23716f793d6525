"""tau2's results files (written by tau2 1.0.1's Results.save, make_tau2_reference.py) read as runs: the tasks the
file embeds, each task's trials with tau2's recorded reward, the domain folder from --data; rescored trial by trial
evalpipe gives what tau2's evaluate-trajs gives; what cannot be read is set aside with its place."""
import json

import pytest

from stages.core.errors import UsageError
from stages.harness.tau2 import read_tau2
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import evaluate
from tests.stages.kinds.tau2.test_tau2_reference import REFERENCE
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


def test_each_file_is_one_models_run_rescored_as_tau2_rescores_it():
    runs = read_tau2([REFERENCE / "results_mock.json", REFERENCE / "results_retail.json"], data=DOMAINS)
    assert [(r.task, r.model, r.kind, len(r.questions)) for r in runs] == [
        ("tau2_mock", "scripted-agent", "tau2", 10), ("tau2_retail", "scripted-agent", "tau2", 3)]
    tau2 = json.loads((REFERENCE / "results.json").read_text(encoding="utf-8"))
    for run, domain in zip(runs, ("mock", "retail")):
        assert run.params == {"domain_folder": str((DOMAINS / domain).resolve()), "domain": domain, "split": ""}
        tasks = {task["id"]: task for task in run.questions}
        data = read_domain(DOMAINS / domain)
        ours = {f"{p['id']}/{t['trial']}": evaluate(tasks[p["id"]], data, t["messages"], t["termination_reason"]).reward
                for p in run.predictions for t in p["trials"]}
        assert ours == tau2[domain]["rewards"]
    recorded = {f"{p['id']}/{t['trial']}": t["reward"] for p in runs[0].predictions for t in p["trials"]}
    assert recorded["update_task_1/1"] == 1.0 and tau2["mock"]["rewards"]["update_task_1/1"] == 0.0
    # the file's own figures, by tau2's rule with its infrastructure error left out (11 of 20 trials succeed, as
    # recorded: update_task_1's trial 1 counted a success)
    assert runs[0].metrics == pytest.approx({"pass_hat_1": 0.6, "pass_hat_2": 0.4, "avg_reward": 0.6})
    assert runs[1].metrics == pytest.approx({"pass_hat_1": tau2["retail"]["pass_hat_k"]["1"],
                                             "pass_hat_2": tau2["retail"]["pass_hat_k"]["2"],
                                             "avg_reward": tau2["retail"]["avg_reward"]})


def test_a_simulation_of_an_unknown_task_or_without_messages_is_set_aside(tmp_path):
    document = json.loads((REFERENCE / "results_mock.json").read_text(encoding="utf-8"))
    document["simulations"][0]["task_id"] = "nowhere"
    document["simulations"][1]["messages"] = None
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    (run,) = read_tau2([path], data=DOMAINS / "mock")
    assert run.set_aside == [f"{path}: simulation 1: task 'nowhere' is not among the file's tasks",
                             f"{path}: simulation 2: task create_task_1: no messages (a full-duplex run's ticks are "
                             "not read)"]
    assert sum(len(p["trials"]) for p in run.predictions) == len(document["simulations"]) - 2


def test_an_airline_file_is_refused_and_a_missing_domain_folder_is_said(tmp_path):
    document = json.loads((REFERENCE / "results_mock.json").read_text(encoding="utf-8"))
    document["info"]["environment_info"]["domain_name"] = "airline"
    path = tmp_path / "airline.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    (skipped,) = read_tau2([path], data=DOMAINS)
    assert skipped.refused and "airline's database is not in the shared data" in skipped.reason
    with pytest.raises(UsageError, match="no db.json of tau2's mock domain found"):
        read_tau2([REFERENCE / "results_mock.json"], data=tmp_path)


def test_a_file_of_tau2_0x_is_skipped_with_its_file_and_why_and_the_others_are_read(tmp_path):
    document = json.loads((REFERENCE / "results_mock.json").read_text(encoding="utf-8"))
    for name in ("text_streaming_config", "speech_complexity", "audio_native_config", "retrieval_config",
                 "retrieval_config_kwargs"):  # what tau2 0.1.3's Info lacks (its tag's data_model/simulation.py)
        del document["info"][name]
    document["info"]["git_commit"] = "5ba9e3e56db57c5e4114bf7f901291f09b2c5619"  # tag v0.1.3
    for simulation in document["simulations"]:
        del simulation["mode"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    skipped, run = read_tau2([path, REFERENCE / "results_retail.json"], data=DOMAINS)
    assert not skipped.refused and skipped.file == str(path)  # reported, the other file imported
    assert skipped.reason.startswith("written by tau2 0.x (commit 5ba9e3e56db57c5e4114bf7f901291f09b2c5619: ")
    assert run.task == "tau2_retail" and len(run.questions) == 3
