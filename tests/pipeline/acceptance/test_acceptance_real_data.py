"""Acceptance on real public data: SQuAD v1.1 dev + BERT predictions, FEVER gold + a system's predictions."""
import json
import sys

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import REPO

sys.path.insert(0, str(REPO / "bench"))
from official_squad import evaluate as official_squad_evaluate  # noqa: E402


def test_squad_v11_dev_with_bert_predictions_reproduces_the_official_scores(tmp_path, real_data):
    dataset_dir = tmp_path / "inputs" / "squad_dev"
    (dataset_dir / "predictions").mkdir(parents=True)
    (dataset_dir / "questions.json").symlink_to(real_data / "squad/dev-v1.1.json")
    (dataset_dir / "predictions" / "bert.json").symlink_to(real_data / "squad/bert-predictions.json")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0

    dataset = json.loads((real_data / "squad/dev-v1.1.json").read_text())["data"]
    predictions = json.loads((real_data / "squad/bert-predictions.json").read_text())
    official = official_squad_evaluate(dataset, predictions)
    metrics = read_artifact_json(tmp_path / "outputs/squad_dev/bert/B5_component_scores.json")["metrics"]
    assert metrics["rows"] == 10570
    assert abs(100 * metrics["exact_match"] - official["exact_match"]) < 1e-9
    assert abs(100 * metrics["f1"] - official["f1"]) < 1e-9
    b3 = read_artifact_json(tmp_path / "outputs/squad_dev/bert/B3_normalized.json")["header"]
    assert b3["info"]["rows_by_mode"] == {"squad": 10570}  # mode chosen from the script, recorded


def test_squad_dev_as_json_lines_takes_the_fast_path_with_the_same_per_item_scores(tmp_path, real_data):
    """The same questions and predictions as JSON lines (the Arrow fast path of B1 / B2): the official scores, and
    per item exactly what the per-row reading of the official files gives."""
    from stages.io.artifacts import read_columns
    from stages.io.columnar_loading import question_block
    from stages.io.jsonl_blocks import iter_line_blocks

    dataset = json.loads((real_data / "squad/dev-v1.1.json").read_text())["data"]
    predictions = json.loads((real_data / "squad/bert-predictions.json").read_text())
    for name, suffix in (("document", "json"), ("lines", "jsonl")):
        folder = tmp_path / "inputs" / name
        (folder / "predictions").mkdir(parents=True)
        if suffix == "json":
            (folder / "questions.json").symlink_to(real_data / "squad/dev-v1.1.json")
            (folder / "predictions" / "bert.json").symlink_to(real_data / "squad/bert-predictions.json")
            continue
        with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
                open(folder / "predictions" / "bert.jsonl", "w", encoding="utf-8") as answers:
            for qa in (qa for article in dataset for paragraph in article["paragraphs"] for qa in paragraph["qas"]):
                questions.write(json.dumps({"id": qa["id"], "question": qa["question"], "answers": qa["answers"]},
                                           ensure_ascii=False) + "\n")
                answers.write(json.dumps({"id": qa["id"], "prediction": predictions[qa["id"]]},
                                         ensure_ascii=False) + "\n")
    fields = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}
    blocks = list(iter_line_blocks(tmp_path / "inputs/lines/questions.jsonl"))
    assert all(question_block(block, fields) is not None for block in blocks)  # every block on the fast path
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0

    official = official_squad_evaluate(dataset, predictions)
    metrics = read_artifact_json(tmp_path / "outputs/lines/bert/B5_component_scores.json")["metrics"]
    assert abs(100 * metrics["exact_match"] - official["exact_match"]) < 1e-9
    assert abs(100 * metrics["f1"] - official["f1"]) < 1e-9
    lines, document = (read_columns(tmp_path / f"outputs/{name}/bert/B4_matches.json") for name in ("lines", "document"))
    assert lines == document


def _run_fever(tmp_path, real_data):
    """The FEVER files as they are (rows pair by line), run through the pipeline."""
    dataset_dir = tmp_path / "inputs" / "fever"
    (dataset_dir / "predictions").mkdir(parents=True)
    (dataset_dir / "questions.jsonl").symlink_to(real_data / "fever/actual.jsonl")
    (dataset_dir / "predictions" / "system.jsonl").symlink_to(real_data / "fever/predictions.jsonl")
    (dataset_dir / "dataset.toml").write_text('kind = "fact_verification"\nid_field = "@line"\n')
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0


def test_fever_label_accuracy_and_macro_f1(tmp_path, real_data):
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    _run_fever(tmp_path, real_data)

    gold = [json.loads(line)["label"] for line in (real_data / "fever/actual.jsonl").read_text().splitlines()]
    predicted = [json.loads(line)["predicted_label"]
                 for line in (real_data / "fever/predictions.jsonl").read_text().splitlines()]
    official_accuracy = sum(p.upper() == g.upper() for p, g in zip(predicted, gold)) / len(gold)
    metrics = read_artifact_json(tmp_path / "outputs/fever/system/B5_component_scores.json")["metrics"]
    assert metrics["rows"] == 9999
    assert metrics["accuracy"] == pytest.approx(official_accuracy, abs=1e-12)
    assert metrics["macro_avg"]["f1"] == pytest.approx(sklearn_metrics.f1_score(gold, predicted, average="macro"),
                                                       abs=1e-12)
    assert metrics["weighted_avg"]["f1"] == pytest.approx(
        sklearn_metrics.f1_score(gold, predicted, average="weighted"), abs=1e-12)
    mapping = {"SUPPORTS": "T", "REFUTES": "F", "NOT ENOUGH INFO": "uncertain"}
    assert metrics["per_class"]["T"]["support"] == sum(g == "SUPPORTS" for g in gold)
    expected_tt = sum(mapping[p] == mapping[g] == "T" for p, g in zip(predicted, gold))
    assert metrics["confusion_matrix"]["T"]["T"] == expected_tt


def test_fever_score_and_evidence_metrics_reproduce_the_official_scorer(tmp_path, real_data):
    """The official FEVER scorer's output on these files (max_evidence = 5), as the data README states it."""
    _run_fever(tmp_path, real_data)
    metrics = read_artifact_json(tmp_path / "outputs/fever/system/B5_component_scores.json")["metrics"]
    assert metrics["fever_score"] == pytest.approx(0.32573257325732574, abs=1e-12)
    assert metrics["accuracy"] == pytest.approx(0.5208520852085209, abs=1e-12)
    assert metrics["evidence_precision"] == pytest.approx(0.1043804380438068, abs=1e-12)
    assert metrics["evidence_recall"] == pytest.approx(0.44224422442244227, abs=1e-12)
    assert metrics["evidence_f1"] == pytest.approx(0.1688970477815144, abs=1e-12)
    rows = {row["id"]: row for row in _rows(tmp_path / "outputs/fever/system/B4_matches.json")}
    third = rows["3"]  # a SUPPORTS claim: label, evidence and strictness are stated per row
    assert set(third) >= {"correct", "evidence_group", "strict", "evidence_precision", "evidence_recall"}


def _rows(path):
    from stages.io.artifacts import iter_rows

    return list(iter_rows(path))
