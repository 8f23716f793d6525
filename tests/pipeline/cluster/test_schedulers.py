"""Runs with several workers and with a central luigid on 127.0.0.1 give the same artifacts as a local run."""
import shutil
import socket
import subprocess
import time

import pytest

from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import run

pytestmark = pytest.mark.servers  # real servers on 127.0.0.1; `-m 'not servers'` leaves these out


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _report(outputs):
    return read_artifact_json(outputs / "qa_small/B6_report.json")["report"]


def test_two_workers_match_one(workspace):
    assert run(workspace) == 0
    expected = _report(workspace / "outputs")
    shutil.rmtree(workspace / "outputs")
    assert run(workspace, "--workers", "2") == 0
    assert _report(workspace / "outputs") == expected


def test_central_scheduler(workspace, tmp_path):
    luigid = shutil.which("luigid")
    if luigid is None:
        pytest.skip("luigid is not on PATH")
    port = _free_port()
    server = subprocess.Popen(
        [luigid, "--port", str(port), "--address", "127.0.0.1", "--state-path", str(tmp_path / "state.pickle"),
         "--logdir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        assert run(workspace, "--scheduler-host", f"127.0.0.1:{port}") == 0
        assert _report(workspace / "outputs")["models"]["alpha"]["rows"] == 4
    finally:
        server.terminate()
        server.wait(timeout=10)
