import json
import os
import subprocess
import sys

import pytest

from pipeline.cli import main
from stages.io.artifacts import INLINE_ROW_LIMIT, read_artifact_json
from tests.pipeline.workspace import run, write_jsonl


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda ws: None, "inputs folder"),
        (lambda ws: (ws / "inputs/d/dataset.toml").write_text('kind = "poetry"\n'), "unknown kind 'poetry'"),
        (lambda ws: (ws / "inputs/d/dataset.toml").write_text("kind = \n"), "not valid TOML"),
        (lambda ws: (ws / "inputs/d/dataset.toml").write_text("[params]\nfoo = 1\n"), "unknown parameter 'foo'"),
    ],
)
def test_usage_errors_print_one_line_and_exit_2(tmp_path, setup, message):
    if "inputs folder" not in message:
        write_jsonl(tmp_path / "inputs/d/questions.jsonl", [{"id": 1, "answer": "x"}])
        write_jsonl(tmp_path / "inputs/d/predictions/m.jsonl", [{"id": 1, "prediction": "x"}])
    setup(tmp_path)
    result = _cli("run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs"))
    if "inputs folder" in message:  # how evalpipe was asked to run: exit 2, one line
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    else:  # the dataset's own dataset.toml: that dataset fails (exit 1) in one line naming it and the file
        problem = [line for line in result.stderr.splitlines() if line.startswith("PROBLEM d: ")]
        assert result.returncode == 1 and len(problem) == 1 and "inputs/d/dataset.toml: " in problem[0]
    assert message in result.stderr and "Traceback" not in result.stderr


def test_unknown_dataset_or_model_is_a_usage_error(workspace, capsys):
    assert run(workspace, "--dataset", "nope") == 2
    assert run(workspace, "--model", "nope") == 2
    assert "no predictions for model 'nope'" in capsys.readouterr().err


def test_dataset_given_twice_runs_both_and_an_unknown_one_is_named(workspace, capsys):
    (workspace / "inputs" / "other").mkdir()
    write_jsonl(workspace / "inputs" / "other" / "questions.jsonl", [{"id": 1, "answer": "x"}])
    write_jsonl(workspace / "inputs" / "other" / "predictions" / "m.jsonl", [{"id": 1, "prediction": "x"}])
    assert run(workspace, "--dataset", "qa_small", "--dataset", "claims") == 0
    out = capsys.readouterr().out
    assert "qa_small" in out and "claims" in out and "other" not in out
    assert (workspace / "outputs" / "qa_small" / "B6_report.json").exists()
    assert (workspace / "outputs" / "claims" / "B6_report.json").exists()
    assert not (workspace / "outputs" / "other").exists()
    assert run(workspace, "--dataset", "qa_small", "--dataset", "nope") == 2
    assert "no dataset 'nope' with questions and predictions" in capsys.readouterr().err


def test_run_prints_a_summary_and_verbose_the_report_and_what_was_set_aside(workspace, capsys):
    assert run(workspace) == 0
    out = capsys.readouterr().out
    assert "Exact Match (EM)" not in out and len(out.splitlines()) <= 10
    assert [line.split()[:-6] for line in out.splitlines()[2:5]] == [  # qa shows EM beside F1, as SQuAD users quote
        ["claims", "alpha", "accuracy", "0.7500"],
        ["qa_small", "alpha", "exact_match", "/", "f1", "0.5000", "/", "0.6667"],
        ["qa_small", "beta", "exact_match", "/", "f1", "0.5000", "/", "0.5000"]]
    assert run(workspace, "--verbose") == 0
    out = capsys.readouterr().out
    assert "Exact Match (EM)" in out and "混淆矩阵" in out and "总体准确率 (Accuracy): 75.00%" in out
    assert "set aside for beta: 0 question row(s), 0 prediction row(s) rejected; 2 question(s) without" in out


