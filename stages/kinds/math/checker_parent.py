"""The warm process math-verify's checkers are forked from (verify_worker.py run as a script), one per process and
kept for every pool: started ahead of B4 where the kind can, it parses the texts it is given — filling ANTLR's
prediction caches, slow to fill in a fresh process — until a checker is asked for; every checker, the first or one in
place of a checker killed over its time limit, is a fork of it holding those parses."""
from __future__ import annotations

import atexit
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO

WORKER = Path(__file__).with_name("verify_worker.py")
START_SECONDS = 120.0  # importing sympy and math-verify on a loaded machine
STOP_SECONDS = 5.0  # how long a stopped parent is given to reap its checkers
INSTALL_HINT = "pip install math-verify==0.9.0 antlr4-python3-runtime==4.13.2"


class CheckerFailed(RuntimeError):
    """math-verify could not be started at all (not installed, broken install)."""


class CheckerParent:
    """The warm parent process, talked to over a socket: texts to parse ahead, then checkers forked on request."""

    def __init__(self) -> None:
        self.control, theirs = socket.socketpair()
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, str(WORKER), str(theirs.fileno())], pass_fds=[theirs.fileno()],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errors,
                                        start_new_session=True)
        theirs.close()
        self.lock = threading.Lock()
        self.buffer, self.fds, self.ready = b"", [], False
        self.warm_texts: list[str] = []
        self.held: frozenset[str] | None = None  # the warm texts it parsed, once it has stopped warming

    def alive(self) -> bool:
        return self.process.poll() is None

    def warm(self, texts: list[str]) -> None:
        """Texts to parse ahead, while no checker has been asked for (each text once: B1 and B3 give the same golds)."""
        with self.lock:
            given = set(self.warm_texts)
            texts = [text for text in dict.fromkeys(texts) if text not in given]
            if self.held is None and texts:
                try:
                    self._send({"warm": texts})
                except OSError:  # it has ended: B4 starts another, and says why when that fails too
                    return
                self.warm_texts.extend(texts)

    def stop_warming(self, seconds: float) -> bool:
        """Stop warming, waiting up to `seconds` for the text it is on; False when it did not stop in time or has
        ended."""
        with self.lock:
            self._wait_ready()
            if self.held is None:
                try:
                    self._send({"stop": True})
                except OSError:
                    return False
                reply = self._reply(seconds)
                if reply is None:
                    return False
                self.held = frozenset(self.warm_texts[:json.loads(reply)["parsed"]])
            return True

    def fork(self) -> tuple[int, int, BinaryIO]:
        """A new checker, after stop_warming: its pidfd, the pipe its answers come on, the pipe its requests go to."""
        with self.lock:
            requests, requests_end = os.pipe()
            answers_end, answers = os.pipe()
            try:
                socket.send_fds(self.control, [b'{"fork": true}\n'], [requests, answers])
                reply = self._reply(START_SECONDS)
            except OSError:
                reply = None
            finally:
                os.close(requests)
                os.close(answers)
            fds = self.fds[:1]
            self.fds = self.fds[1:]
            if reply is None or not fds:
                for end in (requests_end, answers_end, *fds):
                    os.close(end)
                raise CheckerFailed("math-verify's checker could not be forked from its warm parent")
            return fds[0], answers_end, os.fdopen(requests_end, "wb")

    def stop(self, seconds: float = STOP_SECONDS) -> None:
        """End it: it reaps its checkers as they end, and is killed when that takes past `seconds`."""
        self.control.close()
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.errors.close()
        for fd in self.fds:
            os.close(fd)
        self.fds = []

    def _wait_ready(self) -> None:
        if self.ready:
            return
        if self._reply(START_SECONDS) == b"ready":
            self.ready = True
            return
        self.errors.seek(0)
        said = self.errors.read().decode("utf-8", "replace").strip().splitlines()
        self.stop()
        raise CheckerFailed(f"math-verify could not be started ({said[-1] if said else 'no message'}); "
                            f"the math kind needs it: {INSTALL_HINT}")

    def _send(self, request: dict) -> None:
        self.control.sendall(json.dumps(request).encode() + b"\n")

    def _reply(self, seconds: float) -> bytes | None:
        """The next line it writes (file descriptors sent with it kept in self.fds), or None when it writes none
        within `seconds` or has ended."""
        while b"\n" not in self.buffer:
            if not select.select([self.control], [], [], seconds)[0]:
                return None
            data, fds, _, _ = socket.recv_fds(self.control, 1 << 16, 2)
            self.fds += fds
            if not data:
                return None
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line


_PARENTS: dict[int, CheckerParent] = {}  # by the process that started it (a forked process starts its own)
_LOCK = threading.Lock()


def start_checker_parent(texts: list[str]) -> None:
    """Start this process's warm parent now, unless it runs, and give it `texts` to parse ahead."""
    with _LOCK:
        parent = _PARENTS.get(os.getpid())
        if parent is None or not parent.alive():
            parent = _PARENTS[os.getpid()] = CheckerParent()
    parent.warm(texts)


def checker_parent(seconds: float) -> CheckerParent:
    """This process's warm parent, done warming, started now if there is none; one still on a warm text after
    `seconds` is replaced by a fresh one (that text is then parsed, and timed, where it is compared)."""
    with _LOCK:
        parent = _PARENTS.get(os.getpid())
        if parent is None or not parent.alive():
            parent = _PARENTS[os.getpid()] = CheckerParent()
        if not parent.stop_warming(seconds):
            parent.stop(0)
            parent = _PARENTS[os.getpid()] = CheckerParent()
            if not parent.stop_warming(START_SECONDS):
                raise CheckerFailed("math-verify's warm parent ended as it started")
        return parent


def stop_checker_parent() -> None:
    """End this process's warm parent (at exit, or for a test)."""
    with _LOCK:
        parent = _PARENTS.pop(os.getpid(), None)
    if parent is not None:
        parent.stop()


atexit.register(stop_checker_parent)
