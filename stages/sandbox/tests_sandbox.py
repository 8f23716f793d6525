"""The tests' side of a slot: one warm sandbox (its own uid, pid namespace and filesystem, apart from every
program's) that runs each program's tests in a forked process, reached by a socket only evalpipe holds."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess

from .backends import SandboxBackend
from .bwrap import ENVIRONMENT, as_user, inside_command
from .cgroups import Cgroups, ProgramGroup
from .limits import Limits

TESTS_UID = 60900  # as root, slot i's tests run as uid TESTS_UID + i; programs never get these uids
TESTS_LIMITS = Limits(tmp_mb=64)
TESTS_PROCESSES = 64


class TestsSandbox:
    """A slot's tests sandbox, started on first use and again whenever it is found gone; with cgroups, in memory and
    pids groups of its own (`memory_mb`, at least 1 GiB) and the slot's CPU group."""

    def __init__(self, interpreter: str, backend: SandboxBackend, slot: int, cgroups: Cgroups | None = None,
                 memory_mb: int = 1024) -> None:
        self.interpreter, self.backend, self.slot = interpreter, backend, slot
        self.group: ProgramGroup | None = (cgroups.tests(slot, max(memory_mb, 1024) << 20, TESTS_PROCESSES)
                                           if cgroups is not None else None)
        self.process: subprocess.Popen | None = None
        self.control: socket.socket | None = None

    def ready(self, seconds: float) -> None:
        """Start the sandbox if it is not running and wait up to `seconds` for it to say it is ready (a sandbox that
        does not is found gone, or refused, by `submit`)."""
        if self.process is not None and self.process.poll() is None:
            return
        self.close()
        self._start()
        self.control.settimeout(seconds)
        try:
            self.control.recv(1)
        except OSError:
            pass
        finally:
            self.control.settimeout(None)

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        launch = self.backend.tests(TESTS_LIMITS, self.interpreter)
        command, switch = as_user(TESTS_UID + self.slot if os.geteuid() == 0 else None,
                                  self.group.procs_files if self.group else [],
                                  [*launch.prefix, *inside_command(self.interpreter, "tests_host", launch.scripts,
                                                                   str(theirs.fileno()))])
        user = {"user": switch, "group": switch, "extra_groups": []} if switch is not None else {}
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, env=dict(ENVIRONMENT), start_new_session=True,
                                            pass_fds=[theirs.fileno(), *launch.fds], cwd=launch.cwd, **user)
        finally:
            theirs.close()
            for descriptor in launch.fds:
                os.close(descriptor)
        self.control = ours

    def submit(self, job: dict, calls_out: int, replies_in: int, result_out: int) -> None:
        """Hand one program's tests to the sandbox with the pipes to the program and for the result."""
        if self.process is None or self.process.poll() is not None:
            self.close()
            self._start()
        memory = os.memfd_create("evalpipe-tests", 0)
        try:
            os.write(memory, json.dumps(job, ensure_ascii=True).encode("ascii"))
            os.lseek(memory, 0, os.SEEK_SET)
            try:
                socket.send_fds(self.control, [b"J"], [memory, calls_out, replies_in, result_out])
            except OSError:
                self.close()
                self._start()
                socket.send_fds(self.control, [b"J"], [memory, calls_out, replies_in, result_out])
        finally:
            os.close(memory)

    def close(self) -> None:
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.process = None
