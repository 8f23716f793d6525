"""How progress is shown: a bar redrawn in place on a terminal, plain timestamped lines otherwise (cron, CI)."""
from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import TextIO

BAR_WIDTH = 24
_CONTEXT = [""]


def set_progress_context(name: str) -> None:
    """Name of the running stage (e.g. "B5 peppa_dialogue/model_a"), put in front of its progress."""
    _CONTEXT[0] = name


class ProgressDisplay:
    """A progress sink for stages.set_progress_sink. Loops shorter than `delay` seconds show nothing; longer ones get
    a bar redrawn in place on a terminal, or a timestamped line every `interval` seconds elsewhere, then a last line."""

    def __init__(self, stream: TextIO, terminal: bool | None = None, delay: float | None = None,
                 interval: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.terminal = stream.isatty() if terminal is None else terminal
        self.delay = delay if delay is not None else (0.5 if self.terminal else 10.0)
        self.interval = interval if interval is not None else (0.1 if self.terminal else 30.0)
        self.clock = clock
        self._started: dict[str, float] = {}
        self._shown: dict[str, float] = {}

    def __call__(self, label: str, done: int, total: int | None, finished: bool) -> None:
        name = f"{_CONTEXT[0]} {label}".strip()
        now = self.clock()
        started = self._started.setdefault(name, now)
        if finished:
            self._started.pop(name, None)
            if self._shown.pop(name, None) is not None:
                self._emit(name, done, total, now - started, final=True)
        elif total != 0 and now - started >= self.delay and now - self._shown.get(name, -1e18) >= self.interval:
            self._shown[name] = now
            self._emit(name, done, total, now - started, final=False)

    def _emit(self, name: str, done: int, total: int | None, elapsed: float, final: bool) -> None:
        rate = done / elapsed if elapsed > 0 else 0.0
        counted = f"{done}/{total}" if total is not None else str(done)
        if self.terminal and total is None:
            line = f"\r\x1b[K{name} {counted} · {rate:.1f}/s" + (f" · {elapsed:.1f}s" if final else "")
            self.stream.write(line + ("\n" if final else ""))
        elif self.terminal:
            share = done / total if total else (1.0 if final else 0.0)
            bar = "█" * int(share * BAR_WIDTH) + "░" * (BAR_WIDTH - int(share * BAR_WIDTH))
            eta = f" · ETA {(total - done) / rate:.0f}s" if total and rate and not final else ""
            line = f"\r\x1b[K{name} |{bar}| {share:4.0%} {counted} · {rate:.1f}/s{eta}"
            self.stream.write(line + ("\n" if final else ""))
        else:
            stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
            if final:
                state = f"done {counted} in {elapsed:.1f}s ({rate:.1f}/s)"
            else:
                state = counted + (f" ({done / total:.0%})" if total else "") + f", {rate:.1f}/s"
            self.stream.write(f"{stamp} evalpipe {name}: {state}\n")
        self.stream.flush()
