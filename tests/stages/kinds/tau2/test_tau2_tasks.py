"""B1 and B2 of the tau2 kind: tasks read from a JSON list or JSON lines, the split from split_tasks.json, and what
cannot be scored set aside with its place and reason; trials read per task, bad ones set aside by line."""
import json
import shutil
from pathlib import Path

from stages.kinds.tau2.tasks import load_tasks, load_trials

CONFORMANCE = Path(__file__).resolve().parent / "conformance"


def _domain(tmp_path: Path, tasks: list, splits: dict | None = None) -> Path:
    for name in ("db.json", "user_db.json", "policy.md"):
        shutil.copy(CONFORMANCE / name, tmp_path / name)
    if splits is not None:
        (tmp_path / "split_tasks.json").write_text(json.dumps(splits), encoding="utf-8")
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def _task(task_id, actions=None, **criteria):
    return {"id": task_id, "user_scenario": {"instructions": "x"},
            "evaluation_criteria": {"actions": actions or [], **criteria}}


def test_tasks_without_criteria_or_with_an_unknown_tool_or_basis_are_set_aside(tmp_path):
    tasks = [_task("ok", [{"action_id": "a", "name": "create_task", "arguments": {"user_id": "user_1", "title": "t"}}]),
             {"id": "bare", "user_scenario": {"instructions": "x"}},
             _task("ghost", [{"action_id": "a", "name": "delete_everything", "arguments": {}}]),
             _task("odd", reward_basis=["DB", "VIBES"]), "not a task", _task("ok")]
    result = load_tasks(_domain(tmp_path, tasks), {"split": "base"})
    assert result.columns["id"] == ["ok"] and result.input_rows == 6
    assert [(r.line, r.reason) for r in result.rejects] == [
        (2, "task bare: no evaluation_criteria"),
        (3, "task ghost: gold action names an unknown tool 'delete_everything' (domain mock)"),
        (4, "task odd: unknown reward_basis VIBES"), (5, "not a tau2 task (an object with an id)"),
        (6, "duplicate task id 'ok'")]
    assert result.columns["domain_folder"] == [str(tmp_path.resolve())]


def test_the_split_keeps_its_tasks_and_an_unknown_split_is_said(tmp_path):
    path = _domain(tmp_path, [_task("a"), _task("b"), _task(3)], {"base": ["a", "3"], "test": ["b"]})
    assert load_tasks(path, {"split": "base"}).columns["id"] == ["a", "3"]
    assert load_tasks(path, {"split": ""}).columns["id"] == ["a", "b", "3"]
    missing = load_tasks(path, {"split": "train"})
    assert missing.columns["id"] == [] and "no split 'train' (there: base, test)" in missing.rejects[0].reason


def test_a_folder_of_no_domain_evalpipe_runs_is_said(tmp_path):
    (tmp_path / "db.json").write_text(json.dumps({"flights": {}, "users": {}, "reservations": {}}), encoding="utf-8")
    path = tmp_path / "questions.json"
    path.write_text(json.dumps([_task("a")]), encoding="utf-8")
    (reject,) = load_tasks(path, {}).rejects
    assert "tables ['flights', 'reservations', 'users'] are no domain evalpipe runs (retail, telecom, mock)" in reject.reason


def test_trials_gather_per_task_and_bad_ones_are_set_aside_by_line(tmp_path):
    trial = {"termination_reason": "agent_stop", "messages": [{"role": "assistant", "content": "hi"}]}
    lines = [{"id": "a", "trials": [trial]}, {"id": "a", **trial, "trial": 1}, {"id": "b", "trials": [{"messages": []}]},
             {"id": "c", "trials": [{**trial, "messages": ["hi"]}]}, {"trials": []},
             {"id": "d", "trials": [{**trial, "messages": [{"role": "assistant", "tool_calls": [
                 {"id": "1", "name": "get_users", "arguments": "{not parsed"}]}]}]}]
    path = tmp_path / "model.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + "{broken\n", encoding="utf-8")
    result = load_trials(path)
    assert result.columns["id"] == ["a"] and result.columns["trials"] == [2]
    assert [(r.line, r.reason.split(":")[0]) for r in result.rejects] == [
        (3, "a trial without its termination_reason"), (4, "a trial whose messages are not all objects"),
        (5, "not a record with an id"), (6, "a trial with a tool call that is not {id, name, arguments (an object)}"),
        (7, "not JSON")]
