"""Nothing lost, nothing stuck: raters' labels survive reruns, fixed failures clear, bad settings stop before any
stage runs, datasets with nothing (or too little) to score fail the run, one run at a time per outputs folder."""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import luigi.configuration
import pytest

from pipeline.run_lock import outputs_lock
from stages.io.artifacts import read_artifact_json
from stages.kinds import get_kind
from stages.kinds.base import KINDS
from tests.pipeline.workspace import REPO, run, write_jsonl

REPO = REPO
DEMO = REPO / "inputs"


def _csv_rows(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


def _write_csv(path: Path, rows: list[dict]) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_bytes(buffer.getvalue().encode("utf-8-sig"))


def test_raters_labels_survive_a_rerun_that_regenerates_the_csv(tmp_path, capsys):
    inputs = tmp_path / "inputs"
    shutil.copytree(DEMO / "peppa_dialogue", inputs / "peppa_dialogue")
    outputs = tmp_path / "outputs"
    args = ["--inputs", str(inputs), "--outputs", str(outputs)]
    from pipeline.cli import main

    assert main(["run", *args]) == 0
    sheet = outputs / "peppa_dialogue" / "B6_human_annotation.csv"
    rows = _csv_rows(sheet)
    for number, row in enumerate(rows):
        row["content_correct"], row["style_consistent"] = ("是" if number % 2 else "0"), "1"
        row["notes"] = f"rater note {number}"
    _write_csv(sheet, rows)
    typed = {(r["model"], r["scene"], r["dialogue_index"]): (r["content_correct"], r["notes"]) for r in rows}

    predictions = inputs / "peppa_dialogue" / "predictions" / "model_a.jsonl"
    lines = predictions.read_text(encoding="utf-8").splitlines()
    changed = json.loads(lines[0])
    changed["prediction"] = "完全不同的回答"
    predictions.write_text("\n".join([json.dumps(changed, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["run", *args]) == 0
    err = capsys.readouterr().err
    assert f"{len(rows) - 1} edited row(s) carried over" in err and "1 edited row(s) no longer match" in err

    regenerated = {(r["model"], r["scene"], r["dialogue_index"]): (r["content_correct"], r["notes"])
                   for r in _csv_rows(sheet)}
    changed_key = ("model_a", changed["scene"], str(changed["dialogue_index"]))
    assert regenerated[changed_key][0] == ""
    assert {k: v for k, v in regenerated.items() if k != changed_key} == {k: v for k, v in typed.items()
                                                                          if k != changed_key}
    copies = sorted(sheet.parent.glob("B6_human_annotation.*.csv"))
    assert len(copies) == 1 and {(r["model"], r["scene"], r["dialogue_index"]): (r["content_correct"], r["notes"])
                                 for r in _csv_rows(copies[0])} == typed
    report = read_artifact_json(outputs / "peppa_dialogue" / "B6_report.json")["report"]
    assert report["human_edits"]["B6_human_annotation.csv"] == {
        "carried_over": len(rows) - 1, "left_behind": 1, "previous_copy": copies[0].name}


def test_a_fixed_failure_clears_and_the_closing_line_says_what_failed(workspace, capsys, monkeypatch):
    from stages.kinds.qa import OpenQA

    assert run(workspace) == 0
    toml = workspace / "inputs" / "qa_small" / "dataset.toml"
    toml.write_text('[params]\nmode = "squad"\n')

    def broken(self, joined, params):
        raise RuntimeError("normalizer exploded")

    with monkeypatch.context() as patch:
        patch.setattr(OpenQA, "normalize", broken)
        capsys.readouterr()
        assert run(workspace) == 1
    err = capsys.readouterr().err
    assert "FAILED B3 / qa_small / alpha: RuntimeError: normalizer exploded" in err
    assert "run failed: 2 stage(s) failed" in err and "(SUCCESS)" not in err
    failures = workspace / "outputs" / "_failures"
    assert sorted(p.name for p in failures.iterdir()) == ["B3__qa_small__alpha.json", "B3__qa_small__beta.json"]

    toml.unlink()  # back to the settings whose B3 artifacts are still there: B3 is found complete, not rerun
    assert run(workspace, "--only", "B4", "--model", "alpha") == 0
    err = capsys.readouterr().err
    assert "FAILED" not in err and "run failed" not in err and not list(failures.iterdir())
    assert run(workspace) == 0


@pytest.mark.parametrize(("toml", "where"), [
    ('[params]\nmode = "bogus"\n', "mode = 'bogus' must be one of"),
    ("[params]\npartial_f1_threshold = 7\n", "partial_f1_threshold = 7.0 must be within [0, 1]"),
    ('[params]\npartial_f1_threshold = "high"\n', "parameter 'partial_f1_threshold' must be float"),
    ("max_rejected_share = 3\n", "max_rejected_share = 3 must be within [0, 1]"),
    ("[nightly]\nalpha = 1.5\n", "alpha = 1.5 must be within (0, 1)"),
    ('kind = "qaa"\n', "unknown kind 'qaa'"),
])
def test_a_bad_dataset_toml_value_fails_that_dataset_in_one_line_naming_file_and_key(workspace, capsys, toml, where):
    (workspace / "inputs" / "qa_small" / "dataset.toml").write_text(toml)
    assert run(workspace) == 1  # that dataset fails; every other one runs
    problem = [line for line in capsys.readouterr().err.splitlines() if line.startswith("PROBLEM qa_small: ")]
    assert len(problem) == 1 and where in problem[0] and "qa_small/dataset.toml" in problem[0]
    assert not (workspace / "outputs" / "qa_small").exists() and (workspace / "outputs" / "report.html").exists()


@contextmanager
def _luigi_cfg(section: str, key: str, value: str):
    config = luigi.configuration.get_config()
    added = not config.has_section(section)
    if added:
        config.add_section(section)
    config.set(section, key, value)
    try:
        yield
    finally:
        if added:
            config.remove_section(section)
        else:
            config.remove_option(section, key)


@pytest.mark.parametrize(("section", "key", "value", "where"), [
    ("kind.qa", "partial_f1_threshold", "2", "luigi.cfg [kind.qa]: partial_f1_threshold = 2.0 must be within"),
    ("kind.qa", "mode", "bogus", "luigi.cfg [kind.qa]: mode = 'bogus' must be one of"),
    ("kind.qaa", "mode", "squad", "luigi.cfg [kind.qaa]: unknown kind 'qaa'"),
    ("nightly", "bootstrap_resamples", "5", "luigi.cfg [nightly]: bootstrap_resamples = 5 must be a whole number ≥ 100"),
])
def test_a_bad_luigi_cfg_value_is_one_line_before_anything_runs(workspace, capsys, section, key, value, where):
    with _luigi_cfg(section, key, value):
        assert run(workspace) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and where in err


def test_checking_luigi_cfg_kinds_imports_only_the_kinds_it_names(tmp_path):
    """A [kind.qa] section is checked by importing qa's kind module alone (start-up imported every kind's)."""
    (tmp_path / "luigi.cfg").write_text("[kind.qa]\nmode = squad\n")
    code = ("import sys; from pipeline.plan import check_luigi_cfg_kinds; check_luigi_cfg_kinds(); "
            "print(sorted(m for m in sys.modules if m.startswith('stages.kinds.') and m.endswith('.kind')))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[3]),
                                                       os.environ.get("PYTHONPATH", "")])}
    loaded = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "['stages.kinds.qa.kind']"


def _problems(workspace: Path, dataset: str) -> list[str]:
    return read_artifact_json(workspace / "outputs" / dataset / "B6_report.json")["report"]["problems"]


def test_a_questions_file_of_random_bytes_fails_the_run_after_the_other_datasets(workspace, capsys):
    (workspace / "inputs" / "qa_small" / "questions.jsonl").write_bytes(os.urandom(2048).replace(b"\n", b"\x00"))
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert "PROBLEM qa_small: no question to score: 1 row read, all set aside" in err
    assert "1 dataset(s) not fit to publish: qa_small" in err
    assert read_artifact_json(workspace / "outputs" / "claims" / "B6_report.json")["report"]["problems"] == []


def test_empty_files_fail_the_run(workspace, capsys):
    (workspace / "inputs" / "qa_small" / "questions.jsonl").write_text("")
    (workspace / "inputs" / "claims" / "predictions" / "alpha.jsonl").write_text("")
    assert run(workspace) == 1
    assert _problems(workspace, "qa_small") == ["no question to score: the file holds no rows"]
    assert _problems(workspace, "claims") == ["model alpha: no prediction to score: the file holds no rows"]


def test_too_many_rejected_rows_fail_the_run_unless_the_dataset_allows_it(workspace, capsys):
    bad = [{"id": str(i), "prediction": {"not": "text"}} for i in range(3)]
    write_jsonl(workspace / "inputs" / "qa_small" / "predictions" / "beta.jsonl",
                [{"id": "1", "prediction": "Paris"}, *bad])
    assert run(workspace) == 1
    assert _problems(workspace, "qa_small") == [
        "model beta: 3 of 4 prediction rows set aside (75% > max_rejected_share 0.5)"]
    (workspace / "inputs" / "qa_small" / "dataset.toml").write_text("max_rejected_share = 0.8\n")
    assert run(workspace) == 0 and _problems(workspace, "qa_small") == []


def test_multiple_choice_inline_options_parse_and_unparsed_options_fail_the_run(tmp_path, capsys):
    inputs = tmp_path / "inputs"
    write_jsonl(inputs / "mc" / "questions.jsonl", [
        {"id": "q1", "question": "Water boils at sea level at A) 50C B) 100C C) 150C D) 200C", "answer": "B"},
        {"id": "q2", "question": "Pick one: (A) red (B) blue", "answer": "A"},
        {"id": "q3", "question": "2 + 2 = ?", "answer": "B"},
    ])
    write_jsonl(inputs / "mc" / "predictions" / "m.jsonl", [
        {"id": "q1", "prediction": "A"}, {"id": "q2", "prediction": "A"}, {"id": "q3", "prediction": "C"}])
    (inputs / "mc" / "dataset.toml").write_text('kind = "multiple_choice"\n')
    workspace = tmp_path
    assert run(workspace) == 1
    metrics = read_artifact_json(tmp_path / "outputs" / "mc" / "m" / "B5_component_scores.json")["metrics"]
    assert metrics["accuracy"] == pytest.approx(1 / 2)  # q1 parsed and wrong; q3 set aside, and said so
    assert _problems(workspace, "mc") == [
        "1 question set aside: no options found (out of every model's denominator)"]
    text = (tmp_path / "outputs" / "mc" / "B6_report.txt").read_text(encoding="utf-8")
    assert text.startswith("PROBLEM: 1 question set aside: no options found")


def test_a_dataset_whose_every_question_is_set_aside_does_not_crash_any_kind(tmp_path, capsys):
    """Every registered kind, given a question it cannot read: no stage fails, and what became of the dataset is
    said — a problem, or a report (a kind that keeps a question without gold counts it unscorable)."""
    inputs = tmp_path / "inputs"
    for kind in KINDS.names():
        write_jsonl(inputs / kind / "questions.jsonl", [{"id": "1", "question": "no gold here"}])
        write_jsonl(inputs / kind / "predictions" / "m.jsonl", [{"id": "1", "prediction": "A"}])
        (inputs / kind / "dataset.toml").write_text(
            f'kind = "{kind}"\n' + ('[params]\nsemantic_model = "none"\n' if "semantic_model" in
                                    get_kind(kind).defaults else ""))
    assert run(tmp_path) == 1
    err = capsys.readouterr().err
    assert "FAILED" not in err and "Traceback" not in err
    for kind in KINDS.names():
        report = tmp_path / "outputs" / kind / "B6_report.json"
        assert f"PROBLEM {kind}: " in err or report.exists(), kind
    assert _problems(tmp_path, "qa") == ["no question to score: 1 row read, all set aside"]


def test_a_stale_failure_record_of_a_deleted_dataset_is_not_reported(workspace, capsys, monkeypatch):
    from stages.kinds.fact_verification.kind import FactVerification

    def broken(self, joined, params):
        raise RuntimeError("boom")

    with monkeypatch.context() as patch:
        patch.setattr(FactVerification, "normalize", broken)
        assert run(workspace) == 1
    shutil.rmtree(workspace / "inputs" / "claims")
    capsys.readouterr()
    assert run(workspace) == 0
    assert "FAILED" not in capsys.readouterr().err


def test_a_second_run_waits_for_the_first_or_refuses_with_no_wait(workspace, capsys):
    outputs = workspace / "outputs"
    command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(workspace / "inputs"), "--outputs", str(outputs)]
    with outputs_lock(outputs):
        assert run(workspace, "--no-wait") == 2
        assert "another evalpipe run is using" in capsys.readouterr().err
        waiting = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        said = ""
        while "waiting for it to finish" not in said and (line := waiting.stderr.readline()):
            said += line  # the lock is let go only once the second run says it waits (however slow its start)
        assert "waiting for it to finish" in said, said
        assert waiting.poll() is None  # still waiting for the lock
    assert waiting.wait(timeout=120) == 0


def test_a_lock_left_by_a_killed_run_is_taken_over(workspace):
    outputs = workspace / "outputs"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from pathlib import Path; from pipeline.run_lock import outputs_lock\n"
        f"with outputs_lock(Path({str(outputs)!r})):\n    print('held', flush=True); time.sleep(60)")],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    assert run(workspace, "--no-wait") == 2
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    assert run(workspace, "--no-wait") == 0


