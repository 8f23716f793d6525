"""What an import reads from another harness: one task's questions and one model's answers, with provenance; and a
registry of importers by tool name."""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.registry import Registry
from .wild_files import UnreadableFile, load_wild_json, read_wild_bytes


@dataclass
class ImportedRun:
    """One model's run of one task: questions ({id, question, answers} or, for multiple choice, {id, question,
    options, answer}), predictions ({id, prediction}), the harness's own metric values and where they came from, and
    the kind's parameters the dataset needs to be scored as the harness scored it; where the harness scored each row,
    its verdicts ({id, verdicts: {metric: value}, answers: {filter: the answer it took}})."""

    tool: str
    tool_version: str | None
    task: str
    model: str
    file: str
    kind: str
    questions: list[dict[str, Any]]
    predictions: list[dict[str, Any]]
    metrics: dict[str, float] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    verdicts: list[dict[str, Any]] = field(default_factory=list)

    def provenance(self) -> dict[str, Any]:
        """The dataset.toml record of where this model's predictions came from; a metric that is not finite is kept
        as "inf" / "-inf" / "nan" (JSON artifacts have no Infinity)."""
        metrics = {name: value if math.isfinite(value) else repr(value) for name, value in self.metrics.items()}
        described = {"tool": self.tool, "version": self.tool_version, "task": self.task, "model": self.model,
                     "file": self.file, "metrics": metrics}
        return {key: value for key, value in described.items() if value not in (None, {})}


@dataclass(frozen=True)
class SkippedFile:
    """A harness file that holds nothing evalpipe can score, and why; a refused one stops the import (a file meant as
    the harness's output that cannot be read), others (files beside them) are only reported."""

    file: str
    reason: str
    refused: bool = False


Importer = Callable[[list[Path]], Iterator[ImportedRun | SkippedFile]]
IMPORTERS: Registry[Importer] = Registry("harness", "stages.harness")  # the modules of stages/harness register them


def register_importer(tool: str) -> Callable[[Importer], Importer]:
    """Register a function reading a tool's output files (given paths: files or folders) as ImportedRuns."""
    return IMPORTERS.register(tool)


def replies_prediction(row_id: str, replies: list[str]) -> dict[str, Any]:
    """An imported item's prediction: its one reply, or its several replies as samples."""
    return {"id": row_id, "prediction": replies[0]} if len(replies) == 1 else {"id": row_id, "samples": replies}


def read_json_object(path: Path) -> dict[str, Any]:
    """A harness's side file (lm-eval's results, OpenCompass' scores) as a JSON object; {} when it is missing,
    unreadable or not an object."""
    try:
        document = load_wild_json(read_wild_bytes(path), str(path))
    except (OSError, UnreadableFile):
        return {}
    return document if isinstance(document, dict) else {}


def files_under(paths: list[Path], pattern: str) -> list[Path]:
    """The files among `paths` and, for folders, those under them matching `pattern`, sorted, each once."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob(pattern)))
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    return list(dict.fromkeys(found))


def references_or_instructions(source: str, questions: list[dict[str, Any]], predictions: list[dict[str, Any]],
                               set_aside: list[str], why: str) -> tuple[str, list[dict], list[dict]]:
    """("qa", the rows with a reference) — each other row set aside with `why` — or, when no row has a reference,
    ("instruction", every row without its empty answers) for the judge."""
    if questions and not any(question["answers"] for question in questions):
        return "instruction", [{key: value for key, value in q.items() if key != "answers"} for q in questions], \
            predictions
    kept = {question["id"] for question in questions if question["answers"]}
    set_aside.extend(f"{source}: id {question['id']}: {why}" for question in questions
                     if question["id"] not in kept)
    return "qa", [q for q in questions if q["id"] in kept], [p for p in predictions if p["id"] in kept]
