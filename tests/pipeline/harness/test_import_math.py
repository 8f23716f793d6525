"""lm-eval's own math tasks (harness_files/make_math.py: minerva_math500, hendrycks_math500,
leaderboard_math_algebra_hard, gsm8k, gsm8k_cot, aime, aime24 run by lm-eval 0.4.13) import as math datasets; the
harness's figure sits beside evalpipe's with the rows where the two rules disagree, each way, and an example."""
import json
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import HARNESS_FILES

pytest.importorskip("math_verify")

HARNESS = HARNESS_FILES / "lm_eval_math" / "reasoner"
RESULTS, REPEATS = ({task: document for document in (json.loads(path.read_text(encoding="utf-8"))
                                                     for path in HARNESS.glob("results_*.json"))
                      for task in document["results"]}[task] for task in ("minerva_math500", "aime24_repeats"))
TASKS = ("minerva_math500", "hendrycks_math500", "leaderboard_math_algebra_hard", "gsm8k", "gsm8k_cot", "aime",
         "aime24")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _samples(task: str) -> list[dict]:
    return _lines(next(HARNESS.glob(f"samples_{task}_2*.jsonl")))


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The seven tasks imported and run once."""
    root = tmp_path_factory.mktemp("math_import")
    assert main(["import", "lm-eval", str(HARNESS.parent), "--inputs", str(root / "inputs")]) == 0
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")]) == 0
    return root


def _report(root: Path, task: str) -> dict:
    return read_artifact_json(root / "outputs" / task / "B6_report.json")["report"]


def test_each_math_task_imports_as_a_math_dataset_with_the_whole_reply(imported, real_data):
    for task in TASKS:
        folder = imported / "inputs" / task
        assert "kind = \"math\"" in (folder / "dataset.toml").read_text()
        samples = {(row["doc_id"], row["resps"][0][0]) for row in _samples(task)}
        predictions = _lines(folder / "predictions" / "reasoner.jsonl")
        assert len(predictions) == RESULTS["n-samples"][task]["effective"]
        assert {row["prediction"] for row in predictions} == {reply for _, reply in samples}
    amc = {row["question"]: str(row["answer"]) for row in _lines(real_data / "math" / "amc23.jsonl")}
    for task in ("gsm8k", "gsm8k_cot"):  # the gold is what follows GSM8K's ####
        questions = _lines(imported / "inputs" / task / "questions.jsonl")
        assert {row["question"]: row["answer"] for row in questions} == amc
    math500 = {row["unique_id"]: row for row in _lines(real_data / "math" / "math500.jsonl")}
    for row in _lines(imported / "inputs" / "hendrycks_math500" / "questions.jsonl"):
        official = math500[row["id"]]
        assert (row["question"], row["answer"], row["subject"], row["level"]) == \
            (official["problem"], official["answer"], official["subject"], official["level"])
    aime = {row["problem"]: row["expected_answer"] for row in _lines(real_data / "math" / "aime24.jsonl")}
    assert {row["question"]: row["answer"] for row in _lines(imported / "inputs" / "aime24" / "questions.jsonl")} \
        == aime


def test_the_verdicts_file_holds_the_harness_figures_row_by_row(imported):
    for task in TASKS:
        verdicts = _lines(imported / "inputs" / task / "harness" / "reasoner.jsonl")
        reported = _report(imported, task)["harness"]["reasoner"]["metrics"]
        assert reported
        for metric, value in reported.items():
            name, _, filter_name = metric.partition(",")
            assert value == RESULTS["results"][task][f"{name},{filter_name or 'none'}"]
            assert sum(row["verdicts"][metric] for row in verdicts) / len(verdicts) == pytest.approx(value)


def test_disagreements_reconcile_the_two_figures(imported):
    """For every task and harness metric: the harness's right rows, less those only it calls right, plus those only
    evalpipe calls right, are evalpipe's right rows."""
    for task in TASKS:
        report = _report(imported, task)
        metrics = report["models"]["reasoner"]
        found = report["harness"]["reasoner"]
        assert set(found["disagreements"]) == set(found["metrics"])
        for metric, tally in found["disagreements"].items():
            assert tally["rows"] == metrics["rows"]
            harness_right = round(found["metrics"][metric] * tally["rows"])
            ours = round(metrics["accuracy"] * metrics["rows"])
            only_harness, only_ours = tally["right_by_harness_only"]["rows"], tally["right_by_evalpipe_only"]["rows"]
            assert harness_right - only_harness + only_ours == ours
            assert tally["disagree"] == only_harness + only_ours