def test_two_forced_runs_at_once_both_succeed(workspace):
    command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(workspace / "inputs"),
               "--outputs", str(workspace / "outputs"), "--force"]
    runs = [subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    results = [(p.wait(timeout=120), p.stderr.read()) for p in runs]
    assert [code for code, _ in results] == [0, 0], results
    assert any("waiting for it to finish" in err for _, err in results)


def test_status_piped_into_head_ends_quietly(workspace):
    run(workspace)
    command = (f"{sys.executable} -m pipeline status --inputs {workspace / 'inputs'} "
               f"--outputs {workspace / 'outputs'} | head -1")
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr and len(result.stdout.splitlines()) == 1


def test_show_of_an_unknown_id_says_so(workspace, capsys):
    from pipeline.cli import main

    run(workspace)
    capsys.readouterr()
    assert main(["show", "B4", "--outputs", str(workspace / "outputs"), "--dataset", "qa_small", "--model", "alpha",
                 "--id", "nope"]) == 2
    assert "no row with id 'nope'" in capsys.readouterr().err


def test_folders_that_are_not_evaluated_are_named(workspace, capsys):
    inputs = workspace / "inputs"
    write_jsonl(inputs / ".hidden" / "questions.jsonl", [{"id": "1", "question": "q", "answer": "a"}])
    (inputs / "notes").mkdir()
    write_jsonl(inputs / "qa_small" / "predictions" / ".draft.jsonl", [{"id": "1", "prediction": "x"}])
    (inputs / "qa_small" / "predictions" / "readme.txt").write_text("not predictions")
    assert run(workspace) == 0
    err = capsys.readouterr().err
    assert f"skipped {inputs / '.hidden'}: hidden" in err
    assert f"skipped {inputs / 'notes'}: no questions file" in err
    assert f"skipped {inputs / 'qa_small' / 'predictions' / '.draft.jsonl'}: hidden" in err
    assert f"skipped {inputs / 'qa_small' / 'predictions' / 'readme.txt'}: not a" in err


def test_a_malformed_json_line_is_named_by_its_own_line_and_column(tmp_path):
    from stages.io.readers import iter_records

    path = tmp_path / "q.jsonl"
    path.write_text('{"id": 1}\n\n{"id": 2, "x": }\n')
    reject = list(iter_records(path))[1]
    assert reject.line == 3 and reject.reason.startswith("malformed JSON at column 16: ")  # the rest is orjson's


def test_a_no_op_run_prints_a_short_english_summary(capsys, tmp_path):
    from pipeline.cli import main

    args = ["run", "--inputs", str(DEMO), "--outputs", str(tmp_path)]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) <= 16 and "0 artifact(s) written" in out
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out.replace("peppa_dialogue", ""))
    assert main([*args, "--verbose"]) == 0
    assert "dataset qa_mixed (qa, detected)" in capsys.readouterr().out


