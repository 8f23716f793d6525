"""`evalpipe import bfcl ROOT --data DATA`: a result folder bfcl-eval scored itself (make_bfcl_reference.py
--result-folder: two models, every single-turn category) becomes ONE dataset, `bfcl`, and `evalpipe run` gives each
category's accuracy and BFCL's summary equal to bfcl-eval's score files and data_overall.csv."""
import csv
import importlib.util
import json
import shutil
import tomllib

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import REPO, run

RUN = REPO / "tests" / "stages" / "kinds" / "function_calling" / "bfcl_reference" / "run"
SUMMARY = {"non_live_ast": "Non-Live AST Acc", "live": "Live Acc", "relevance": "Relevance Detection",
           "irrelevance": "Irrelevance Detection"}


def _score_files(model: str) -> dict[str, list[dict]]:
    return {path.name[len("BFCL_v4_"):-len("_score.json")]: [json.loads(line) for line in path.read_text().splitlines()]
            for path in (RUN / "score" / model).rglob("*_score.json")}


def test_a_result_folder_imports_as_one_dataset_scored_as_bfcl_eval_scored_it(tmp_path, real_data, capsys):
    inputs = tmp_path / "inputs"
    assert main(["import", "bfcl", str(RUN), "--data", str(real_data / "bfcl"), "--inputs", str(inputs)]) == 0
    assert sorted(p.name for p in inputs.iterdir()) == ["bfcl"]
    assert sorted(p.name for p in (inputs / "bfcl" / "predictions").iterdir()) == ["fc-model.jsonl",
                                                                                  "prompting-model.jsonl"]
    assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "bfcl" / "B6_report.json")["report"]
    overall = {row["Model"]: row for row in csv.DictReader((RUN / "score" / "data_overall.csv").open())}
    for model in ("prompting-model", "fc-model"):
        found, scores = report["models"][model], _score_files(model)
        assert set(found["by_category"]) == set(scores) and len(scores) == 13
        for category, (header, *invalid) in scores.items():
            figures = found["by_category"][category]
            assert (figures["correct"], figures["count"]) == (header["correct_count"], header["total_count"])
        b4 = read_columns(tmp_path / "outputs" / "bfcl" / model / "B4_matches.json")
        ours = {row_id: error for row_id, valid, error in zip(b4["id"], b4["valid"], b4["error_type"]) if not valid}
        theirs = {line["id"]: line["error_type"] for _, *invalid in scores.values() for line in invalid}
        assert ours == theirs and len(theirs) > 40
        for name, column in SUMMARY.items():
            assert f"{100 * found['summary'][name]['value']:.2f}%" == overall[model][column]
        assert found["summary"]["overall"]["value"] is None  # bfcl-eval counts the missing parts as 0 here
        assert overall[model]["Multi Turn Acc"] == "0.00%" and found["summary"]["multi_turn"]["value"] is None
        assert report["harness"][model]["metrics"]["simple_java.accuracy"] == pytest.approx(
            scores["simple_java"][0]["accuracy"])


@pytest.mark.skipif(importlib.util.find_spec("bfcl_eval") is not None, reason="bfcl-eval installed: multi-turn runs")
def test_bad_result_lines_are_set_aside_with_file_and_line(tmp_path, real_data, capsys):
    root = tmp_path / "bfcl_run"
    shutil.copytree(RUN / "result", root / "result")
    path = root / "result" / "prompting-model" / "non_live" / "BFCL_v4_simple_python_result.json"
    path.write_text(path.read_text() + "{not json\n" + json.dumps({"id": "simple_python_99999", "result": "[f()]"})
                    + "\n")
    multi_turn = root / "result" / "prompting-model" / "multi_turn" / "BFCL_v4_multi_turn_base_result.json"
    multi_turn.parent.mkdir()
    multi_turn.write_text(json.dumps({"id": "multi_turn_base_0", "result": [[]]}) + "\n")
    inputs = tmp_path / "inputs"
    assert main(["import", "bfcl", str(root), "--data", str(real_data / "bfcl"), "--inputs", str(inputs)]) == 0
    err = capsys.readouterr().err
    assert f"skipped {multi_turn}: multi-turn episodes run against bfcl-eval's mock APIs: `pip install" in err
    assert f"set aside {path}:7: malformed JSON" in err
    assert "set aside prompting-model: id simple_python_99999: no such item in" in err
    questions = [json.loads(line) for line in (inputs / "bfcl" / "questions.jsonl").read_text().splitlines()]
    assert len(questions) == 13 * 6 and all("ground_truth" in q for q in questions if "relevance" not in q["id"])


def test_data_is_bfcls_option_only(tmp_path, capsys):
    assert main(["import", "lm-eval", str(tmp_path), "--data", str(tmp_path), "--inputs", str(tmp_path / "in")]) == 2
    assert "--data is for importers that read a separate data folder (bfcl, tau2)" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("bfcl_eval") is None, reason="multi-turn results import with bfcl-eval")
def test_imported_multi_turn_items_name_the_data_folder_for_their_function_docs(tmp_path, real_data):
    root = tmp_path / "bfcl_run"
    shutil.copytree(RUN / "result", root / "result")
    inputs = tmp_path / "inputs"
    assert main(["import", "bfcl", str(root), "--data", str(real_data / "bfcl"), "--inputs", str(inputs)]) == 0
    assert "bfcl_data" not in tomllib.loads((inputs / "bfcl" / "dataset.toml").read_text()).get("params", {})
    multi_turn = root / "result" / "prompting-model" / "multi_turn" / "BFCL_v4_multi_turn_base_result.json"
    multi_turn.parent.mkdir()
    multi_turn.write_text(json.dumps({"id": "multi_turn_base_0", "result": [[]]}) + "\n")
    shutil.rmtree(inputs)
    assert main(["import", "bfcl", str(root), "--data", str(real_data / "bfcl"), "--inputs", str(inputs)]) == 0
    params = tomllib.loads((inputs / "bfcl" / "dataset.toml").read_text())["params"]
    assert params["bfcl_data"] == str((real_data / "bfcl").resolve())
    assert (real_data / "bfcl" / "multi_turn_func_doc").is_dir()
