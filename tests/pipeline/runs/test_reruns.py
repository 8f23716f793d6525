import json
import re

import luigi.configuration
import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import changed_artifacts, run, snapshot, write_jsonl


def test_first_run_writes_every_artifact_with_a_full_header(workspace):
    assert run(workspace) == 0
    out = workspace / "outputs"
    expected = {"B1_questions.json", "B6_report.json"}
    for dataset, models in (("qa_small", ("alpha", "beta")), ("claims", ("alpha",))):
        assert {p.name for p in (out / dataset).glob("*.json")} == expected
        for model in models:
            assert {p.name for p in (out / dataset / model).glob("*.json")} == {
                "B2_predictions.json", "B3_normalized.json", "B4_matches.json", "B5_component_scores.json"}
    header = read_artifact_json(out / "qa_small" / "beta" / "B3_normalized.json")["header"]
    assert {"stage", "dataset", "model", "fingerprint", "parameters", "upstream", "code_version", "created_at",
            "counts", "timings"} <= set(header)
    assert header["parameters"] == {"mode": "auto", "reasoning": {"open": "<think>", "close": "</think>"}}
    assert header["counts"] == {"questions": 4, "predictions": 3, "joined": 2, "replies": 2, "missing_predictions": 2,
                                "unmatched_predictions": 1, "closed_reasoning": 0, "unfinished_reasoning": 0}
    assert (out / "B6_summary.json").exists()


def test_qa_scores_through_the_pipeline(workspace):
    run(workspace)
    metrics = read_artifact_json(workspace / "outputs/qa_small/alpha/B5_component_scores.json")["metrics"]
    # 1 EM, 2 wrong, 3 EM (cjk: 北京。 = 北京), 4: "Austen" vs "Jane Austen" → P=1, R=1/2 → F1 = 2/3
    assert metrics["exact_match"] == pytest.approx(2 / 4)
    assert metrics["f1"] == pytest.approx((1 + 0 + 1 + 2 / 3) / 4)
    beta = read_artifact_json(workspace / "outputs/qa_small/beta/B5_component_scores.json")["metrics"]
    assert beta["exact_match"] == pytest.approx(2 / 4)  # two missing predictions stay in the denominator
    b3 = read_artifact_json(workspace / "outputs/qa_small/beta/B3_normalized.json")
    assert b3["missing_predictions"] == ["3", "4"] and b3["unmatched_predictions"] == ["9"]


def test_fact_verification_through_the_pipeline(workspace):
    run(workspace)
    metrics = read_artifact_json(workspace / "outputs/claims/alpha/B5_component_scores.json")["metrics"]
    assert metrics["accuracy"] == pytest.approx(3 / 4)
    assert metrics["confusion_matrix"]["unparsed"]["uncertain"] == 1
    assert metrics["labels"] == ["T", "F", "uncertain", "unparsed"]


