"""Storage faults read as one line before any stage runs, against a real SeaweedFS S3 server with credentials on
127.0.0.1: a wrong secret, a missing bucket, an endpoint nobody listens on (exit 2, no secret printed)."""
from __future__ import annotations

import orjson
import pytest

from pipeline.cli import main
from tests.pipeline.servers import REPO, Weed, free_port

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


def test_storage_lost_mid_run_fails_with_one_line_per_stage_and_the_rerun_completes(tmp_path):
    import os
    import subprocess
    import sys
    import time

    import s3fs

    from tests.pipeline.test_cluster import _qa_dataset

    inputs = _qa_dataset(tmp_path, 200_000)
    (inputs / "big_qa" / "dataset.toml").write_text("[params]\nshard_rows = 100000\n")
    server = Weed(tmp_path / "weed")
    with server:
        env = {**os.environ, **server.env}
        fs = s3fs.S3FileSystem(endpoint_url=server.endpoint, key=server.env["AWS_ACCESS_KEY_ID"],
                               secret=server.env["AWS_SECRET_ACCESS_KEY"], skip_instance_cache=True)
        fs.mkdir("outage")
        command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs", "s3://outage/out"]
        driver = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        deadline = time.monotonic() + 60
        while not fs.glob("outage/out/big_qa/shards/*/B1_questions.json") and time.monotonic() < deadline:
            time.sleep(0.05)
            fs.invalidate_cache()
    _, err = driver.communicate(timeout=300)  # the storage is gone from here on
    assert driver.returncode == 1
    lines = err.strip().splitlines()
    assert "Traceback" not in err and len(lines) < 10, err
    assert all(line.startswith("evalpipe: B") and "failure record could not be written" in line
               for line in lines[:-1]), err
    assert lines[-1].startswith("evalpipe: run failed: the outputs' storage became unusable during the run: "
                                "s3://outage: storage unreachable"), err
    with server:  # the storage is back (same ports, same data)
        rerun = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert rerun.returncode == 0, rerun.stderr[-3000:]
        local = subprocess.run([*command[:-1], str(tmp_path / "local")], cwd=REPO, env=env, capture_output=True)
        assert local.returncode == 0
        from stages.io.artifacts import read_artifact_json
        from stages.io.storage import location

        fs.invalidate_cache()
        remote = orjson.loads(fs.cat_file("outage/out/B6_summary.json"))["rows"]
    assert remote == read_artifact_json(location(str(tmp_path / "local")) / "B6_summary.json")["rows"]
