"""The code tasks a dataset.toml's `task` names (`task = "livecodebench"`), one module each, registered by name: a
benchmark whose B3–B5 and text report follow that benchmark's own scripts."""
from __future__ import annotations

from typing import Any

from ....core.records import Columns
from ....core.registry import Registry

CODE_TASKS: Registry[CodeTask] = Registry("code task", __name__)


class CodeTask:
    """A code task with stages of its own: its parameters' defaults, B3–B5 and its text report."""

    name: str = ""
    defaults: dict[str, Any] = {}  # set over the code kind's defaults when `task` names this task

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def score_stats(self, matched: Columns) -> dict[str, Any]:
        raise NotImplementedError

    def metrics_from_stats(self, stats: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def render(self, report: dict[str, Any]) -> str:
        raise NotImplementedError


def register_task(task: Any) -> Any:
    """Make `task` available by its name (dataset.toml `task`)."""
    return CODE_TASKS.register(task.name)(task)
