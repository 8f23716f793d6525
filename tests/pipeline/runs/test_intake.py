"""Files as users bring them: CSVs as published and files without ids run without configuration."""
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json

CMMLU_AGRONOMY = "cmmlu/test/agronomy.csv"  # under the real data


def _metrics(outputs, dataset, model):
    return read_artifact_json(outputs / dataset / model / "B5_component_scores.json")["metrics"]


def test_cmmlu_csv_as_published_scores_without_dataset_toml(tmp_path, capsys, real_data):
    dataset = tmp_path / "inputs" / "cmmlu_agronomy"
    (dataset / "predictions").mkdir(parents=True)
    shutil.copy(real_data / CMMLU_AGRONOMY, dataset / "questions.csv")
    questions = pd.read_csv(real_data / CMMLU_AGRONOMY, index_col=0)
    replies = ["A" if index % 3 == 0 else answer for index, answer in zip(questions.index, questions["Answer"])]
    pd.DataFrame({"Prediction": replies}).to_csv(dataset / "predictions" / "m.csv")  # pandas writes the blank index
    expected = sum(reply == answer for reply, answer in zip(replies, questions["Answer"])) / len(questions)
    outputs = tmp_path / "outputs"
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    metrics = _metrics(outputs, "cmmlu_agronomy", "m")
    assert metrics["accuracy"] == pytest.approx(expected) and expected < 1
    assert read_artifact_json(outputs / "cmmlu_agronomy/B1_questions.json")["rejects"] == []
    assert "pair by position" not in capsys.readouterr().err


def _write_csv(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_files_without_ids_pair_by_position_and_the_console_says_so_once(tmp_path, capsys):
    dataset = tmp_path / "inputs" / "qa_noids"
    _write_csv(dataset / "questions.csv", "Question,Answer\nCapital of France?,Paris\nLargest planet?,Jupiter\n"
                                          "2+2?,4\n")
    _write_csv(dataset / "predictions" / "a.csv", "prediction\nParis\nSaturn\n4\n")
    _write_csv(dataset / "predictions" / "b.csv", "prediction\nParis\nJupiter\n4\n")
    outputs = tmp_path / "outputs"
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    err = capsys.readouterr().err
    assert err.count("rows pair by position") == 1 and "qa_noids" in err
    assert _metrics(outputs, "qa_noids", "a")["exact_match"] == pytest.approx(2 / 3)
    assert _metrics(outputs, "qa_noids", "b")["exact_match"] == pytest.approx(1.0)


def test_questions_with_ids_never_pair_by_position(tmp_path, capsys):
    dataset = tmp_path / "inputs" / "qa_mixed_ids"
    _write_csv(dataset / "questions.csv", "id,question,answer\n7,Capital of France?,Paris\n8,2+2?,4\n")
    _write_csv(dataset / "predictions" / "a.csv", "prediction\nParis\n4\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 1
    err = capsys.readouterr().err
    assert "pair by position" not in err and "PROBLEM qa_mixed_ids" in err


def test_a_run_of_one_dataset_says_nothing_about_the_others(tmp_path, capsys):
    """--dataset: the summary still reads every dataset, but the notes (rows by position, folders skipped) are only
    about the datasets run."""
    inputs = tmp_path / "inputs"
    _write_csv(inputs / "qa_noids" / "questions.csv", "Question,Answer\nCapital of France?,Paris\n")
    _write_csv(inputs / "qa_noids" / "predictions" / "a.csv", "prediction\nParis\n")
    _write_csv(inputs / "qa_ids" / "questions.csv", "id,question,answer\n1,2+2?,4\n")
    _write_csv(inputs / "qa_ids" / "predictions" / "a.csv", "id,prediction\n1,4\n")
    _write_csv(inputs / "qa_noids" / "predictions" / "readme.txt", "not predictions")
    (inputs / "notes_only").mkdir()
    (inputs / "_drafts").mkdir()
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs"), "--dataset", "qa_ids"]) == 0
    err = capsys.readouterr().err
    assert "qa_noids" not in err and "skipped" not in err, err
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs")]) == 0
    err = capsys.readouterr().err
    assert err.count("qa_noids: neither questions.csv nor the predictions have ids") == 1
    assert "skipped" in err and "notes_only" in err and "_drafts" in err and "readme.txt" in err
