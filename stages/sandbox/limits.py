"""What a sandboxed program may use, and the dataset parameters that set it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Wall-clock seconds (the whole process tree killed after), CPU seconds, address space, processes (threads
    count), the size of any file written, open files, the output kept before the program is stopped, the size of
    /tmp and /dev/shm, and the wall-clock seconds a build step (a compiler) may take before the program's own clock
    starts."""

    timeout_seconds: float = 3.0
    cpu_seconds: int = 10
    memory_mb: int = 2048
    processes: int = 64
    file_size_mb: int = 16
    open_files: int = 256
    output_kb: int = 1024
    tmp_mb: int = 64
    build_seconds: float = 60.0

    @classmethod
    def from_params(cls, params: dict) -> Limits:
        """The limits a dataset's parameters set (each named as the field here)."""
        return cls(**{name: params[name] for name in cls.__dataclass_fields__ if name in params})
