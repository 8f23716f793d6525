"""`sandbox = "bwrap"`: each program in a fresh bubblewrap sandbox under the seccomp filter, the inside scripts
mounted read-only, a slot's tests in a warm one of their own."""
from __future__ import annotations

from dataclasses import replace

from ..bwrap import MOUNTED_AT, SandboxUnavailable, find_bwrap, inside_folder, sandbox_command
from ..limits import Limits
from ..run import Program, Slot, run_program
from ..seccomp import SeccompUnavailable, filter_descriptor, filter_program
from . import Launch, SandboxBackend, register_backend


class Bwrap(SandboxBackend):
    """bubblewrap with the seccomp filter: programs see /usr read-only and nothing else of the host."""

    name = "bwrap"
    isolates = True

    def ensure_available(self) -> None:
        find_bwrap()
        try:
            filter_program()
        except SeccompUnavailable as exc:
            raise SandboxUnavailable(str(exc)) from None

    def confirm(self, slot: Slot) -> None:
        """A trivial program run in the sandbox, so that a sandbox refused here (user namespaces off, a broken bwrap)
        fails the run in one line rather than every program as `crashed`."""
        result = run_program(Program("def f():\n    return 1\n", "assert f() == 1\n"),
                             replace(slot, limits=replace(slot.limits, timeout_seconds=30.0)))
        if result.outcome != "passed":
            said = (result.stderr.strip().splitlines() or [result.error])[-1]
            raise SandboxUnavailable(f"bwrap could not start a sandbox here ({said}); it needs unprivileged user "
                                     "namespaces (Debian's default; sysctl kernel.unprivileged_userns_clone=1)")

    def program(self, limits: Limits, interpreter: str, uid: int | None) -> Launch:
        return self._launch(limits, interpreter, "/tmp")

    def tests(self, limits: Limits, interpreter: str) -> Launch:
        return self._launch(limits, interpreter, "/")

    def _launch(self, limits: Limits, interpreter: str, cwd: str) -> Launch:
        seccomp = filter_descriptor()
        return Launch(sandbox_command(limits, seccomp, inside_folder(interpreter)), MOUNTED_AT, [seccomp], cwd)


BWRAP = register_backend(Bwrap())
