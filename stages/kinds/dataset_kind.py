"""dataset.toml's kind and [params] for one dataset folder: the kind that scores it (given, else detected) and its
parameters — the kind's defaults, its task's defaults, overridden by luigi.cfg [kind.<name>], then by [params] and task."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..io.dataset_config import DatasetConfig, resolve_params
from .annotation.taxonomy import load_taxonomies
from .base import KINDS, Kind, get_kind
from .detection import detect_kind


def dataset_kind(folder: Path, config: DatasetConfig, questions: Path | None) -> Kind:
    """dataset.toml's kind, else the one detected from the folder's name and questions; it must read what the folder
    holds (a questions file, or ground_truth/ and predictions/<model>/ folders)."""
    name = config.kind or detect_kind(folder.name, questions)
    kind = get_kind(name)
    if kind.document_folders != (questions is None):
        wanted = "ground_truth/ and predictions/<model>/ folders" if kind.document_folders else "a questions file"
        raise UsageError(f"{folder}: kind {name!r} reads {wanted}")
    return kind


def kind_params(kind: Kind, config: DatasetConfig, folder: Path, configured: dict[str, str]) -> dict[str, Any]:
    """The kind's defaults and its task's, overridden by luigi.cfg [kind.<name>] (`configured`), then by dataset.toml's
    [params] and task; [taxonomies] read into them, for a kind that takes them."""
    origin = str(folder / "dataset.toml")
    _check_task_kind(kind, config.task or config.params.get("task"), origin)
    params = resolve_params(kind.defaults, (f"task {config.task!r}", kind.task_defaults.get(config.task or config.params.get("task", ""), {})),
                            (f"luigi.cfg [kind.{kind.name}]", configured),
                            (origin, {**config.params, **({"task": config.task} if config.task else {})}),
                            rules=kind.param_rules)
    if config.taxonomies:
        if "taxonomies" not in kind.defaults:
            raise UsageError(f"{origin}: kind {kind.name!r} takes no [taxonomies]")
        params["taxonomies"] = load_taxonomies(folder, config.taxonomies)
    return params


def kind_spec(kind: Kind, config: DatasetConfig, fields: dict[str, str | None],
              params: dict[str, Any]) -> dict[str, Any]:
    """The dataset spec's entries of its kind: its name, where it came from, the field names and its parameters."""
    return {"kind": kind.name, "kind_source": "dataset.toml" if config.kind else "detected", "fields": fields,
            "params": params}


def _check_task_kind(kind: Kind, task: Any, origin: str) -> None:
    """A task this kind does not take but another does (task = "simpleqa" beside kind = "qa") names the kind to set."""
    if not isinstance(task, str) or not task or _takes(kind, task):
        return
    owners = [name for name, other in KINDS.items() if _takes(other, task)]
    if owners:
        raise UsageError(f"{origin}: task {task!r} is a task of kind {' or '.join(map(repr, owners))}, not of kind "
                         f"{kind.name!r}: set kind = \"{owners[0]}\"")


def _takes(kind: Kind, task: str) -> bool:
    rule = kind.param_rules.get("task")
    return "task" in kind.defaults and rule is not None and rule(task) is None
