"""B1 of the loglikelihood kind: the questions file (and the few-shot file) read into items, as columns; a record
that cannot make an item is set aside with its line and reason."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from ...core.records import LoadResult, Reject
from ...io.fields import is_missing
from ...io.readers import iter_records, readable_records
from .own_tasks import task_named
from .own_tasks.rolling import TASK as ROLLING
from .tasks import TaskForm, build_item, fewshot_block, task_form

ITEM_COLUMNS = ("choices", "continuations", "gold", "subject", "contexts")


def _records(path: Path) -> list[dict]:
    """Every readable object record of a file, in order (few-shot examples: none may be set aside silently)."""
    records = []
    for found in iter_records(path):
        if isinstance(found, Reject) or not isinstance(found[1], dict):
            where = found.line if isinstance(found, Reject) else found[0]
            raise ValueError(f"{path}: line {where} is not a JSON object")
        records.append(found[1])
    return records


def fewshot_examples(questions: Path, form: TaskForm, params: dict[str, Any]) -> dict[str | None, str]:
    """The few-shot block per subject (None: every item's), from the first `num_fewshot` rows of `fewshot_file` —
    for a task with subjects (MMLU), of the subject's own rows, as lm-eval's first_n sampler takes them; a subject
    with fewer rows has none."""
    count = params["num_fewshot"]
    if count == 0:
        return {}
    if not params["fewshot_file"]:
        raise ValueError(f"num_fewshot = {count} needs fewshot_file (the examples' file, beside the questions)")
    by_subject: dict[str | None, list[dict]] = {}
    for record in _records(questions.parent / params["fewshot_file"]):
        by_subject.setdefault(form.subject(record), []).append(record)
    return {subject: fewshot_block(form, rows[:count]) for subject, rows in by_subject.items() if len(rows) >= count}


def _fewshot_for(fewshot: dict[str | None, str], subject: str | None, params: dict[str, Any]) -> str:
    """The few-shot block an item's context starts with ("" without few-shot)."""
    if params["num_fewshot"] == 0:
        return ""
    if subject not in fewshot:
        where = f" for {subject}" if subject else ""
        raise ValueError(f"{params['fewshot_file']} has fewer than {params['num_fewshot']} examples{where}")
    return fewshot[subject]


def _item_id(record: dict, position: int, id_field: str | None) -> str | None:
    """The data's own id (`id_field`, else `id`), else the row's position from 0 (lm-eval's doc_id)."""
    value = record.get(id_field or "id")
    if is_missing(value):
        return None if id_field else str(position)
    return None if isinstance(value, (dict, list)) else str(value)


def _choice_item(form: TaskForm, fewshot: dict[str | None, str], record: Any, params: dict[str, Any]) -> dict:
    item = build_item(form, record, _fewshot_for(fewshot, form.subject(record), params))
    return {"question": item.context, "golds": [str(item.gold)], "choices": item.choices,
            "continuations": item.continuations, "gold": item.gold, "subject": item.subject, "contexts": item.contexts}


def load_items(path: Path, params: dict[str, Any], id_field: str | None = None,
               rows: range | None = None) -> LoadResult:
    """The items of the questions file (those at `rows` positions, for a shard), each its context, choices,
    continuations and gold (for the rolling task: each document's text); unreadable records, records the task cannot
    read and repeated ids are set aside."""
    own = task_named(params["task"])
    if own is not None:
        make_item = partial(own.item, params=params)
    elif params.get("detokenize"):
        raise ValueError(f"detokenize = {params['detokenize']!r} is for task = \"{ROLLING}\" (a text corpus)")
    else:
        form = task_form(params)
        make_item = partial(_choice_item, form, fewshot_examples(path, form, params), params=params)
    columns: dict[str, list] = {name: [] for name in ("id", "line", "question", "golds", *ITEM_COLUMNS)}
    result, seen = LoadResult(columns=columns), set()
    start = rows.start if rows is not None else 0
    for position, line, record, location in readable_records(enumerate(iter_records(path, rows), start=start), result):
        try:
            item_id = _item_id(record, position, id_field) if isinstance(record, dict) else None
            if item_id is None:
                raise ValueError(f"no id (field {id_field!r} missing or empty)")
            if item_id in seen:
                raise ValueError(f"duplicate id {item_id!r}")
            item = make_item(record)
        except ValueError as exc:
            result.rejects.append(Reject(str(path), line, str(exc), location))
            continue
        seen.add(item_id)
        for name, value in (("id", item_id), ("line", line), *item.items()):
            columns[name].append(value)
    return result
