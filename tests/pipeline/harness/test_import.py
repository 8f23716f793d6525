"""`evalpipe import`: files written by lm-eval, Inspect and OpenCompass themselves (harness_files/make.py) become
datasets whose rescored numbers follow the official rules, with the harness's own numbers beside them."""
import json
import re
import sys
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.harness.imports import import_files, model_metrics, run_imported
from tests.pipeline.workspace import HARNESS_FILES, REPO

sys.path.insert(0, str(REPO / "bench"))
from official_squad import evaluate as official_squad_evaluate  # noqa: E402

HARNESS = HARNESS_FILES
LM_EVAL_SQUAD = sorted((HARNESS / "lm_eval").glob("bert*/samples_squad_local_*.jsonl"))
LM_EVAL_CMMLU = next((HARNESS / "lm_eval").glob("*/samples_cmmlu_agronomy_local_*.jsonl"))
INSPECT_LOGS = {path.suffix: path for path in (HARNESS / "inspect").iterdir()}


def _official_squad(answers: dict[str, str], real_data) -> dict[str, float]:
    """The official SQuAD v1.1 script over the dev questions with these ids (golds from the dev set itself)."""
    dev = json.loads((real_data / "squad" / "dev-v1.1.json").read_text(encoding="utf-8"))["data"]
    subset = [{"paragraphs": [{"qas": [qa for p in article["paragraphs"] for qa in p["qas"] if qa["id"] in answers]}]}
              for article in dev]
    return official_squad_evaluate(subset, answers)


def _lm_eval_answers(path: Path) -> dict[str, str]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return {row["doc"]["id"]: row["filtered_resps"][0] for row in rows}


def test_lm_eval_squad_runs_rescore_to_the_official_numbers_beside_lm_evals_own(tmp_path, real_data, capsys):
    assert import_files(tmp_path, "lm-eval", HARNESS / "lm_eval") == 0
    outputs = run_imported(tmp_path)
    for samples in LM_EVAL_SQUAD:
        model = samples.parent.name
        official = _official_squad(_lm_eval_answers(samples), real_data)
        metrics = model_metrics(outputs, "squad_local", model)
        assert abs(100 * metrics["exact_match"] - official["exact_match"]) < 1e-9
        assert abs(100 * metrics["f1"] - official["f1"]) < 1e-9
    report = read_artifact_json(outputs / "squad_local" / "B6_report.json")["report"]
    lm_eval_results = json.loads(next(LM_EVAL_SQUAD[1].parent.glob("results_*.json")).read_text())
    assert report["harness"]["bert_the"]["metrics"]["exact_match"] == \
        lm_eval_results["results"]["squad_local"]["exact_match,none"]
    assert report["harness"]["bert_the"]["tool"] == "lm-eval" and report["harness"]["bert_the"]["version"]
    # "the Broncos": lm-eval's exact_match keeps the article, SQuAD's rule drops it, so the two differ here
    assert report["harness"]["bert_the"]["metrics"]["exact_match"] < report["models"]["bert_the"]["exact_match"]
    html = (outputs / "report.html").read_text(encoding="utf-8")
    assert "Imported: the harness's numbers beside evalpipe's" in html
    assert re.search(r'<tr class="differs"><td>bert_the</td><td>lm-eval [^<]+</td><td>squad_local</td>'
                     r'<td>exact_match</td><td class="num">0.3871</td>', html)


def test_importing_again_changes_nothing_and_another_model_adds_a_predictions_file(tmp_path, capsys):
    assert import_files(tmp_path, "lm-eval", LM_EVAL_SQUAD[0]) == 0
    dataset = tmp_path / "inputs" / "squad_local"
    before = {path: path.stat().st_mtime_ns for path in dataset.rglob("*") if path.is_file()}
    assert import_files(tmp_path, "lm-eval", LM_EVAL_SQUAD[0]) == 0
    assert {path: path.stat().st_mtime_ns for path in dataset.rglob("*") if path.is_file()} == before
    assert "(unchanged), predictions/bert.jsonl (unchanged), dataset.toml (unchanged)" in capsys.readouterr().out
    assert import_files(tmp_path, "lm-eval", LM_EVAL_SQUAD[1]) == 0
    assert sorted(p.name for p in (dataset / "predictions").iterdir()) == ["bert.jsonl", "bert_the.jsonl"]
    assert (dataset / "questions.jsonl").stat().st_mtime_ns == before[dataset / "questions.jsonl"]