def test_a_reply_ending_inside_its_reasoning_is_right_only_for_the_harness(imported):
    """math_verify (minerva) reads the boxed answer inside an unclosed <think>; evalpipe scores it as no answer."""
    unfinished = [row for row in _samples("minerva_math500")
                  if row["resps"][0][0].startswith("<think>") and "</think>" not in row["resps"][0][0]]
    assert unfinished and all(row["math_verify"] == 1 for row in unfinished)
    found = _report(imported, "minerva_math500")["harness"]["reasoner"]["disagreements"]["math_verify"]
    assert found["right_by_harness_only"]["rows"] == len(unfinished)
    example = found["right_by_harness_only"]["example"]
    assert example["reason"] == "unfinished reasoning" and example["evalpipe_answer"] is None
    assert example["reply_end"] in {row["resps"][0][0] for row in unfinished}
    gsm8k = _report(imported, "gsm8k")["harness"]["reasoner"]["disagreements"]["exact_match,strict-match"]
    assert gsm8k["right_by_evalpipe_only"]["example"]["harness_answer"] == "[invalid]"
    text = (imported / "outputs" / "gsm8k" / "B6_report.txt").read_text()
    assert "exact_match,strict-match: the rules disagree on" in text and "the harness took '[invalid]'" in text
    assert "Where the harness's rule and evalpipe's disagree" in (imported / "outputs" / "report.html").read_text()


def test_an_edited_verdicts_file_reruns_the_report_and_a_broken_line_is_set_aside(tmp_path):
    shutil.copytree(HARNESS.parent, tmp_path / "files")
    assert main(["import", "lm-eval", str(next((tmp_path / "files").rglob("samples_aime_2*.jsonl"))),
                 "--inputs", str(tmp_path / "inputs")]) == 0
    run = ["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    assert main(run) == 0
    verdicts = tmp_path / "inputs" / "aime" / "harness" / "reasoner.jsonl"
    before = _report(tmp_path, "aime")["harness"]["reasoner"]["disagreements"]["exact_match"]
    lines = verdicts.read_text().splitlines()
    verdicts.write_text("\n".join(["{not json", *lines[1:]]) + "\n")
    assert main(run) == 0
    after = _report(tmp_path, "aime")["harness"]["reasoner"]
    assert after["disagreements"]["exact_match"]["rows"] == before["rows"] - 1
    assert after["verdicts_set_aside"][0].startswith(f"{verdicts}:1: JSONDecodeError")


def test_repeats_import_as_samples_and_the_harness_is_compared_on_the_first(imported):
    """aime24_repeats (repeats: 4): every repeat a sample; lm-eval scores its first repeat (take_first), so its
    figure reconciles with evalpipe's on each item's first reply."""
    samples = {str(row["doc_id"]): row["resps"][0] for row in _samples("aime24_repeats")}
    predictions = _lines(imported / "inputs" / "aime24_repeats" / "predictions" / "reasoner.jsonl")
    assert {row["id"]: row["samples"] for row in predictions} == samples
    assert all(len(replies) == 4 for replies in samples.values())
    report = _report(imported, "aime24_repeats")
    assert (report["samples"]["reasoner"]["n"], report["samples"]["reasoner"]["replies"]) == (4, 120)
    b4 = [row for row in _b4_rows(imported, "aime24_repeats") if row["sample"] == 0]
    first_right = sum(row["correct"] is True for row in b4)
    tally = report["harness"]["reasoner"]["disagreements"]["exact_match"]
    harness = REPEATS["results"]["aime24_repeats"]["exact_match,none"]
    assert tally["rows"] == 30
    assert round(harness * 30) - tally["right_by_harness_only"]["rows"] + tally["right_by_evalpipe_only"]["rows"] \
        == first_right


def _b4_rows(root, task):
    columns = read_columns(root / "outputs" / task / "reasoner" / "B4_matches.json")
    return [dict(zip(columns, values)) for values in zip(*columns.values())]
