"""OpenCompass' output folder (files OpenCompass wrote) read as runs: CMMLU as multiple choice with its options and
letter golds, the predictions as the model gave them, and OpenCompass' accuracy beside."""
import json
from pathlib import Path

from stages.harness.opencompass import read_opencompass

FOLDER = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files" / "opencompass"


def test_cmmlu_predictions_become_a_multiple_choice_run():
    (run,) = [run for run in read_opencompass([FOLDER]) if hasattr(run, "questions")]
    assert (run.tool, run.task, run.model, run.kind) == ("opencompass", "cmmlu_agronomy", "replay", "multiple_choice")
    (predictions_file,) = FOLDER.rglob("predictions/*/cmmlu_agronomy.json")
    raw = json.loads(predictions_file.read_text(encoding="utf-8"))
    assert len(run.questions) == len(raw) == 40
    assert [p["prediction"] for p in run.predictions] == [raw[key]["prediction"] for key in raw]
    assert [q["answer"] for q in run.questions] == [raw[key]["gold"] for key in raw]
    assert all(len(q["options"]) == 4 for q in run.questions)
    (summary,) = FOLDER.rglob("results/*/cmmlu_agronomy.json")
    assert run.metrics["accuracy"] == json.loads(summary.read_text())["accuracy"]
