"""tau2's tasks read as items — a domain folder's tasks.json (a JSON list, or JSON lines as an import writes them),
the split named in split_tasks.json — and trajectories read as one model's trials; what cannot be scored is set aside
with its place and reason."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from ...core.records import LoadResult, Reject
from .domains import DomainData, read_domain
from .evaluation import REWARD_TYPES

QUESTION_COLUMNS = ("id", "line", "question", "golds", "task", "domain_folder", "leaderboard")
PREDICTION_COLUMNS = ("id", "line", "prediction", "trials")


def read_json_records(path: Path) -> list[tuple[int, Any]]:
    """(position, record) of a JSON list's items, or of JSON lines (position: the 1-based line)."""
    raw = path.read_bytes()
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError:
        document = None
    if isinstance(document, list):
        return list(enumerate(document, start=1))
    if isinstance(document, dict):
        return [(1, document)]
    records = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if line.strip():
            try:
                records.append((number, orjson.loads(line)))
            except orjson.JSONDecodeError as error:
                records.append((number, _Unreadable(str(error))))
    return records


class _Unreadable:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _calls_readable(calls: Any) -> bool:
    """tool_calls absent, or a list of calls each with a name and its arguments as an object (as tau2 keeps them)."""
    return calls is None or isinstance(calls, list) and all(
        isinstance(call, dict) and isinstance(call.get("name"), str) and isinstance(call.get("arguments"), dict)
        for call in calls)


def domain_folder(questions: Path, params: dict[str, Any]) -> Path:
    """The domain folder: [params] domain_folder (relative to the dataset folder), else the questions' folder."""
    named = params.get("domain_folder") or ""
    return (questions.parent / named).resolve() if named else questions.parent.resolve()


def leaderboard_folder(questions: Path, params: dict[str, Any]) -> str:
    """[params] leaderboard (the board's submissions folder, relative to the dataset folder), resolved; "" for none."""
    named = params.get("leaderboard") or ""
    return str((questions.parent / named).resolve()) if named else ""


def load_tasks(path: Path, params: dict[str, Any]) -> LoadResult:
    """B1: the tasks of the split (`split`, "base" by default; all when the folder has no split_tasks.json)."""
    result = LoadResult(columns={name: [] for name in QUESTION_COLUMNS})
    folder = domain_folder(path, params)
    try:
        data = read_domain(folder, params.get("domain") or "")
        wanted = _split(folder, params.get("split") or "")
    except (OSError, ValueError) as error:
        result.rejects.append(Reject(str(path), None, f"domain folder {folder}: {error}"))
        return result
    seen: set[str] = set()
    board = leaderboard_folder(path, params)
    for line, record in read_json_records(path):
        result.input_rows += 1
        reason = _task_problem(record, data)
        task_id = str(record["id"]) if reason is None else None
        if reason is None and task_id in seen:
            reason = f"duplicate task id {task_id!r}"
        if reason is None and wanted is not None and task_id not in wanted:
            continue
        if reason is not None:
            result.rejects.append(Reject(str(path), line, reason))
            continue
        seen.add(task_id)
        row = {"id": task_id, "line": line, "question": _scenario(record), "golds": [_gold(record)],
               "task": json.dumps(record, ensure_ascii=False), "domain_folder": str(folder), "leaderboard": board}
        for name in QUESTION_COLUMNS:
            result.columns[name].append(row[name])
    return result


def _split(folder: Path, split: str) -> set[str] | None:
    splits = folder / "split_tasks.json"
    if not split or not splits.is_file():
        return None
    named = orjson.loads(splits.read_bytes())
    if split not in named:
        raise ValueError(f"{splits}: no split {split!r} (there: {', '.join(named)})")
    return {str(task_id) for task_id in named[split]}


def _task_problem(record: Any, data: DomainData) -> str | None:
    if isinstance(record, _Unreadable):
        return f"not JSON: {record.reason}"
    if not isinstance(record, dict) or not isinstance(record.get("id"), str | int):
        return "not a tau2 task (an object with an id)"
    criteria = record.get("evaluation_criteria")
    if not isinstance(criteria, dict):
        return f"task {record['id']}: no evaluation_criteria"
    unknown = [name for name in criteria.get("reward_basis", []) if name not in REWARD_TYPES]
    if unknown:
        return f"task {record['id']}: unknown reward_basis {', '.join(map(str, unknown))}"
    names = {name for kit in (data.domain.tools, data.domain.user_tools) if kit is not None for name in kit.tool_names}
    for action in criteria.get("actions") or []:
        if not isinstance(action, dict) or action.get("name") not in names:
            name = action.get("name") if isinstance(action, dict) else action
            return f"task {record['id']}: gold action names an unknown tool {name!r} (domain {data.domain.name})"
    return None


def _scenario(record: dict[str, Any]) -> str:
    instructions = (record.get("user_scenario") or {}).get("instructions")
    if isinstance(instructions, dict):
        return str(instructions.get("reason_for_call") or "")
    return str(instructions or "")


def _gold(record: dict[str, Any]) -> str:
    actions = record["evaluation_criteria"].get("actions") or []
    return "; ".join(f"{a['name']}({json.dumps(a.get('arguments', {}), ensure_ascii=False)})" for a in actions) \
        or "(no actions)"


def load_trials(path: Path) -> LoadResult:
    """B2: per task its trials — a record {id, trials: [{trial, termination_reason, messages, reward?, problem?}]},
    or one trial per record with the same id."""
    result = LoadResult(columns={name: [] for name in PREDICTION_COLUMNS})
    by_task: dict[str, tuple[int, list[dict[str, Any]]]] = {}
    for line, record in read_json_records(path):
        result.input_rows += 1
        trials, reason = _trials_of(record)
        if reason is not None:
            result.rejects.append(Reject(str(path), line, reason))
            continue
        by_task.setdefault(str(record["id"]), (line, []))[1].extend(trials)
    for task_id, (line, trials) in by_task.items():
        for name, value in (("id", task_id), ("line", line), ("prediction", json.dumps(trials, ensure_ascii=False)),
                            ("trials", len(trials))):
            result.columns[name].append(value)
    return result


def _trials_of(record: Any) -> tuple[list[dict[str, Any]], str | None]:
    if isinstance(record, _Unreadable):
        return [], f"not JSON: {record.reason}"
    if not isinstance(record, dict) or not isinstance(record.get("id"), str | int):
        return [], "not a record with an id"
    trials = record["trials"] if "trials" in record else [record]
    if not isinstance(trials, list):
        return [], "trials is not a list"
    for trial in trials:
        if not isinstance(trial, dict) or not isinstance(trial.get("messages"), list):
            return [], "a trial without its messages (a list)"
        if not all(isinstance(message, dict) for message in trial["messages"]):
            return [], "a trial whose messages are not all objects"
        if not all(_calls_readable(message.get("tool_calls")) for message in trial["messages"]):
            return [], "a trial with a tool call that is not {id, name, arguments (an object)}"
        if not isinstance(trial.get("termination_reason"), str):
            return [], "a trial without its termination_reason"
    kept = ("trial", "termination_reason", "messages", "reward", "problem")
    return [{key: trial[key] for key in kept if key in trial}
            for trial in trials], None

