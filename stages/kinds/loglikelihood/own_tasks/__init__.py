"""The loglikelihood tasks that run every stage their own way (`task = "rolling"`), one module each, registered by
name: dataset.toml's `task` names one, and the kind bound to it (Loglikelihood.for_params) hands it every stage."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ....core.records import Columns, LoadResult
from ....core.registry import Registry
from ....core.stats import Stats

OWN_TASKS: Registry[OwnTask] = Registry("loglikelihood task", __name__)


class OwnTask:
    """A loglikelihood task with stages of its own: its B1 item, B2 asked live, B4–B5 and B6's comparison and text."""

    name: str = ""
    headline_metrics: tuple[str, ...] = ()

    def item(self, record: Any, params: dict[str, Any]) -> dict[str, Any]:
        """B1: one record's item columns (a ValueError says why it cannot be one)."""
        raise NotImplementedError

    def ask(self, questions: Columns, config: Any, model: str, journal: Path) -> tuple[LoadResult, dict[str, Any]]:
        """B2 asked of [generate]'s completions endpoint: the predictions and the asking's summary."""
        raise NotImplementedError

    def match(self, normalized: Columns) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def score(self, matched: Columns) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def score_stats(self, matched: Columns) -> Stats:
        raise NotImplementedError

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        raise NotImplementedError

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        raise NotImplementedError

    def compare(self, metrics_by_model: dict[str, dict[str, Any]]) -> dict[str, Any]:
        raise NotImplementedError

    def render(self, models: dict[str, dict[str, Any]]) -> str:
        raise NotImplementedError


def register_task(task: Any) -> Any:
    """Make `task` available by its name (dataset.toml `task`)."""
    return OWN_TASKS.register(task.name)(task)


def task_named(name: str) -> OwnTask | None:
    """The own task `task = name` names (None: a built-in or generic choice task)."""
    return OWN_TASKS.get(name) if name in OWN_TASKS.names() else None