def test_a_failed_dataset_never_takes_the_others_summary_and_report_away(workspace, monkeypatch, capsys):
    from stages.kinds.fact_verification.kind import FactVerification

    def broken_match(self, normalized, params):
        raise RuntimeError("matcher exploded")

    monkeypatch.setattr(FactVerification, "match", broken_match)
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert "FAILED B4 / claims / alpha: RuntimeError: matcher exploded" in err
    assert "summary and report.html written for the 1 dataset(s) that finished; failed: claims" in err
    summary = read_artifact_json(workspace / "outputs" / "B6_summary.json")
    assert summary["datasets"] == ["qa_small"]
    assert summary["failed"] == {"claims": "B4 / alpha: RuntimeError: matcher exploded"}
    html = (workspace / "outputs" / "report.html").read_text(encoding="utf-8")
    assert "<strong>claims</strong> failed: B4 / alpha: RuntimeError: matcher exploded" in html
    monkeypatch.undo()
    assert run(workspace) == 0  # fixed: the next run summarizes both, and the page no longer names a failure
    assert read_artifact_json(workspace / "outputs" / "B6_summary.json")["datasets"] == ["claims", "qa_small"]
    assert "failed:" not in (workspace / "outputs" / "report.html").read_text(encoding="utf-8")


def test_ids_that_do_not_pair_fail_the_run_showing_ids_from_each_side(tmp_path, capsys):
    inputs = tmp_path / "inputs" / "qa_ids"
    write_jsonl(inputs / "questions.jsonl", [{"id": f"q{i}", "question": "?", "answers": [f"a{i}"]} for i in range(1, 6)])
    write_jsonl(inputs / "predictions" / "m.jsonl", [{"id": i, "prediction": f"a{i}"} for i in range(1, 6)])
    assert run(tmp_path) == 1
    err = capsys.readouterr().err
    assert ("PROBLEM qa_ids: model m: only 0 of 5 questions have a prediction (0% < min_paired_share 0.5); question "
            "ids without one: 'q1', 'q2', 'q3' …; prediction ids without a question: '1', '2', '3' …") in err
    # ids compare as text: 1, "1" and 1.0 all pair with question "1"; below the share only when asked for more
    write_jsonl(inputs / "questions.jsonl", [{"id": str(i), "question": "?", "answers": [f"a{i}"]} for i in range(1, 6)])
    write_jsonl(inputs / "predictions" / "m.jsonl", [{"id": 1, "prediction": "a1"}, {"id": "2", "prediction": "a2"},
                                                     {"id": 3.0, "prediction": "a3"}])
    (inputs / "dataset.toml").write_text("min_paired_share = 0.5\n")
    assert run(tmp_path) == 0  # 3 of 5 pair
    (inputs / "dataset.toml").write_text("min_paired_share = 0.8\n")
    assert run(tmp_path) == 1
    assert "only 3 of 5 questions have a prediction (60% < min_paired_share 0.8)" in capsys.readouterr().err


@pytest.mark.parametrize("force", [False, True])
def test_a_folder_where_an_artifact_belongs_is_one_failed_line_and_a_record(workspace, capsys, force):
    assert run(workspace) == 0
    artifact = workspace / "outputs" / "qa_small" / "alpha" / "B4_matches.json"
    artifact.unlink()
    artifact.mkdir()
    (artifact / "keep.txt").write_text("not evalpipe's")
    capsys.readouterr()
    assert run(workspace, "--dataset", "qa_small", *(["--force"] if force else [])) == 1
    captured = capsys.readouterr()
    failed = [line for line in captured.err.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and failed[0].startswith("FAILED B4 / qa_small / alpha: IsADirectoryError")
    assert str(artifact) in failed[0]
    assert "Traceback" not in captured.err + captured.out and len(captured.err) < 1000
    assert (workspace / "outputs" / "_failures" / "B4__qa_small__alpha.json").is_file()
    assert (artifact / "keep.txt").read_text() == "not evalpipe's"  # nothing of the user's is removed
    assert not [p for p in artifact.parent.iterdir() if ".tmp-" in p.name]
