"""Runs nobody waits for any more leave luigid within a minute, whatever came before: a run that failed (its failure
then passing, so a retry would succeed) and a driver SIGTERMed mid-run, in both orders, on one real luigid with one
`evalpipe worker` — the workers never carry an abandoned run on."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.pipeline.servers import REPO, Luigid, Worker
from tests.pipeline.workspace import qa_dataset

pytestmark = pytest.mark.servers  # real servers on 127.0.0.1; `-m 'not servers'` leaves these out


def _driver(inputs: Path, outputs: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs",
                             str(outputs), "--scheduler-host", "127.0.0.1", "--scheduler-port", str(port)], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _tasks(scheduler, status: str, outputs: Path) -> list[str]:
    """The run's tasks (those writing under `outputs`) in `status` on luigid."""
    return [task_id for task_id, info in scheduler.task_list(status, "").items()
            if info["params"].get("outputs_dir") == str(outputs)]


def _busy(scheduler) -> bool:
    return bool(scheduler.task_list("PENDING", "") or scheduler.task_list("RUNNING", ""))


@pytest.mark.parametrize("order", ["failed_then_stopped", "stopped_then_failed"])
def test_luigid_is_idle_within_a_minute_after_a_failed_run_and_a_stopped_driver(tmp_path, order):
    from luigi.rpc import RemoteScheduler

    inputs = qa_dataset(tmp_path, 120_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 10000\n")
    failing = tmp_path / "failing"
    blocker = failing / "big_qa" / "shards" / "00003"  # a file where a shard's folder goes: its B1 fails
    blocker.parent.mkdir(parents=True)
    blocker.write_text("not a folder")
    with Luigid(tmp_path / "luigid", disconnect_seconds=20, retry_seconds=1) as luigid, \
            Worker(luigid, {}, tmp_path / "worker.log") as worker:
        scheduler = RemoteScheduler(url=f"http://127.0.0.1:{luigid.port}")

        def failed_run() -> None:
            driver = _driver(inputs, failing, luigid.port)
            _, err = driver.communicate(timeout=300)
            assert driver.returncode == 1 and "Not a directory" in err, err[-2000:]
            blocker.unlink()  # the failure has passed: a worker retrying the failed task now would succeed

        def stopped_run() -> None:
            driver = _driver(inputs, tmp_path / "stopped", luigid.port)
            deadline = time.monotonic() + 60
            while not _tasks(scheduler, "RUNNING", tmp_path / "stopped") and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _tasks(scheduler, "PENDING", tmp_path / "stopped"), "nothing left to abandon"
            driver.send_signal(signal.SIGTERM)
            assert driver.wait(timeout=20) == 143

        for step in ((failed_run, stopped_run) if order == "failed_then_stopped" else (stopped_run, failed_run)):
            step()
        ended = time.monotonic()
        while _busy(scheduler) and time.monotonic() - ended < 120:
            time.sleep(1)
        idle_after = time.monotonic() - ended
        assert not _busy(scheduler) and idle_after < 60, f"luigid still busy {idle_after:.0f} s after the last driver"
        left = worker.output().count("no driver waits for it any more")
        assert 1 <= left <= 2, worker.output()  # a line per abandoned run, not per task
    assert not (failing / "big_qa" / "B6_report.json").exists()  # nobody finished the run its driver gave up
    assert not (tmp_path / "stopped" / "big_qa" / "B6_report.json").exists()
