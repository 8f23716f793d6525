"""One night across machines, against real servers on 127.0.0.1: SeaweedFS for S3 storage, luigid, and two
`evalpipe worker` assistants. The demo suite gives the local run's numbers; every stage runs exactly once; a no-op
rerun runs nothing; a worker killed mid-run leaves a run the next invocation completes."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from stages.io.storage import location
from tests.pipeline.servers import REPO, Luigid, Weed, Worker
from tests.pipeline.workspace import qa_dataset

pytestmark = pytest.mark.servers  # real servers on 127.0.0.1; `-m 'not servers'` leaves these out

DEMO = REPO / "inputs"
RAN = re.compile(r"evalpipe (?:worker|run): ran (B\d) (\S+) \(")


@pytest.fixture(scope="module")
def weed(tmp_path_factory):
    with Weed(tmp_path_factory.mktemp("weed")) as server:
        yield server


@pytest.fixture
def s3_env(weed, monkeypatch):
    for name, value in weed.env.items():
        monkeypatch.setenv(name, value)
    import s3fs

    s3fs.S3FileSystem.clear_instance_cache()
    return weed.env


def _bucket(name: str) -> str:
    import s3fs

    fs = s3fs.S3FileSystem()
    fs.mkdir(name)
    return name


def _upload(local: Path, url: str) -> None:
    import s3fs

    fs = s3fs.S3FileSystem()
    for path in sorted(local.rglob("*")):
        if path.is_file():
            fs.pipe(f"{url.removeprefix('s3://')}/{path.relative_to(local).as_posix()}", path.read_bytes())


def _summary_rows(outputs: str) -> list[dict]:
    return read_artifact_json(location(outputs) / "B6_summary.json")["rows"]


def _ran(*texts: str) -> Counter:
    return Counter(match.groups() for text in texts for match in RAN.finditer(text))


def test_the_demo_on_two_workers_over_s3_equals_the_local_run(tmp_path, s3_env, capsys):
    assert main(["run", "--inputs", str(DEMO), "--outputs", str(tmp_path / "local")]) == 0
    local = _summary_rows(str(tmp_path / "local"))
    bucket = _bucket("demo")
    _upload(DEMO, f"s3://{bucket}/inputs")
    inputs, outputs = f"s3://{bucket}/inputs", f"s3://{bucket}/outputs"
    with Luigid(tmp_path / "luigid") as luigid, \
            Worker(luigid, s3_env, tmp_path / "w1.log") as first, Worker(luigid, s3_env, tmp_path / "w2.log") as second:
        capsys.readouterr()
        assert main(["run", "--inputs", inputs, "--outputs", outputs, "--scheduler-host", "127.0.0.1",
                     "--scheduler-port", str(luigid.port)]) == 0
        driver = capsys.readouterr().err
        time.sleep(0.5)
        ran = _ran(driver, first.output(), second.output())
        assert _summary_rows(outputs) == local
        stage_tasks = sum(1 + 4 * len(row_models) + 1 for row_models in _models_by_dataset(local).values())
        assert sum(ran.values()) == stage_tasks and set(ran.values()) == {1}, ran
        assert _ran(first.output()) or _ran(second.output())  # stages ran on the assistants, not only here

        before = (first.output(), second.output())
        assert main(["run", "--inputs", inputs, "--outputs", outputs, "--scheduler-host", "127.0.0.1",
                     "--scheduler-port", str(luigid.port)]) == 0
        time.sleep(0.5)
        assert not _ran(capsys.readouterr().err) and (first.output(), second.output()) == before

        lost = location(outputs) / "qa_mixed" / "model_a" / "B3_normalized.json"
        lost.unlink()
        started = time.monotonic()
        signal.alarm(120)  # a driver waiting for a stage nobody schedules would hang here
        try:
            assert main(["run", "--inputs", inputs, "--outputs", outputs, "--scheduler-host", "127.0.0.1",
                         "--scheduler-port", str(luigid.port)]) == 0
        finally:
            signal.alarm(0)
        assert time.monotonic() - started < 60 and lost.exists()
        assert _summary_rows(outputs) == local


def _models_by_dataset(rows: list[dict]) -> dict[str, set[str]]:
    models: dict[str, set[str]] = {}
    for row in rows:
        models.setdefault(row["dataset"], set()).add(row["model"])
    return models


LOADING_ARTIFACTS = {"B1Questions": "B1_questions.json", "B2Predictions": "m/B2_predictions.json"}  # of big_qa


def _running_pid(port: int, stage_family: str) -> int | None:
    from luigi.rpc import RemoteScheduler

    for info in RemoteScheduler(url=f"http://127.0.0.1:{port}").task_list("RUNNING", "").values():
        if info.get("name") == stage_family and info.get("worker_running"):
            return int(re.search(r"pid=(\d+)", info["worker_running"]).group(1))
    return None


def test_a_worker_killed_mid_task_leaves_a_run_the_next_invocation_completes(tmp_path, s3_env, capsys):
    inputs = qa_dataset(tmp_path, 200_000)
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "local")]) == 0
    local = _summary_rows(str(tmp_path / "local"))
    outputs = f"s3://{_bucket('killed')}/outputs"
    with Luigid(tmp_path / "luigid") as luigid, Worker(luigid, s3_env, tmp_path / "w.log") as worker:
        command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs", outputs,
                   "--scheduler-host", "127.0.0.1", "--scheduler-port", str(luigid.port)]
        driver = subprocess.Popen(command, cwd=REPO, env={**os.environ, **s3_env}, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        deadline, victim, stage = time.monotonic() + 60, None, None
        while victim is None and time.monotonic() < deadline:
            for stage in LOADING_ARTIFACTS:  # B2 and B1 each read 200k rows: whichever is seen running is killed
                victim = _running_pid(luigid.port, stage)
                if victim is not None:
                    break
            time.sleep(0.02)
        assert victim in (driver.pid, worker.process.pid), victim
        os.kill(victim, signal.SIGKILL)  # at once
        assert read_artifact_json(location(outputs) / "big_qa" / LOADING_ARTIFACTS[stage]) is None  # nothing half-done
        if victim == driver.pid:
            driver.wait(timeout=10)
            driver = subprocess.Popen(command, cwd=REPO, env={**os.environ, **s3_env}, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
        code = driver.wait(timeout=240)
        assert code == 0, driver.stderr.read()
    assert _summary_rows(outputs) == local


def test_fingerprints_are_the_same_from_two_working_directories(tmp_path, monkeypatch):
    headers = []
    for place in ("first", "second"):
        root = tmp_path / place
        (root / "inputs").mkdir(parents=True)
        for name in ("qa_mixed", "story_annotation"):
            subprocess.run(["cp", "-r", str(DEMO / name), str(root / "inputs" / name)], check=True)
        monkeypatch.chdir(root)
        assert main(["run", "--inputs", "inputs", "--outputs", "out"]) == 0
        headers.append({str(path.relative_to(root / "out")): read_artifact_json(path)["header"]["fingerprint"]
                        for path in sorted((root / "out").rglob("B[1-6]_*.json"))})
    assert headers[0] == headers[1] and len(headers[0]) == 2 * (1 + 4 * 2 + 1) + 1


def test_sharded_json_lines_inputs_in_the_bucket_are_read_once_and_give_the_local_numbers(tmp_path, s3_env, capsys):
    inputs = qa_dataset(tmp_path, 40_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 10000\n")
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "local")]) == 0
    local = _summary_rows(str(tmp_path / "local"))
    bucket = _bucket("sharded")
    _upload(inputs, f"s3://{bucket}/inputs")
    outputs = f"s3://{bucket}/outputs"
    with Luigid(tmp_path / "luigid") as luigid, Worker(luigid, s3_env, tmp_path / "w.log"):
        started = time.monotonic()
        assert main(["run", "--inputs", f"s3://{bucket}/inputs", "--outputs", outputs, "--scheduler-host",
                     "127.0.0.1", "--scheduler-port", str(luigid.port)]) == 0
        assert time.monotonic() - started < 90
    assert _summary_rows(outputs) == local
    facts = list((location(outputs) / "_input_facts").iterdir())
    assert len(facts) == 2  # the questions and the one predictions file, each read for its shards once
    stored = json.loads(facts[0].read_bytes())
    assert [start[0] for start in stored["starts"]] == [0, 10000, 20000, 30000] and len(stored["digests"]) == 4


def _children(pid: int) -> list[int]:
    """The living child processes of `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, parent = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except OSError:
            continue
        if int(parent) == pid and state != "Z":
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_sigterm_to_a_worker_ends_its_task_processes(tmp_path):
    inputs = qa_dataset(tmp_path, 300_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 50000\n")  # loads for both to take
    with Luigid(tmp_path / "luigid") as luigid, Worker(luigid, {}, tmp_path / "w.log") as worker:
        _wait_for_a_worker(luigid.port)  # a driver started first may load both files before the worker is up
        driver = subprocess.Popen([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs",
                                   str(tmp_path / "out"), "--scheduler-host", "127.0.0.1", "--scheduler-port",
                                   str(luigid.port)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline, busy = time.monotonic() + 60, []
            while not busy and time.monotonic() < deadline:
                if worker.process.pid in (_running_pid(luigid.port, "B1Questions"),
                                          _running_pid(luigid.port, "B2Predictions")):
                    busy = _children(worker.process.pid)
                time.sleep(0.05)
            assert busy, "the worker never ran a task"
            worker.process.send_signal(signal.SIGTERM)
            assert worker.process.wait(timeout=20) == 0
            deadline = time.monotonic() + 5
            while any(map(_alive, busy)) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not any(map(_alive, busy)), busy
            assert "SIGTERM: stopped" in worker.output()
        finally:
            driver.kill()
            driver.wait()


def test_a_stopped_driver_takes_its_pending_tasks_off_the_workers_within_a_minute(tmp_path):
    inputs = qa_dataset(tmp_path, 120_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 10000\n")
    with Luigid(tmp_path / "luigid", disconnect_seconds=20) as luigid, Worker(luigid, {}, tmp_path / "w.log"):
        from luigi.rpc import RemoteScheduler

        scheduler = RemoteScheduler(url=f"http://127.0.0.1:{luigid.port}")
        driver = subprocess.Popen([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs",
                                   str(tmp_path / "out"), "--scheduler-host", "127.0.0.1", "--scheduler-port",
                                   str(luigid.port)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not scheduler.task_list("RUNNING", "") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert scheduler.task_list("PENDING", ""), "nothing left to take off"
        driver.send_signal(signal.SIGTERM)
        driver.wait(timeout=20)
        stopped = time.monotonic()
        while (scheduler.task_list("PENDING", "") or scheduler.task_list("RUNNING", "")) \
                and time.monotonic() - stopped < 90:
            time.sleep(1)
        assert not scheduler.task_list("PENDING", "") and not scheduler.task_list("RUNNING", "")
        assert time.monotonic() - stopped < 60


def _release(folder: Path) -> str:
    """Another release of evalpipe in `folder` (this code plus one changed line); its code version."""
    for package in ("stages", "pipeline"):
        shutil.copytree(REPO / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "luigi.cfg", folder / "luigi.cfg")
    with open(folder / "pipeline" / "__init__.py", "a") as init:
        init.write("# the next release\n")
    return subprocess.run([sys.executable, "-c", "from pipeline.fingerprint import code_version; print(code_version())"],
                          cwd=folder, capture_output=True, text=True, check=True).stdout.strip()


def _wait_for_a_worker(port: int) -> None:
    from luigi.rpc import RemoteScheduler

    deadline = time.monotonic() + 60
    while not RemoteScheduler(url=f"http://127.0.0.1:{port}").worker_list() and time.monotonic() < deadline:
        time.sleep(0.1)


def test_a_worker_of_another_code_version_leaves_the_run_to_its_own_release(tmp_path, capsys):
    from pipeline.fingerprint import code_version

    theirs, ours = _release(tmp_path / "next"), code_version()
    assert theirs != ours
    inputs = qa_dataset(tmp_path, 200_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 20000\n")  # tasks enough to be offered
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "local")]) == 0
    local = _summary_rows(str(tmp_path / "local"))
    with Luigid(tmp_path / "luigid") as luigid, \
            Worker(luigid, {}, tmp_path / "next.log", release=tmp_path / "next") as upgraded:
        _wait_for_a_worker(luigid.port)
        capsys.readouterr()
        assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "out"), "--scheduler-host",
                     "127.0.0.1", "--scheduler-port", str(luigid.port)]) == 0
        time.sleep(0.5)
        driver, log = capsys.readouterr().err, upgraded.output()
    assert _summary_rows(str(tmp_path / "out")) == local
    assert not _ran(log) and sum(_ran(driver).values()) == 10 * 5 + 1
    left = [line for line in log.splitlines() if " left " in line]
    assert len(left) == 1 and theirs in left[0] and ours in left[0], log