def test_lm_eval_loglikelihood_files_recompute_acc_from_resps_beside_lm_evals_figures(tmp_path):
    rows = [json.loads(line) for line in LM_EVAL_CMMLU.read_text(encoding="utf-8").splitlines()]
    right = [max(range(4), key=lambda i: float(row["resps"][i][0][0])) == int(row["target"]) for row in rows]
    assert import_files(tmp_path, "lm-eval", LM_EVAL_CMMLU, "--model", "dummy") == 0
    questions = [json.loads(line) for line in
                 (tmp_path / "inputs/cmmlu_agronomy_local/questions.jsonl").read_text().splitlines()]
    assert questions[0]["choices"] == ["A", "B", "C", "D"] and questions[0]["gold"] == 1  # the task's choices
    assert questions[0]["question"] == rows[0]["arguments"]["gen_args_0"]["arg_0"]
    outputs = run_imported(tmp_path)
    metrics = model_metrics(outputs, "cmmlu_agronomy_local", "dummy")
    assert metrics["acc"] == pytest.approx(sum(right) / len(rows)) and metrics["acc_norm"] == metrics["acc"]
    results = json.loads(next(LM_EVAL_CMMLU.parent.glob("results_*.json")).read_text())
    assert metrics["acc"] == pytest.approx(results["results"]["cmmlu_agronomy_local"]["acc,none"])
    report = read_artifact_json(outputs / "cmmlu_agronomy_local" / "B6_report.json")["report"]
    assert report["harness"]["dummy"]["metrics"]["acc"] == results["results"]["cmmlu_agronomy_local"]["acc,none"]
    assert report["harness"]["dummy"]["disagreements"]["acc"]["rows"] == 20
    assert report["harness"]["dummy"]["disagreements"]["acc"]["disagree"] == 0


def test_lm_eval_loglikelihood_rows_where_its_acc_differs_are_counted(tmp_path):
    import shutil

    folder = tmp_path / "files"
    shutil.copytree(LM_EVAL_CMMLU.parent, folder)
    samples = folder / LM_EVAL_CMMLU.name
    rows = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["acc"] == 0.0
    rows[0]["acc"] = 1.0  # lm-eval's verdict on doc 0 changed: evalpipe's, from resps, stays wrong
    samples.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    assert import_files(tmp_path, "lm-eval", samples, "--model", "dummy") == 0
    report = read_artifact_json(run_imported(tmp_path) / "cmmlu_agronomy_local" / "B6_report.json")["report"]
    tally = report["harness"]["dummy"]["disagreements"]["acc"]
    assert (tally["rows"], tally["disagree"], tally["right_by_harness_only"]["rows"]) == (20, 1, 1)
    assert tally["right_by_harness_only"]["example"]["id"] == "0"


CHAT_TEMPLATE_RUN = HARNESS / "lm_eval_chat_template" / "qwen3"


def test_lm_eval_loglikelihood_under_a_chat_template_imports_its_choices_with_no_delimiter(tmp_path):
    """A multiple_choice task run with --apply_chat_template (make_chat_template.py): each continuation is the choice
    itself ("water", after the prompt's `<think>\n\n</think>\n\n`), not " water" as the task config's target_delimiter
    says; acc and acc_norm (by each choice text's length) equal lm-eval's, row by row."""
    samples = next(CHAT_TEMPLATE_RUN.glob("samples_*.jsonl"))
    rows = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    results = json.loads(next(CHAT_TEMPLATE_RUN.glob("results_*.json")).read_text())["results"]["negotiationtom_belief"]
    assert import_files(tmp_path, "lm-eval", CHAT_TEMPLATE_RUN, "--model", "qwen3") == 0
    questions = [json.loads(line) for line in
                 (tmp_path / "inputs/negotiationtom_belief/questions.jsonl").read_text().splitlines()]
    assert [q["choices"] for q in questions] == [row["doc"]["choices"] for row in rows]
    outputs = run_imported(tmp_path)
    metrics = model_metrics(outputs, "negotiationtom_belief", "qwen3")
    assert (metrics["acc"], metrics["acc_norm"]) == (pytest.approx(results["acc,none"]),
                                                     pytest.approx(results["acc_norm,none"])) != (0.0, 0.0)
    report = read_artifact_json(outputs / "negotiationtom_belief" / "B6_report.json")["report"]
    assert {name: tally["disagree"] for name, tally in report["harness"]["qwen3"]["disagreements"].items()} == \
        {"acc": 0, "acc_norm": 0}


