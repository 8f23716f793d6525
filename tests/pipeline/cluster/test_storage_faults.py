"""Storage faults against a real SeaweedFS S3 server on 127.0.0.1: a wrong secret, a missing bucket, an endpoint
nobody listens on, a bad retry_for read as one line before any stage runs (exit 2, no secret printed); an outage
mid-run ridden out within retry_for (locally and on luigid), and one longer than it failing in one line per stage."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from stages.io.storage import location, storage_problem
from stages.io.storage_retries import configure_retries
from tests.pipeline.servers import REPO, Luigid, Relay, Weed, Worker, free_port
from tests.pipeline.workspace import qa_dataset

pytestmark = pytest.mark.servers  # real servers on 127.0.0.1; `-m 'not servers'` leaves these out

SECRET = "right-secret-f00d"


@pytest.fixture(scope="module")
def weed(tmp_path_factory):
    with Weed(tmp_path_factory.mktemp("weed"), identities={"evalpipe": SECRET}) as server:
        import s3fs

        fs = s3fs.S3FileSystem(endpoint_url=server.endpoint, key="evalpipe", secret=SECRET, skip_instance_cache=True)
        fs.mkdir("faults")
        fs.put(str(REPO / "inputs" / "qa_mixed"), "faults/inputs/qa_mixed", recursive=True)
        yield server


def _run(monkeypatch, env: dict[str, str], outputs: str = "s3://faults/outputs") -> int:
    import s3fs

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    s3fs.S3FileSystem.clear_instance_cache()
    return main(["run", "--inputs", "s3://faults/inputs", "--outputs", outputs])


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and SECRET not in err, err
    return err


def test_a_wrong_secret_is_one_line_and_exit_2(weed, monkeypatch, capsys):
    assert _run(monkeypatch, {**weed.env, "AWS_SECRET_ACCESS_KEY": "wrong-secret-beef"}) == 2
    err = _one_line(capsys)
    assert "s3://faults: the storage refused the credentials" in err and "wrong-secret-beef" not in err


def test_a_missing_output_bucket_is_one_line_and_never_created(weed, monkeypatch, capsys):
    assert _run(monkeypatch, weed.env, outputs="s3://no-such-bucket/outputs") == 2
    assert "s3://no-such-bucket: no such bucket" in _one_line(capsys)
    import s3fs

    assert not s3fs.S3FileSystem().exists("no-such-bucket")


def test_an_unreachable_endpoint_is_one_line_and_exit_2(weed, monkeypatch, capsys):
    assert _run(monkeypatch, {**weed.env, "AWS_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}"}) == 2
    assert "s3://faults: storage unreachable" in _one_line(capsys)


def test_with_the_right_credentials_the_run_writes_and_counts_its_artifacts(weed, monkeypatch, capsys):
    assert _run(monkeypatch, weed.env) == 0
    out = capsys.readouterr().out
    assert "artifact(s) written" in out and "0 artifact(s)" not in out


@pytest.mark.parametrize("value", ["soon", "-5", "nan"])
def test_a_retry_for_that_is_not_seconds_is_one_line_and_exit_2(tmp_path, value):
    (tmp_path / "luigi.cfg").write_text(f"[storage]\nretry_for = {value}\n")
    env = {**os.environ, "LUIGI_CONFIG_PATH": str(tmp_path / "luigi.cfg")}
    done = subprocess.run([sys.executable, "-m", "pipeline", "run", "--inputs", str(REPO / "inputs"), "--outputs",
                           str(tmp_path / "out")], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"evalpipe: luigi.cfg [storage] retry_for = '{value}': seconds, a number ≥ 0 "
                                   "(default 120)"), done.stderr
    assert not (tmp_path / "out").exists()


def test_after_a_build_an_outage_within_retry_for_is_waited_out_not_called_a_loss(weed, monkeypatch):
    relay = Relay(("127.0.0.1", int(weed.endpoint.rsplit(":", 1)[1])))
    try:
        for name, value in {**weed.env, "AWS_ENDPOINT_URL": f"http://127.0.0.1:{relay.port}"}.items():
            monkeypatch.setenv(name, value)
        where = location("s3://faults/outputs")
        relay.cut(20)
        started = time.monotonic()
        assert storage_problem(where).startswith("s3://faults: storage unreachable")  # before a run: soon
        assert time.monotonic() - started < 20
        assert storage_problem(where, patient=True) is None  # after a build: the outage is ridden out
        assert relay.refused > 1 and 20 <= time.monotonic() - started < 60
        relay.cut(math.inf)
        configure_retries(2)
        assert storage_problem(where, patient=True).startswith("s3://faults: storage unreachable")
    finally:
        configure_retries(120)
        relay.close()


class Outage:
    """A 2-shard QA run into a real S3 server reached through a relay whose network is cut, once the first shard's
    B1 is written, for `down_seconds` (math.inf: until the run ends), with luigi.cfg [storage] retry_for. The relay
    counts the connections the run tried meanwhile."""

    def __init__(self, tmp_path: Path, retry_for: float) -> None:
        import s3fs

        self.tmp_path = tmp_path
        inputs = qa_dataset(tmp_path, 200_000)
        (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 100000\n")
        config = tmp_path / "luigi.cfg"
        config.write_text((REPO / "luigi.cfg").read_text() + f"\n[storage]\nretry_for = {retry_for}\n")
        self.server = Weed(tmp_path / "weed").__enter__()
        self.relay = Relay(("127.0.0.1", int(self.server.endpoint.rsplit(":", 1)[1])))
        self.env = {**os.environ, **self.server.env, "AWS_ENDPOINT_URL": f"http://127.0.0.1:{self.relay.port}",
                    "LUIGI_CONFIG_PATH": str(config)}
        self.fs = s3fs.S3FileSystem(endpoint_url=self.server.endpoint, key=self.server.env["AWS_ACCESS_KEY_ID"],
                                    secret=self.server.env["AWS_SECRET_ACCESS_KEY"], skip_instance_cache=True)
        self.fs.mkdir("outage")
        self.command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs",
                        "s3://outage/out"]

    def run(self, down_seconds: float, scheduler: list[str] = ()) -> tuple[int, str]:
        """(exit code, stderr) of the run with the outage."""
        driver = subprocess.Popen([*self.command, *scheduler], cwd=REPO, env=self.env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not self.fs.glob("outage/out/big_qa/shards/*/B1_questions.json") and time.monotonic() < deadline:
            time.sleep(0.05)
            self.fs.invalidate_cache()
        self.relay.cut(down_seconds)
        _, err = driver.communicate(timeout=300)
        self.relay.restore()
        return driver.returncode, err

    def rerun(self) -> int:
        return subprocess.run(self.command, cwd=REPO, env=self.env, capture_output=True, timeout=300).returncode

    def assert_same_numbers_as_a_local_run(self) -> None:
        local = str(self.tmp_path / "local")
        assert subprocess.run([*self.command[:-1], local], cwd=REPO, env=self.env, capture_output=True).returncode == 0
        remote = orjson.loads(self.fs.cat_file("outage/out/B6_summary.json"))["rows"]
        assert remote == read_artifact_json(location(local) / "B6_summary.json")["rows"]

    def close(self) -> None:
        self.relay.close()
        self.server.__exit__()


@pytest.fixture
def outage(tmp_path, request):
    night = Outage(tmp_path, request.param)
    yield night
    night.close()


def _ridden_out(err: str, attempts: int, processes: int | None = None) -> None:
    """Each process that met the outage said so once, and once that the storage answered again — a pair of lines
    per process (`processes` when known: on luigid a worker forks one per task), fewer than the `attempts` refused
    meanwhile; nothing failed."""
    down = [line for line in err.splitlines() if line.startswith("evalpipe: storage unreachable")]
    back = [line for line in err.splitlines() if line.startswith("evalpipe: storage answering again after")]
    assert 1 <= len(down) == len(back) and "asking again for up to 120 s" in down[0], err
    assert len(down) == processes if processes else len(down) < attempts, (attempts, err)
    assert "Traceback" not in err and "FAILED" not in err and "failed" not in err, err


@pytest.mark.parametrize("outage", [120], indirect=True)
def test_a_storage_outage_shorter_than_retry_for_is_ridden_out_in_two_lines(outage):
    code, err = outage.run(down_seconds=20)
    assert outage.relay.refused > 0  # the run asked the storage during the outage
    assert code == 0, err[-3000:]
    _ridden_out(err, outage.relay.refused, processes=1)  # the local run's one process
    outage.assert_same_numbers_as_a_local_run()


@pytest.mark.parametrize("outage", [120], indirect=True)
def test_on_luigid_the_driver_and_a_worker_ride_out_a_storage_outage(outage):
    with Luigid(outage.tmp_path / "luigid") as luigid, Worker(luigid, outage.env, outage.tmp_path / "w.log") as worker:
        code, err = outage.run(20, ["--scheduler-host", "127.0.0.1", "--scheduler-port", str(luigid.port)])
        assert outage.relay.refused > 0
        assert code == 0, err[-3000:]
        both = err + worker.output()
    assert "evalpipe worker: ran" in both, both  # the worker took part
    _ridden_out(both, outage.relay.refused)
    outage.assert_same_numbers_as_a_local_run()


@pytest.mark.parametrize("outage", [3], indirect=True)
def test_storage_lost_for_longer_than_retry_for_fails_in_one_line_per_stage_and_the_rerun_completes(outage):
    code, err = outage.run(down_seconds=math.inf)
    assert code == 1
    lines = [line for line in err.strip().splitlines() if not line.startswith("evalpipe: storage unreachable")]
    assert "Traceback" not in err and len(lines) < 10, err
    assert all(line.startswith("evalpipe: B") and "failure record could not be written" in line
               for line in lines[:-1]), err
    assert lines[-1].startswith("evalpipe: run failed: the outputs' storage became unusable during the run: "
                                "s3://outage: storage unreachable"), err
    assert outage.rerun() == 0
    outage.assert_same_numbers_as_a_local_run()
