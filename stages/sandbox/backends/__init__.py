"""Sandbox backends, one module each, registered by name (a code dataset's `sandbox`): how a program and a slot's
tests sandbox are started — `bwrap` isolates them, `none` runs them under the limits only."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from typing import Any

from ...core.registry import Registry
from ..limits import Limits

BACKENDS: Registry[SandboxBackend] = Registry("sandbox backend", __name__)


@dataclass
class Launch:
    """How one sandboxed process starts: the command before its inside script, the folder it sees the inside scripts
    at, the descriptors the backend hands it (the caller closes them once it started), its working folder and a
    temporary folder of its own to remove when the run is over."""

    prefix: list[str]
    scripts: str
    fds: list[int] = field(default_factory=list)
    cwd: str = "/tmp"
    workdir: tempfile.TemporaryDirectory | None = None

    def cleanup(self) -> None:
        """Remove the run's own working folder, if it has one."""
        if self.workdir is not None:
            self.workdir.cleanup()


class SandboxBackend:
    """A sandbox backend: checked once before a run (`ensure_available`, `confirm`), then asked how to start each
    program (`program`) and each slot's tests sandbox (`tests`). `isolates`: programs cannot see the host (a run
    without it is counted as unsandboxed)."""

    name: str = ""
    isolates: bool = False

    def ensure_available(self) -> None:
        """Raise SandboxUnavailable, in one line, when this backend cannot run here."""

    def confirm(self, slot: Any) -> None:
        """Raise SandboxUnavailable when a trivial program does not run in `slot` (a run.Slot, which imports the
        backends: typed loosely here; checked once per run)."""

    def program(self, limits: Limits, interpreter: str, uid: int | None) -> Launch:
        """How a program under `limits` starts (`uid`: its own, when run as root)."""
        raise NotImplementedError

    def tests(self, limits: Limits, interpreter: str) -> Launch:
        """How a slot's tests sandbox starts under `limits`."""
        raise NotImplementedError


def register_backend(backend: Any) -> Any:
    """Make `backend` available by its name."""
    return BACKENDS.register(backend.name)(backend)


def get_backend(name: str) -> SandboxBackend:
    """The backend registered as `name` (an unknown one is one line naming the known ones)."""
    return BACKENDS.get(name)


def known_backend(value: Any) -> str | None:
    """None for a registered backend's name, else why not."""
    names = BACKENDS.names()
    return None if value in names else f"must be one of {', '.join(map(repr, names))}"


def unsandboxed_runs(names: list[str | None]) -> int:
    """How many runs, by their backend's name (None: no program was run), had a backend that does not isolate."""
    return sum(name is not None and not get_backend(name).isolates for name in names)