def test_a_chat_template_samples_file_alone_imports_its_continuations_as_they_are(tmp_path):
    samples = next(CHAT_TEMPLATE_RUN.glob("samples_*.jsonl"))
    alone = tmp_path / "files" / samples.name
    alone.parent.mkdir()
    alone.write_bytes(samples.read_bytes())
    assert import_files(tmp_path, "lm-eval", alone, "--model", "qwen3") == 0
    questions = (tmp_path / "inputs/negotiationtom_belief/questions.jsonl").read_text().splitlines()
    assert json.loads(questions[0])["choices"] == ["the firewood", "water", "food", "none"]


@pytest.mark.parametrize("suffix", [".eval", ".json"])
def test_inspect_logs_read_through_inspect_ai(tmp_path, real_data, suffix):
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(INSPECT_LOGS[suffix]))
    assert import_files(tmp_path, "inspect", INSPECT_LOGS[suffix], "--model", "bert") == 0
    outputs = run_imported(tmp_path)
    answers = {str(sample.id): sample.output.completion for sample in log.samples}
    official = _official_squad(answers, real_data)
    metrics = model_metrics(outputs, "squad_replay", "bert")
    assert abs(100 * metrics["exact_match"] - official["exact_match"]) < 1e-9
    assert abs(100 * metrics["f1"] - official["f1"]) < 1e-9
    report = read_artifact_json(outputs / "squad_replay" / "B6_report.json")["report"]
    exact = next(score for score in log.results.scores if score.name == "exact")
    assert report["harness"]["bert"]["metrics"]["exact (mean)"] == exact.metrics["mean"].value
    assert report["harness"]["bert"]["model"] == "mockllm/model"


def test_opencompass_predictions_with_options_in_the_prompt(tmp_path):
    predictions = next((HARNESS / "opencompass").glob("*/predictions/replay/cmmlu_agronomy.json"))
    results = json.loads(predictions.parents[2].joinpath("results/replay/cmmlu_agronomy.json").read_text())
    assert import_files(tmp_path, "opencompass", HARNESS / "opencompass") == 0
    questions = [json.loads(line) for line in
                 (tmp_path / "inputs/cmmlu_agronomy/questions.jsonl").read_text().splitlines()]
    assert questions[1]["options"] == ["36°C", "37.8°C", "36.5°C", "37°C"]
    outputs = run_imported(tmp_path)
    metrics = model_metrics(outputs, "cmmlu_agronomy", "replay")
    assert metrics["accuracy"] == pytest.approx(results["accuracy"] / 100) and metrics["accuracy"] == 0.75
    assert metrics["extraction_rate"] == 1.0


def test_opencompass_runs_with_several_replies_per_item_import_as_samples(tmp_path):
    """Files OpenCompass 0.5.4 wrote: a CMMLU subset with `n = 4` (the dataset four times over, 48 entries for 12
    items), asked of one model and of one with num_return_sequences = 2 (a list of two replies per entry: 8 each). avg@4 and pass@k equal
    OpenCompass' own `accuracy (4 runs average)` and G-Pass@k_0.0 (pass@k) and its per-item details' parsed letters."""
    run = next((HARNESS / "opencompass_samples").glob("*"))
    results = json.loads((run / "results/repeat4/cmmlu_agronomy.json").read_text())
    two_each = json.loads((run / "predictions/two_each/cmmlu_agronomy.json").read_text())
    assert import_files(tmp_path, "opencompass", run) == 0
    folder = tmp_path / "inputs/cmmlu_agronomy"
    assert len((folder / "questions.jsonl").read_text().splitlines()) == 12
    imported = [json.loads(line) for line in (folder / "predictions/repeat4.jsonl").read_text().splitlines()]
    assert [p["samples"] for p in imported] == [detail["pred"] for detail in results["details"]]
    imported = [json.loads(line) for line in (folder / "predictions/two_each.jsonl").read_text().splitlines()]
    assert len(two_each) == 48  # no results file (OpenCompass' evaluator fails on lists): the runs told by the prompts
    assert [p["samples"] for p in imported] == [[reply for run in range(4) for reply in two_each[str(12 * run + i)]
                                                 ["prediction"]] for i in range(12)]
    report = read_artifact_json(run_imported(tmp_path) / "cmmlu_agronomy" / "B6_report.json")["report"]
    found = report["samples"]["repeat4"]
    assert (found["n"], found["items"], found["replies"]) == (4, 12, 48)
    assert 100 * found["avg"]["accuracy"]["value"] == pytest.approx(results["accuracy (4 runs average)"])
    for k in ("1", "2", "4"):
        assert 100 * found["pass"][k]["value"] == pytest.approx(results[f"G-Pass@{k}_0.0"])
    right = [[letter == detail["refr"][0] for letter in detail["parsed"]] for detail in results["details"]]
    assert found["sometimes_right"]["count"] == sum(0 < sum(item) < 4 for item in right)
    assert report["harness"]["repeat4"]["metrics"]["accuracy (4 runs average)"] == results["accuracy (4 runs average)"]
    assert report["samples"]["two_each"]["n"] == 8 and not report["harness"]["two_each"].get("metrics")


