"""A run killed at any moment leaves no artifact that counts as done unless it is whole, and the next run resumes."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import write_jsonl

ROWS = 150_000


def _start(workspace: Path, outputs: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(workspace / "inputs"), "--outputs",
               str(workspace / outputs)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _make_inputs(workspace: Path) -> None:
    write_jsonl(workspace / "inputs/big/questions.jsonl",
                [{"id": i, "question": f"q{i}", "answers": [f"answer {i}", f"the answer {i % 7}"]} for i in range(ROWS)])
    for model, shift in (("m1", 0), ("m2", 3)):
        write_jsonl(workspace / f"inputs/big/predictions/{model}.jsonl",
                    [{"id": i, "prediction": f"answer {(i + shift * (i % 2)) % ROWS}"} for i in range(ROWS)])


def _metrics(outputs: Path) -> dict:
    return {m: read_artifact_json(outputs / f"big/{m}/B5_component_scores.json")["metrics"] for m in ("m1", "m2")}


def test_killed_runs_leave_only_whole_artifacts_and_the_next_run_completes(tmp_path):
    _make_inputs(tmp_path)
    started = time.perf_counter()
    reference = _start(tmp_path, "reference")
    assert reference.wait(timeout=300) == 0
    took = time.perf_counter() - started
    expected = _metrics(tmp_path / "reference")

    outputs = tmp_path / "outputs"
    kills = 0
    for share in (0.2, 0.35, 0.5, 0.65, 0.8):  # of a whole run's time, however fast this machine is
        delay = share * took
        process = _start(tmp_path, "outputs")
        time.sleep(delay)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait(timeout=60)
        for artifact in outputs.rglob("B*_*.json"):
            document = json.loads(artifact.read_text(encoding="utf-8"))  # never half-written
            if "rows_file" in document:
                assert (artifact.parent / document["rows_file"]).exists()
    assert kills >= 2, "the run finished too fast to be killed; raise ROWS"

    final = _start(tmp_path, "outputs")
    assert final.wait(timeout=300) == 0
    assert _metrics(outputs) == expected
    assert (outputs / "B6_summary.json").exists()
