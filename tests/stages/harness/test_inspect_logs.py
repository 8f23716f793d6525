"""Inspect's logs (one run of inspect-ai 0.3.285, as .eval and as .json) read as the same qa run, with Inspect's scorer
figures beside."""
from pathlib import Path

from stages.harness.inspect_logs import read_inspect

LOGS = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files" / "inspect"


def test_the_eval_and_json_logs_of_one_run_read_alike():
    eval_log, json_log = (list(read_inspect([path])) for path in sorted(LOGS.iterdir()))
    (first,), (second,) = eval_log, json_log
    assert (first.tool, first.task, first.model, first.kind) == ("inspect", "squad_replay", "mockllm/model", "qa")
    assert first.questions == second.questions and first.predictions == second.predictions
    assert first.metrics == second.metrics and first.metrics["exact (mean)"] == first.metrics["exact (mean)"]
    assert len(first.questions) == 31 and first.questions[0]["question"].startswith("Which NFL team")
    assert first.predictions[0] == {"id": first.questions[0]["id"], "prediction": "Denver Broncos"}
