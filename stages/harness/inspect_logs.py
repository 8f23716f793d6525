"""Inspect's logs (.eval and .json), read through inspect_ai's own log reader: the format is the library's."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from .imported import ImportedRun, SkippedFile, files_under, references_or_instructions, register_importer
from .wild_files import LFS_REASON, is_lfs_pointer_file


@register_importer("inspect")
def read_inspect(paths: list[Path]) -> Iterator[ImportedRun | SkippedFile]:
    """Every Inspect log among `paths` (folders searched for .eval and .json) as one run: open QA, or multiple choice
    when the samples carry choices; the first epoch of each sample."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise UsageError("reading Inspect logs needs inspect_ai: pip install 'evalpipe[inspect]'") from None
    logs = dict.fromkeys(files_under(paths, "*.eval") + files_under(paths, "*.json"))
    for path in (path for path in logs if path.suffix.lower() in (".eval", ".json")):
        if is_lfs_pointer_file(path):
            yield SkippedFile(str(path), LFS_REASON, refused=True)
            continue
        try:
            log = read_eval_log(str(path))
        except Exception as exc:  # noqa: BLE001  (any file the library cannot read is skipped, with its reason)
            yield SkippedFile(str(path), f"not an Inspect log Inspect can read ({type(exc).__name__})",
                              refused=path in paths)
            continue
        yield _run(log, path)


def _run(log: Any, path: Path) -> ImportedRun:
    multiple_choice = any(sample.choices for sample in log.samples or [])
    questions, predictions, set_aside, seen = [], [], [], set()
    for sample in log.samples or []:
        row_id = str(sample.id)
        if row_id in seen:
            continue
        seen.add(row_id)
        if sample.error is not None or sample.output is None:
            set_aside.append(f"{path}: sample {row_id}: no completion ({sample.error or 'no output'})")
            continue
        golds = [text for text in ([sample.target] if isinstance(sample.target, str) else list(sample.target))
                 if text.strip()]
        question: dict[str, Any] = {"question": _input_text(sample.input)}
        if multiple_choice:
            question.update(options=list(sample.choices or []), answer=golds[0] if golds else None)
        else:
            question["answers"] = golds
        questions.append({"id": row_id, **question})
        predictions.append({"id": row_id, "prediction": sample.output.completion})
    metrics = {f"{score.name} ({name})": float(metric.value)
               for score in (log.results.scores if log.results else []) for name, metric in score.metrics.items()
               if isinstance(metric.value, (int, float))}
    kind = "multiple_choice"
    if not multiple_choice:
        kind, questions, predictions = references_or_instructions(str(path), questions, predictions, set_aside,
                                                                  "no target")
    return ImportedRun(tool="inspect", tool_version=(log.eval.packages or {}).get("inspect_ai"), task=log.eval.task,
                       model=log.eval.model, file=str(path), kind=kind,
                       questions=questions, predictions=predictions, metrics=metrics, set_aside=set_aside)


def _input_text(value: Any) -> str:
    """A sample's input: the text itself, or the last user message of a conversation."""
    if isinstance(value, str):
        return value
    users = [message.text for message in value if getattr(message, "role", None) == "user"]
    return users[-1] if users else "\n".join(message.text for message in value)
