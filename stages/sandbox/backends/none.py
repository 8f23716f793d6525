"""`sandbox = "none"`: programs run on the host under the limits only (rlimits, cgroups, a uid of their own as root),
each in a fresh working folder — for machines without bubblewrap, and never for untrusted code."""
from __future__ import annotations

import os
import tempfile

from ..bwrap import inside_folder
from ..limits import Limits
from . import Launch, SandboxBackend, register_backend


class Unsandboxed(SandboxBackend):
    """No isolation: the inside scripts run from their host folder."""

    name = "none"
    isolates = False

    def program(self, limits: Limits, interpreter: str, uid: int | None) -> Launch:
        workdir = tempfile.TemporaryDirectory(prefix="evalpipe-program-")
        if uid is not None:
            os.chown(workdir.name, uid, uid)
        return Launch([], inside_folder(interpreter), cwd=workdir.name, workdir=workdir)

    def tests(self, limits: Limits, interpreter: str) -> Launch:
        return Launch([], inside_folder(interpreter), cwd="/tmp")


UNSANDBOXED = register_backend(Unsandboxed())