def test_second_run_runs_nothing_and_rewrites_nothing(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    assert run(workspace) == 0
    assert snapshot(workspace / "outputs") == before


def test_a_rerun_with_nothing_changed_reads_no_input(workspace, monkeypatch):
    import os
    import time

    from stages.io import file_facts, shards, storage

    then = time.time() - 60
    for path in (workspace / "inputs").rglob("*"):
        os.utime(path, (then, then))  # settled inputs: their facts are kept between runs
    assert run(workspace) == 0
    before = snapshot(workspace / "outputs")
    monkeypatch.setattr(file_facts, "_FACTS", {})  # as in a new process
    monkeypatch.setattr(file_facts, "_KEEP", [])
    monkeypatch.setattr(storage, "_sha256", lambda path: pytest.fail(f"{path} hashed again"))
    monkeypatch.setattr(shards, "_count", lambda path, suffix: pytest.fail(f"{path} counted again"))
    assert run(workspace) == 0
    assert snapshot(workspace / "outputs") == before


def test_editing_one_model_reruns_only_that_model_and_the_dataset_report(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    write_jsonl(workspace / "inputs/qa_small/predictions/beta.jsonl",
                [{"id": "1", "prediction": "Lyon"}, {"id": "2", "prediction": "Jupiter"}])  # half the questions
    assert run(workspace) == 0
    assert changed_artifacts(before, snapshot(workspace / "outputs")) == {
        "qa_small/beta/B2_predictions.json", "qa_small/beta/B3_normalized.json", "qa_small/beta/B4_matches.json",
        "qa_small/beta/B5_component_scores.json", "qa_small/B6_report.json", "B6_summary.json"}


def test_changing_a_b4_threshold_in_dataset_toml_reruns_b4_onward(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    (workspace / "inputs/qa_small/dataset.toml").write_text("[params]\npartial_f1_threshold = 0.9\n")
    assert run(workspace) == 0
    assert changed_artifacts(before, snapshot(workspace / "outputs")) == {
        f"qa_small/{m}/{a}" for m in ("alpha", "beta") for a in ("B4_matches.json", "B5_component_scores.json")
    } | {"qa_small/B6_report.json", "B6_summary.json"}
    labels = read_artifact_json(workspace / "outputs/qa_small/alpha/B4_matches.json")["header"]["info"]["labels"]
    assert labels == {"correct": 2, "wrong": 2}  # F1 2/3 is no longer "partial" at 0.9


def test_changing_a_b4_threshold_in_luigi_cfg_reruns_b4_onward(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    config = luigi.configuration.get_config()
    added_section = not config.has_section("kind.qa")
    if added_section:
        config.add_section("kind.qa")
    previous = config.get("kind.qa", "partial_f1_threshold", None)
    config.set("kind.qa", "partial_f1_threshold", "0.25")
    try:
        assert run(workspace) == 0
    finally:
        if added_section:
            config.remove_section("kind.qa")
        elif previous is None:
            config.remove_option("kind.qa", "partial_f1_threshold")
        else:
            config.set("kind.qa", "partial_f1_threshold", previous)
    names = changed_artifacts(before, snapshot(workspace / "outputs"))
    assert "qa_small/alpha/B4_matches.json" in names and "qa_small/alpha/B3_normalized.json" not in names
    assert not any(n.startswith("claims/") for n in names)


def test_only_reruns_one_stage_and_its_dependents(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    assert run(workspace, "--only", "B4", "--dataset", "qa_small", "--model", "beta") == 0
    assert changed_artifacts(before, snapshot(workspace / "outputs")) == {
        "qa_small/beta/B4_matches.json", "qa_small/beta/B5_component_scores.json", "qa_small/B6_report.json"}
    assert (workspace / "outputs/B6_summary.json").exists()  # the same fingerprints: the summary is up to date


def test_force_reruns_the_whole_selection(workspace):
    run(workspace)
    before = snapshot(workspace / "outputs")
    assert run(workspace, "--force", "--dataset", "claims") == 0
    names = changed_artifacts(before, snapshot(workspace / "outputs"))
    assert names == {"claims/B1_questions.json", "claims/B6_report.json"} | {
        f"claims/alpha/{a}" for a in ("B2_predictions.json", "B3_normalized.json", "B4_matches.json",
                                      "B5_component_scores.json")}


def test_a_failed_stage_exits_nonzero_records_the_traceback_and_the_next_run_resumes(workspace, monkeypatch, capsys):
    from stages.kinds.qa import OpenQA

    def broken_match(self, normalized, params):
        raise RuntimeError("matcher exploded")

    monkeypatch.setattr(OpenQA, "match", broken_match)
    assert run(workspace, "--dataset", "qa_small") == 1
    assert "matcher exploded" in capsys.readouterr().err
    failures = sorted((workspace / "outputs/_failures").glob("*.json"))
    assert [p.name for p in failures] == ["B4__qa_small__alpha.json", "B4__qa_small__beta.json"]
    record = json.loads(failures[0].read_text())
    assert "RuntimeError: matcher exploded" in record["traceback"]
    before = snapshot(workspace / "outputs")
    assert not any(n.endswith("B4_matches.json") for n in before)

    monkeypatch.undo()
    assert run(workspace, "--dataset", "qa_small") == 0
    names = changed_artifacts(before, snapshot(workspace / "outputs"))
    assert not any("B1_" in n or "B2_" in n or "B3_" in n for n in names)  # resumed, not redone
    assert "qa_small/alpha/B4_matches.json" in names
    assert not list((workspace / "outputs/_failures").glob("*.json"))


def test_a_lost_intermediate_artifact_is_recomputed(workspace, capsys):
    outputs = workspace / "outputs"
    assert main(["run", "--inputs", str(workspace / "inputs"), "--outputs", str(outputs)]) == 0
    lost = outputs / "qa_small" / "alpha" / "B3_normalized.json"
    scores = (outputs / "qa_small" / "alpha" / "B5_component_scores.json").read_bytes()
    lost.unlink()
    capsys.readouterr()
    assert main(["run", "--inputs", str(workspace / "inputs"), "--outputs", str(outputs)]) == 0
    assert lost.exists()
    assert json.loads((outputs / "qa_small" / "alpha" / "B5_component_scores.json").read_bytes())["metrics"] == \
        json.loads(scores)["metrics"]
    assert "artifact(s) written" in capsys.readouterr().out


def test_a_one_dataset_run_leaves_the_summary_and_report_describing_every_dataset(workspace, capsys):
    assert run(workspace) == 0
    write_jsonl(workspace / "inputs/qa_small/predictions/alpha.jsonl", [
        {"id": str(i), "prediction": "wrong"} for i in range(1, 5)])
    assert run(workspace, "--dataset", "qa_small") == 0
    summary = read_artifact_json(workspace / "outputs/B6_summary.json")
    rows = {(row["dataset"], row["model"]): row for row in summary["rows"]}
    assert rows[("qa_small", "alpha")]["value"] == 0.0 and ("claims", "alpha") in rows
    assert summary["failed"] == {}
    assert run(workspace, "--only", "B3", "--dataset", "claims") == 0
    assert (workspace / "outputs/B6_summary.json").exists()
    capsys.readouterr()
    assert main(["status", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "(summary, report.html)" in last and last.endswith(" done")


def test_a_one_dataset_run_says_the_other_datasets_trouble_in_one_grey_line(workspace):
    """Issue #81: `--dataset claims` must not shout "Not fit to publish" in red about qa_small, which it did not run;
    a full run still does."""
    (workspace / "inputs/qa_small/questions.jsonl").write_text("")
    assert run(workspace) == 1
    html = (workspace / "outputs/report.html").read_text(encoding="utf-8")
    assert '<div class="banner bad"><strong>Not fit to publish:</strong><ul><li><strong>qa_small</strong>' in html
    assert run(workspace, "--dataset", "claims") == 0
    html = (workspace / "outputs/report.html").read_text(encoding="utf-8")
    assert "Not fit to publish:" not in html and 'class="banner bad"' not in html
    assert re.findall(r'<p class="muted earlier-trouble">([^<]*)</p>', html) == [
        "Not run this time, and not fit to publish as last reported: qa_small."]
    assert run(workspace) == 1  # every dataset asked for again: the page is written again, in red
    html = (workspace / "outputs/report.html").read_text(encoding="utf-8")
    assert '<div class="banner bad"><strong>Not fit to publish:</strong><ul><li><strong>qa_small</strong>' in html
    assert "earlier-trouble" not in html


def test_within_a_build_a_missing_upstream_artifact_is_looked_for_again(workspace):
    """Another worker may write a lost intermediate back while this process still runs the build: the stage after
    it must see it (remembering "absent" made luigid runs fail with an unfulfilled dependency)."""
    from pipeline.plan import Selection, discover
    from pipeline.task_base import fingerprints_remembered
    from pipeline.tasks import B4Match

    assert run(workspace) == 0
    outputs = str(workspace / "outputs")
    spec = next(s for s in discover(str(workspace / "inputs"), Selection(), outputs).specs if s["name"] == "qa_small")
    lost = workspace / "outputs" / "qa_small" / "alpha" / "B3_normalized.json"
    data = lost.read_bytes()
    lost.unlink()
    with fingerprints_remembered():
        matched = B4Match(outputs_dir=outputs, spec=spec, model="alpha")
        assert not matched.complete()
        lost.write_bytes(data)  # as another worker would
        assert matched.complete()


def test_a_damaged_artifact_is_rebuilt_and_status_and_show_say_so(workspace, capsys):
    rows = [{"id": str(i), "question": f"q{i}", "answers": [f"a{i}"]} for i in range(2100)]  # rows go to Parquet
    write_jsonl(workspace / "inputs/big/questions.jsonl", rows)
    write_jsonl(workspace / "inputs/big/predictions/m.jsonl", [{"id": r["id"], "prediction": r["answers"][0]}
                                                              for r in rows])
    assert run(workspace) == 0
    outputs = workspace / "outputs"
    garbled = outputs / "qa_small" / "alpha" / "B3_normalized.json"
    garbled.write_bytes(b"\x00garbage{")
    sidecar = next((outputs / "big" / "m").glob("B4_matches.*.parquet"))
    sidecar.unlink()
    status = ["status", "--inputs", str(workspace / "inputs"), "--outputs", str(outputs)]
    capsys.readouterr()
    assert main(status) == 0
    states = {tuple(line.split()[:3]): line for line in capsys.readouterr().out.splitlines()}
    assert "damaged (not readable JSON" in states[("B3", "qa_small", "alpha")]
    assert f"damaged (its rows file {sidecar.name} is missing" in states[("B4", "big", "m")]
    assert states[("B5", "big", "m")].endswith(" stale")  # computed from an artifact that is gone
    assert main(["show", "B4", "--dataset", "big", "--model", "m", "--outputs", str(outputs)]) == 2
    assert "is damaged: its rows file" in capsys.readouterr().err
    assert run(workspace) == 0
    written = re.search(r"(\d+) artifact\(s\) written", capsys.readouterr().out)
    assert int(written.group(1)) >= 6  # B3–B6 of qa_small / alpha, B4–B6 of big
    assert read_artifact_json(garbled)["header"]["stage"] == "B3" and sidecar.exists()
    report = read_artifact_json(outputs / "big" / "B6_report.json")["report"]
    assert report["models"]["m"]["exact_match"] == 1.0
    assert main(status) == 0
    assert all(line.endswith(" done") for line in capsys.readouterr().out.splitlines())
