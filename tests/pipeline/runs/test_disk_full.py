"""A full disk under the outputs (a small tmpfs, mounted where the test may mount one): one line naming the storage,
exit 1, no traceback, no claim about a summary or report that was not written, no temporary file left; the rerun with
space resumes and ends as a run that never ran out."""
import subprocess

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import DEMO_INPUTS, snapshot

DEMO = DEMO_INPUTS


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({made.stderr.decode().strip() or 'mount failed'}); run as root")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.parametrize("command", ["run", "nightly"])
def test_a_full_disk_is_one_line_and_the_rerun_with_space_resumes(small_disk, tmp_path, capsys, command):
    outputs = small_disk / "outputs"
    argv = [command, "--inputs", str(DEMO), "--outputs", str(outputs)] + (
        ["--date", "2026-11-20"] if command == "nightly" else [])
    assert main(argv) == 1
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("evalpipe")]
    assert any(f"the outputs' storage {outputs}" in line and "is full: no space left" in line for line in lines)
    assert "Traceback" not in captured.err and "summary and report.html written" not in captured.err
    assert not [p for p in small_disk.rglob("*") if ".tmp" in p.name]
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    kept = {name: state for name, state in snapshot(outputs).items() if name.endswith("_questions.json")}
    assert kept  # some stages finished before the disk filled
    assert main(argv) == 0
    root = outputs / "nightly" / "2026-11-20" if command == "nightly" else outputs
    summary = read_artifact_json(root / "B6_summary.json")
    assert summary["failed"] == {} and len(summary["datasets"]) == 6
    after = snapshot(outputs)
    assert all(after[name] == state for name, state in kept.items())  # what was written before is kept, not redone
