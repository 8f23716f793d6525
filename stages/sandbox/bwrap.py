"""bubblewrap's command lines: every namespace new (no network), a user namespace of its own in which no further one
can be made (`--disable-userns`), the seccomp filter, /usr read-only with the merged-/usr links and nothing else of
the host, the root and /dev read-only, sized tmpfs for /tmp and /dev/shm, an empty environment, and pid 1 of its pid
namespace the evalpipe script that runs inside (nothing outlives it), its /proc entries hidden (an empty tmpfs over
/proc/1: the program, of the same uid, cannot open its memory or descriptors)."""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from ..core.errors import UsageError
from .limits import Limits

INSTALL_HINT = "install Debian's bubblewrap (`apt-get install bubblewrap`): code runs only inside its `bwrap`"
INTERPRETERS = ("/usr/local/bin/python3", "/usr/bin/python3")
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
               "PYTHONDONTWRITEBYTECODE": "1"}
INSIDE = Path(__file__).with_name("inside")
MOUNTED_AT = "/evalpipe"  # where a sandbox sees the scripts that run inside it, read-only


class SandboxUnavailable(UsageError):
    """The sandbox cannot run here (no bwrap, no interpreter under /usr, user namespaces refused)."""


@lru_cache(maxsize=None)
def inside_folder(interpreter: str) -> str:
    """A folder holding the scripts that run inside the sandboxes, compiled once by `interpreter` (a sandbox's
    Python then starts them from their cached bytecode); removed when this process ends."""
    folder = tempfile.mkdtemp(prefix="evalpipe-inside-")
    atexit.register(shutil.rmtree, folder, True)
    for script in INSIDE.glob("*.py"):
        shutil.copyfile(script, Path(folder) / script.name)
    os.chmod(folder, 0o755)
    subprocess.run([interpreter, "-I", "-S", "-m", "compileall", "-q", folder], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for path in Path(folder).rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def inside_command(interpreter: str, module: str, folder: str, *arguments: str) -> list[str]:
    """The command that starts an inside script (`folder`: where the sandbox sees them)."""
    return [interpreter, "-I", "-S", "-c", f"import sys; sys.path[:0] = [{folder!r}]; import {module}",
            *arguments]


def find_interpreter(path: str = "") -> str:
    """The Python that runs inside the sandboxes: `path`, else the system's python3 — under /usr, the only host
    folder a sandbox sees."""
    found = path or next((candidate for candidate in INTERPRETERS if os.access(candidate, os.X_OK)), "")
    if not found or not os.access(found, os.X_OK):
        raise SandboxUnavailable(f"no Python interpreter for programs ({path or ' or '.join(INTERPRETERS)}); "
                                 "set the dataset's `interpreter` to a python3 under /usr")
    if not os.path.realpath(found).startswith("/usr/"):
        raise SandboxUnavailable(f"the interpreter {found} is not under /usr, the only host folder the sandbox sees")
    return found


def find_bwrap() -> str:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"`bwrap` not found: {INSTALL_HINT}")
    return bwrap


def sandbox_command(limits: Limits, seccomp_fd: int, scripts: str) -> list[str]:
    """bwrap's command line up to the script it runs (the filter read from `seccomp_fd`, the inside scripts'
    folder `scripts` seen read-only at MOUNTED_AT)."""
    command = [find_bwrap(), "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
               "--new-session", "--as-pid-1", "--ro-bind", "/usr", "/usr", "--ro-bind", scripts, MOUNTED_AT]
    for top in ("bin", "lib", "lib32", "lib64", "sbin"):
        host = Path("/") / top
        if host.is_symlink():
            command += ["--symlink", os.readlink(host), f"/{top}"]
        elif host.is_dir():
            command += ["--ro-bind", str(host), f"/{top}"]
    command += ["--proc", "/proc", "--tmpfs", "/proc/1", "--dev", "/dev", "--remount-ro", "/dev",
                "--size", str(limits.tmp_mb << 20), "--tmpfs", "/dev/shm",
                "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp", "--remount-ro", "/",
                "--chdir", "/tmp", "--hostname", "sandbox", "--clearenv", "--seccomp", str(seccomp_fd)]
    for name, value in ENVIRONMENT.items():
        command += ["--setenv", name, value]
    return [*command, "--"]


def as_user(uid: int | None, procs_files: list[str], command: list[str]) -> tuple[list[str], int | None]:
    """`command` started by a shell that first moves itself into each cgroup (exit 125 when it cannot) and then
    becomes `uid` through util-linux's setpriv — so that evalpipe starts it with vfork, never copying its own
    memory; with the uid Popen must switch to (None when the command switches itself or no switch is asked)."""
    setpriv = shutil.which("setpriv")
    if uid is not None and setpriv:
        command = [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", *command]
        uid = None
    if not procs_files:
        return command, uid
    script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"'
    return ["/bin/sh", "-c", script, "sh", str(len(procs_files)), *procs_files, *command], uid
