"""The annotation kind in the pipeline: folders of documents as inputs, taxonomies as parameters, reruns."""
import shutil
from pathlib import Path

from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import DEMO_INPUTS, changed, run, snapshot

DEMO = DEMO_INPUTS / "story_annotation"


def _workspace(tmp_path: Path) -> Path:
    shutil.copytree(DEMO, tmp_path / "inputs" / "story_annotation")
    return tmp_path


def test_reruns_follow_documents_and_taxonomies(tmp_path):
    workspace = _workspace(tmp_path)
    outputs = workspace / "outputs"
    assert run(workspace) == 0
    before = snapshot(outputs)
    assert run(workspace) == 0 and changed(before, snapshot(outputs)) == set()

    document = workspace / "inputs/story_annotation/predictions/model_b/cn_houyi.json"
    document.write_text(document.read_text(encoding="utf-8").replace("Hero", "hero"), encoding="utf-8")
    before = snapshot(outputs)
    assert run(workspace) == 0
    stages = {name.split("/", 1)[1] for name in changed(before, snapshot(outputs)) if name.count("/") == 2}
    assert stages == {"model_b/B2_predictions.json", "model_b/B3_normalized.json", "model_b/B4_matches.json",
                      "model_b/B5_component_scores.json"}

    sentiment = workspace / "inputs/story_annotation/taxonomies/sentiment.csv"
    sentiment.write_text(sentiment.read_text(encoding="utf-8") + "rage,negative,狂怒\n", encoding="utf-8")
    before = snapshot(outputs)
    assert run(workspace) == 0
    rerun = changed(before, snapshot(outputs))
    assert "story_annotation/model_a/B5_component_scores.json" in rerun
    assert not any("B4" in name or "B3" in name for name in rerun)
    metrics = read_artifact_json(outputs / "story_annotation/model_b/B5_component_scores.json")["metrics"]
    assert metrics["invalid_labels"]["sentiment"]["invalid"] == 0  # rage is now in the taxonomy


def test_a_missing_taxonomy_file_fails_the_dataset_in_one_line(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    (workspace / "inputs/story_annotation/taxonomies/sentiment.csv").unlink()
    assert run(workspace) == 1
    assert "[taxonomies] sentiment 'taxonomies/sentiment.csv' does not exist" in capsys.readouterr().err


def test_a_questions_file_beside_ground_truth_fails_the_dataset_in_one_line(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    (workspace / "inputs/story_annotation/questions.jsonl").write_text('{"id": 1}\n', encoding="utf-8")
    assert run(workspace) == 1
    assert "has both questions.jsonl and ground_truth/" in capsys.readouterr().err