def test_a_broken_line_is_set_aside_and_the_rest_imported(tmp_path, capsys):
    broken = tmp_path / "run" / "bert" / LM_EVAL_SQUAD[0].name
    broken.parent.mkdir(parents=True)
    lines = LM_EVAL_SQUAD[0].read_text(encoding="utf-8").splitlines()
    broken.write_text("\n".join([lines[0][:40], *lines[1:]]) + "\n", encoding="utf-8")
    assert import_files(tmp_path, "lm-eval", tmp_path / "run") == 0
    assert f"set aside {broken}:1: the line ends before its JSON does (cut off?)" in capsys.readouterr().err
    imported = (tmp_path / "inputs/squad_local/questions.jsonl").read_text().splitlines()
    assert len(imported) == len(lines) - 1


def test_refusals_are_one_line_and_exit_2(tmp_path, capsys):
    assert import_files(tmp_path, "lm-eval", tmp_path / "nothing_here") == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert import_files(tmp_path, "lm-eval", tmp_path / "empty") == 2
    assert "no lm-eval output found" in capsys.readouterr().err
    assert import_files(tmp_path, "lm-eval", LM_EVAL_SQUAD[0]) == 0
    assert main(["import", "lm-eval", str(LM_EVAL_CMMLU), "--inputs", str(tmp_path / "inputs"),
                 "--dataset", "squad_local"]) == 2
    err = capsys.readouterr().err
    assert "squad_local" in err and len(err.strip().splitlines()) == 1


def test_a_model_name_with_terminal_escapes_is_printed_escaped_and_named_safely(tmp_path, capsys):
    import shutil

    run_folder = tmp_path / "run"
    shutil.copytree(HARNESS / "lm_eval" / "bert", run_folder)
    results = next(run_folder.glob("results_*.json"))
    document = json.loads(results.read_text())
    document["model_name"] = "evil\x1b[2J\x1b]0;owned\x07/model"
    results.write_text(json.dumps(document))
    capsys.readouterr()
    assert import_files(tmp_path, "lm-eval", run_folder) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "evil\\x1b[2J\\x1b]0;owned\\x07/model" in out
    assert [p.name for p in (tmp_path / "inputs" / "squad_local" / "predictions").iterdir()] == [
        "evil_2J_0_owned_model.jsonl"]


def test_lm_eval_repeats_import_as_samples_scored_by_the_official_rule(tmp_path, real_data):
    """squad_local run with repeats: 4 (no filter of its own): every repeat is one of the item's samples; avg@4 of
    exact match is the mean of the official script's EM over the four repeats, maj@1 its EM on the first."""
    samples = next((HARNESS / "lm_eval_repeats").glob("*/samples_squad_local_*.jsonl"))
    rows = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    assert import_files(tmp_path, "lm-eval", samples.parent) == 0
    predictions = [json.loads(line) for line in
                   (tmp_path / "inputs" / "squad_local" / "predictions" / "bert_repeats.jsonl").read_text().splitlines()]
    assert [p["samples"] for p in predictions] == [row["resps"][0] for row in rows]
    outputs = run_imported(tmp_path)
    found = read_artifact_json(outputs / "squad_local" / "B6_report.json")["report"]["samples"]["bert_repeats"]
    official = [_official_squad({row["doc"]["id"]: row["resps"][0][r] for row in rows}, real_data)["exact_match"]
                for r in range(4)]
    assert found["n"] == 4 and found["items"] == len(rows)
    assert 100 * found["avg"]["exact_match"]["value"] == pytest.approx(sum(official) / 4, abs=1e-9)
    assert 100 * found["pass"]["1"]["value"] == pytest.approx(sum(official) / 4, abs=1e-9)
    assert 100 * found["maj"]["1"] == pytest.approx(official[0], abs=1e-9)