def test_a_summary_that_cannot_be_written_is_said_once_and_the_run_fails(workspace, capsys):
    (workspace / "outputs" / "report.html").mkdir(parents=True)  # no file can take that name
    assert run(workspace) == 1
    err = capsys.readouterr().err
    failed = [line for line in err.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and failed[0].startswith("FAILED B6 summary (report.html, B6_summary.json): "), err
    assert err.strip().endswith("evalpipe: the summary and report.html could not be written under "
                                f"{workspace / 'outputs'}"), err
    assert (workspace / "outputs" / "qa_small" / "B6_report.json").exists()  # the datasets' reports are kept


def test_show_prints_rows_as_json_lines(workspace, capsysbinary):
    run(workspace)
    capsysbinary.readouterr()
    base = ["--outputs", str(workspace / "outputs"), "--dataset", "qa_small"]
    assert main(["show", "B4", *base, "--model", "alpha", "--id", "3"]) == 0
    rows = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert rows == [{"id": "3", "best_gold": 0, "best_gold_text": "北京", "exact_match": 1.0, "f1": 1.0,
                     "label": "correct"}]
    assert main(["show", "B1", *base]) == 0
    assert len(capsysbinary.readouterr().out.splitlines()) == 4
    assert main(["show", "B6", *base]) == 0
    assert json.loads(capsysbinary.readouterr().out)["kind"] == "qa"
    assert main(["show", "B3", *base]) == 2  # two models: --model is required


def test_large_artifacts_live_in_parquet_and_show_reads_them(tmp_path, capsysbinary):
    n = INLINE_ROW_LIMIT + 5
    write_jsonl(tmp_path / "inputs/big/questions.jsonl", [{"id": i, "answer": f"a{i}"} for i in range(n)])
    write_jsonl(tmp_path / "inputs/big/predictions/m.jsonl", [{"id": i, "prediction": f"a{i}"} for i in range(n)])
    assert run(tmp_path) == 0
    document = read_artifact_json(tmp_path / "outputs/big/m/B3_normalized.json")
    assert "rows" not in document and document["rows_file"].endswith(".parquet") and document["row_count"] == n
    assert (tmp_path / "outputs/big/m" / document["rows_file"]).exists()
    capsysbinary.readouterr()
    assert main(["show", "B3", "--outputs", str(tmp_path / "outputs"), "--dataset", "big", "--id", "7"]) == 0
    assert json.loads(capsysbinary.readouterr().out)["prediction_norm"] == "a7"


def test_show_rejects(tmp_path, capsysbinary):
    (tmp_path / "inputs/d/predictions").mkdir(parents=True)
    (tmp_path / "inputs/d/questions.jsonl").write_text('{"id": 1, "answer": "x"}\n{"id": 2\n')
    (tmp_path / "inputs/d/predictions/m.jsonl").write_text('{"id": 1, "prediction": "x"}\n')
    run(tmp_path)
    capsysbinary.readouterr()
    main(["show", "B1", "--outputs", str(tmp_path / "outputs"), "--dataset", "d", "--rejects"])
    reject = json.loads(capsysbinary.readouterr().out)
    assert reject["line"] == 2 and reject["source"].endswith("questions.jsonl")
    assert reject["reason"] == "the line ends before its JSON does (cut off?)"


def test_status_reports_each_stage(workspace, capsys):
    assert main(["status", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs")]) == 0
    assert set(line.split()[-1] for line in capsys.readouterr().out.splitlines()) == {"missing"}
    run(workspace)
    write_jsonl(workspace / "inputs/claims/predictions/alpha.jsonl", [{"id": 1, "prediction": "T"}])
    capsys.readouterr()
    main(["status", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs"),
          "--dataset", "claims"])
    states = {tuple(line.split()[:1] + line.split()[-1:]) for line in capsys.readouterr().out.splitlines()}
    assert states == {("B1", "done"), ("B2", "stale"), ("B3", "stale"), ("B4", "stale"), ("B5", "stale"),
                      ("B6", "stale")}


POOL_PROBE = """
import pipeline.cli as cli


def report_pool() -> int:
    import pyarrow

    print(pyarrow.default_memory_pool().backend_name, end="")
    return 0


cli.main = report_pool
cli.entry_point()
"""


@pytest.mark.parametrize("chosen, used", [(None, "system"), ("mimalloc", "mimalloc")])
def test_the_command_gives_arrow_the_c_librarys_malloc_unless_the_user_chose_a_pool(chosen, used):
    environment = {name: value for name, value in os.environ.items() if name != "ARROW_DEFAULT_MEMORY_POOL"}
    if chosen:
        environment["ARROW_DEFAULT_MEMORY_POOL"] = chosen
    result = subprocess.run([sys.executable, "-c", POOL_PROBE], capture_output=True, text=True, timeout=60,
                            env=environment)
    assert result.returncode == 0 and result.stdout == used, result.stderr


EXIT_PROBE = """
import atexit
import gc

import pipeline.cli as cli

atexit.register(lambda: print(gc.get_freeze_count() > 0, end=""))  # runs as the process ends, before its collections
cli.main = lambda: 3
cli.entry_point()
"""


def test_the_command_leaves_its_objects_to_the_exit_uncollected_and_keeps_its_exit_code():
    result = subprocess.run([sys.executable, "-c", EXIT_PROBE], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (3, "True"), result.stderr


def test_rows_set_aside_are_counted_with_the_command_that_lists_them_and_reasons_say_what_is_wrong(tmp_path, capsys):
    folder = tmp_path / "inputs" / "d"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.jsonl").write_text('{"id": 1, "question": "q1", "answer": "x"}\n'
                                            '{"id": 2, "question": "q2", "answer": {"x": 1}}\n'
                                            '{"id": 3, "question": "q3", "answ\n'
                                            '{"id": 4, "question": "q4", "answer": "y"}\n')
    (folder / "predictions" / "m.jsonl").write_text('{"id": 1, "prediction": "x"}\n{"id": 2, "prediction": "b"\n')
    main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")])
    err = capsys.readouterr().err
    where = f"--outputs {tmp_path / 'outputs'}"  # not the default folder, so the command names it (or OUTPUTS, when
    if len(f"evalpipe: d / m: 1 prediction row(s) set aside: evalpipe show B2 --dataset d --model m --rejects {where}") > 160:
        where = "--outputs OUTPUTS"  # the path would push the line past 160 columns)
    assert f"evalpipe: d: 2 question row(s) set aside: evalpipe show B1 --dataset d --rejects {where}\n" in err
    assert f"evalpipe: d / m: 1 prediction row(s) set aside: evalpipe show B2 --dataset d --model m --rejects {where}\n" \
        in err
    assert main(["show", "B1", "--dataset", "d", "--outputs", str(tmp_path / "outputs"), "--rejects"]) == 0
    shown = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(row["line"], row["reason"]) for row in shown] == [
        (2, "wrong type: gold is an object, expected text"), (3, "the line ends before its JSON does (cut off?)")]


def test_rows_that_pair_by_position_are_said_once(tmp_path, capsys):
    write_jsonl(tmp_path / "inputs/d/questions.jsonl", [{"question": "q", "answer": "x"}])
    write_jsonl(tmp_path / "inputs/d/predictions/m.jsonl", [{"prediction": "x"}])
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs"),
                 "--dataset", "d"]) == 0
    assert capsys.readouterr().err.count("rows pair by position") == 1
