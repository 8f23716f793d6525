"""The loglikelihood tasks that score every stage their own way (`task = "rolling"`), by name; each says which rows,
stats and figures are its own, so a stage handed no params finds its task from what it is handed."""
from __future__ import annotations

from typing import Any

from ...core.records import Columns
from ...core.stats import Stats
from .rolling_task import ROLLING, RollingTask

OWN_TASKS: dict[str, RollingTask] = {task.name: task for task in (ROLLING,)}


def task_named(name: str) -> RollingTask | None:
    """The own task `task = name` names (None: a built-in or generic choice task)."""
    return OWN_TASKS.get(name)


def task_of_items(rows: Columns) -> RollingTask | None:
    return next((task for task in OWN_TASKS.values() if task.owns_items(rows)), None)


def task_of_matched(matched: dict[str, Any]) -> RollingTask | None:
    return next((task for task in OWN_TASKS.values() if task.owns_matched(matched)), None)


def task_of_stats(stats: Stats) -> RollingTask | None:
    return next((task for task in OWN_TASKS.values() if task.owns_stats(stats)), None)


def task_of_metrics(metrics_by_model: dict[str, dict[str, Any]]) -> RollingTask | None:
    return next((task for task in OWN_TASKS.values() if task.owns_metrics(metrics_by_model)), None)
