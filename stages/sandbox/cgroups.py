"""Limits for a sandbox as a whole, from the kernel's cgroups (v1, as this machine mounts them, or v2): a memory
group per program bounding every process of it together with the tmpfs pages and memory files they write, a pids
group bounding its processes, and a CPU group per slot so that slots share the CPU evenly whatever one of them runs.
Needs root and writable cgroup folders; elsewhere `Cgroups.open` says why not and the rlimits alone apply."""
from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpu")
_PROGRAM_NAMES = itertools.count(1)  # p1, p2 … never again in this process: a group left behind is never met again


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per v1 controller ("" for the v2 hierarchy)."""
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path.lstrip("/")
    return paths


def _write(path: Path, value: str | int) -> None:
    path.write_text(str(value))


def _processes(folder: Path) -> list[int]:
    try:
        return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _remove(folder: Path, seconds: float = 5.0) -> None:
    """Kill what is left in a group and remove it (a killed namespace empties in a moment)."""
    deadline = time.monotonic() + seconds
    while folder.exists():
        for pid in _processes(folder):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            folder.rmdir()
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.005)


def _remove_stale(parent: Path) -> None:
    """Remove the groups an evalpipe process that no longer lives left behind (killed before it could)."""
    for folder in parent.glob("evalpipe-*"):
        pid = folder.name.split("-", 1)[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            for group in sorted(folder.glob("**/"), key=lambda path: -len(path.parts)):
                _remove(group, seconds=1.0)


@dataclass
class ProgramGroup:
    """One program's groups: the files its wrapper writes its pid to, and how to read what happened."""

    folders: list[Path]
    memory: Path
    version: int
    procs_files: list[str] = field(default_factory=list)

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of this group for its memory limit."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        try:
            fields = dict(line.split() for line in (self.memory / name).read_text().splitlines() if " " in line)
        except OSError:
            return False
        return int(fields.get("oom_kill", 0)) > 0

    def remove(self) -> None:
        for folder in reversed(self.folders):
            _remove(folder)


@dataclass
class Cgroups:
    """The groups of one run of programs: a parent per controller, a CPU group per slot, a group per program."""

    version: int
    bases: dict[str, Path]
    slots: int

    @classmethod
    def open(cls, slots: int) -> Cgroups | str:
        """The run's groups, or the reason there are none (not root, no writable hierarchy)."""
        if os.geteuid() != 0:
            return "not run as root (only root may make cgroups here)"
        try:
            own = _own_paths()
            if all(controller in own for controller in V1_CONTROLLERS):
                bases = {name: ROOT / name / own[name] / f"evalpipe-{os.getpid()}" for name in V1_CONTROLLERS}
                version = 1
            elif (ROOT / "cgroup.controllers").exists():
                bases = {name: ROOT / own[""] / f"evalpipe-{os.getpid()}" for name in V1_CONTROLLERS}
                version = 2
            else:
                return "no cgroup hierarchy with the memory, pids and cpu controllers is mounted"
            for base in bases.values():
                _remove_stale(base.parent)
                base.mkdir(exist_ok=True)
            if version == 2:
                _write(bases["memory"] / "cgroup.subtree_control", "+memory +pids +cpu")
            groups = cls(version, bases, slots)
            for slot in range(slots):
                groups._slot(slot).mkdir(exist_ok=True)
                if version == 2:
                    _write(groups._slot(slot) / "cgroup.subtree_control", "+memory +pids +cpu")
        except OSError as exc:
            return f"cgroups cannot be made here ({exc.strerror or exc})"
        return groups

    def _slot(self, slot: int) -> Path:
        return self.bases["cpu"] / f"slot{slot}"

    def program(self, slot: int, memory_bytes: int, processes: int) -> ProgramGroup:
        """A fresh group for one program in `slot`, its limits set (the program's wrapper moves itself in, as root,
        before it starts the sandbox)."""
        name = f"p{next(_PROGRAM_NAMES)}"
        if self.version == 2:
            folder = self._slot(slot) / name
            folder.mkdir()
            _write(folder / "memory.max", memory_bytes)
            if (folder / "memory.swap.max").exists():
                _write(folder / "memory.swap.max", 0)
            _write(folder / "pids.max", processes)
            return ProgramGroup([folder], folder, 2, [str(folder / "cgroup.procs")])
        memory, pids, cpu = self.bases["memory"] / name, self.bases["pids"] / name, self._slot(slot) / name
        for folder in (memory, pids, cpu):
            folder.mkdir()
        _write(memory / "memory.limit_in_bytes", memory_bytes)
        if (memory / "memory.memsw.limit_in_bytes").exists():
            _write(memory / "memory.memsw.limit_in_bytes", memory_bytes)
        _write(pids / "pids.max", processes)
        return ProgramGroup([memory, pids, cpu], memory, 1,
                            [str(folder / "cgroup.procs") for folder in (memory, pids, cpu)])

    def tests(self, slot: int, memory_bytes: int, processes: int) -> ProgramGroup:
        """The groups of a slot's tests sandbox: memory and processes of its own, the slot's CPU share."""
        if self.version == 2:
            folder = self._slot(slot) / "tests"
            folder.mkdir(exist_ok=True)
            _write(folder / "memory.max", memory_bytes)
            _write(folder / "pids.max", processes)
            return ProgramGroup([folder], folder, 2, [str(folder / "cgroup.procs")])
        memory, pids = self.bases["memory"] / f"tests{slot}", self.bases["pids"] / f"tests{slot}"
        for folder in (memory, pids):
            folder.mkdir(exist_ok=True)
        _write(memory / "memory.limit_in_bytes", memory_bytes)
        _write(pids / "pids.max", processes)
        return ProgramGroup([memory, pids], memory, 1, [str(folder / "cgroup.procs") for folder in
                                                        (memory, pids, self._slot(slot))])

    def close(self) -> None:
        """Remove the run's groups (the programs' are gone already)."""
        for slot in range(self.slots):
            for name in ("memory", "pids"):
                _remove(self.bases[name] / f"tests{slot}")
            _remove(self._slot(slot) / "tests")
            _remove(self._slot(slot))
        for base in set(self.bases.values()):
            _remove(base)
