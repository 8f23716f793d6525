"""The tau2 kind end to end on its conformance folder (a made-up mock domain, two models): the text report shows
pass^1 and pass^2 and the tasks left out, B4 names why each trial scored as it did, and editing the domain's db.json reruns B1 onward (a run after
it writes nothing)."""
import json
import shutil

from stages.io.artifacts import read_columns
from tests.pipeline.workspace import REPO, changed_artifacts, run, snapshot

CONFORMANCE = REPO / "tests" / "stages" / "kinds" / "tau2" / "conformance"


def test_the_fixture_runs_names_each_trials_reason_and_reruns_when_the_database_changes(tmp_path):
    shutil.copytree(CONFORMANCE, tmp_path / "inputs" / "todo", ignore=shutil.ignore_patterns("expected.json"))
    assert run(tmp_path) == 0
    b4 = read_columns(tmp_path / "outputs" / "todo" / "bad" / "B4_matches.json")
    trials = {task: json.loads(text) for task, text in zip(b4["id"], b4["evaluations"])}
    assert trials["create"][0]["components"]["DB"]["reason"] == "the database differs from the gold actions' at tasks/task_2"
    assert trials["create"][1]["note"] == "terminated prematurely: max_steps"
    assert [t["status"] for t in trials["judged"]] == ["scored", "not judged"]
    assert dict(zip(b4["id"], b4["status"])) == {"create": "wrong", "complete": "correct", "judged": "scored"}
    before = snapshot(tmp_path / "outputs")
    db = tmp_path / "inputs" / "todo" / "db.json"
    tables = json.loads(db.read_text())
    tables["tasks"]["task_1"]["title"] = "Water the roses"
    db.write_text(json.dumps(tables))
    assert run(tmp_path) == 0
    changed = changed_artifacts(before, snapshot(tmp_path / "outputs"))
    assert "todo/B1_questions.json" in changed and "todo/good/B4_matches.json" in changed
    settled = snapshot(tmp_path / "outputs")
    assert run(tmp_path) == 0 and changed_artifacts(settled, snapshot(tmp_path / "outputs")) == set()
    text = (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8").splitlines()
    assert text[0].split() == ["model", "tasks", "trials", "pass^1", "pass^2", "avg", "reward", "not", "judged",
                               "infra", "errors"]
    assert text[2].split() == ["bad", "2", "4", "50.00%", "50.00%", "50.00%", "1", "0"]
    assert "good: tasks left out of pass^k (a trial not judged): judged" in text
    # create 0 of 2, complete 2 of 2 (judged left out): per task pass^1 and pass^2 are 0 and 1, Wilson's (1 of 2)
    assert "bad mock/all 2 50.00% [9.45%, 90.55%] 50.00% [9.45%, 90.55%]" in [" ".join(line.split()) for line in text]
    b5 = read_columns(tmp_path / "outputs" / "todo" / "bad" / "B5_component_scores.json")
    assert {task: (b5["pass_hat_1"][i], b5["pass_hat_2"][i], b5["pass_hat_3"][i]) for i, task in enumerate(b5["id"])} \
        == {"create": (0.0, 0.0, None), "complete": (1.0, 1.0, None), "judged": (None, None, None)}


def test_a_leaderboard_named_in_params_is_shown_beside_the_runs_pass_k_with_its_caveat(tmp_path):
    dataset = tmp_path / "inputs" / "todo"
    shutil.copytree(CONFORMANCE, dataset, ignore=shutil.ignore_patterns("expected.json"))
    (dataset / "board" / "x_org_2026").mkdir(parents=True)
    (dataset / "board" / "manifest.json").write_text(json.dumps({"submissions": ["x_org_2026", "gone"]}))
    (dataset / "board" / "x_org_2026" / "submission.json").write_text(json.dumps(
        {"model_name": "X", "results": {"mock": {"pass_1": 80.0, "pass_2": 70.0, "pass_3": 65.0, "pass_4": 60.0}},
         "methodology": {"tau2_bench_version": "1.0.1", "user_simulator": "gpt-4.1-2025-04-14"}}))
    (dataset / "dataset.toml").write_text('kind = "tau2"\n[params]\nleaderboard = "board"\n')
    assert run(tmp_path) == 0
    text = (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8")
    assert f"published τ²-bench board, mock (1 submissions, {dataset / 'board'}):\nthe board compares agents" in text
    assert "bad: pass^k up to k = 2 only (the board's: 4 trials)" in text
    assert f"{dataset / 'board' / 'gone' / 'submission.json'}: not readable (No such file or directory)" in text
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line.startswith(("x_org", "bad ("))}
    assert rows["x_org_2026"] == ["1.0.1", "gpt-4.1-2025-04-14", "80.00%", "70.00%", "65.00%", "60.00%"]
    assert rows["bad"] == ["(this", "run)", "—", "not", "recorded", "50.00%", "50.00%", "n/a", "n/a"]
    assert "bad: user simulator not recorded (trials not asked live): the board's is gpt-4.1" in text
