"""tau2-bench's results files read as runs of the `tau2` kind: a file's tasks as the questions (the tasks it embeds,
as evaluate-trajs rescores them), its simulations as each task's trials with the reward tau2 recorded, the domain's
folder (db.json, policy) from --data; the file's own pass^k and average reward kept beside evalpipe's."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..kinds.tau2.domains import DOMAINS
from ..kinds.tau2.pass_k import trial_figures
from .imported import ImportedRun, SkippedFile, files_under, register_importer
from .wild_files import UnreadableFile, load_wild_json, read_wild_bytes

DATA_HINT = "--data DOMAINS (tau2's data/tau2/domains, or one domain's folder), or TAU2_DATA_DIR"


def domain_folder(data: Path | None, domain: str) -> Path:
    """The folder `domain` holding its database (db.json; telecom's db.toml): DATA/<domain>, DATA itself, or
    $TAU2_DATA_DIR/tau2/domains/<domain>."""
    database = DOMAINS[domain].files[0] if domain in DOMAINS else "db.json"
    roots = [data] if data is not None else []
    if data is None and os.environ.get("TAU2_DATA_DIR"):
        roots.append(Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains")
    for folder in (candidate for root in roots for candidate in (root / domain, root)):
        if folder.name == domain and (folder / database).is_file():
            return folder.resolve()
    raise UsageError(f"no {database} of tau2's {domain} domain found: {DATA_HINT}")


@register_importer("tau2")
def read_tau2(paths: list[Path], data: Path | None = None) -> list[ImportedRun | SkippedFile]:
    """Each results file (tau2's monolithic JSON, or results.json beside simulations/) as one model's run of
    tau2_<domain>."""
    found: list[ImportedRun | SkippedFile] = []
    for path in files_under(paths, "*.json"):
        if path.parent.name == "simulations":
            continue
        try:
            document = load_wild_json(read_wild_bytes(path), str(path))
        except (OSError, UnreadableFile) as error:
            found.append(SkippedFile(str(path), f"unreadable: {error}", refused=True))
            continue
        if not isinstance(document, dict) or not isinstance(document.get("tasks"), list) or "info" not in document:
            found.append(SkippedFile(str(path), "not a tau2 results file (no info and tasks)"))
            continue
        found.append(_run(path, document, data))
    return found


def _older_format(info: dict[str, Any], simulations: Any) -> str | None:
    """Why the file is another tau2 version's (0.x: its Info without text_streaming_config, its simulations
    without mode, fields every 1.0 file has), or None."""
    if "text_streaming_config" in info or not isinstance(simulations, list) or not simulations:
        return None
    if any(isinstance(simulation, dict) and "mode" in simulation for simulation in simulations):
        return None
    commit = info.get("git_commit")
    return (f"written by tau2 0.x (commit {commit or '?'}: no info.text_streaming_config, simulations without mode); "
            "evalpipe rescores tau2 1.0's results files, as tau2 1.0.1's evaluator scores them")


def _run(path: Path, document: dict[str, Any], data: Path | None) -> ImportedRun | SkippedFile:
    info = document["info"] if isinstance(document["info"], dict) else {}
    older = _older_format(info, document.get("simulations"))
    if older is not None:
        return SkippedFile(str(path), older)  # reported; the other files are imported
    domain = str((info.get("environment_info") or {}).get("domain_name") or "")
    if domain not in DOMAINS:
        return SkippedFile(str(path), f"domain {domain!r}: evalpipe scores {', '.join(DOMAINS)} (airline's "
                                      "database is not in the shared data)", refused=True)
    folder = domain_folder(data, domain)
    tasks = [{**task, "id": str(task["id"])} for task in document["tasks"] if isinstance(task, dict) and "id" in task]
    known, set_aside = {task["id"] for task in tasks}, []
    trials: dict[str, list[dict[str, Any]]] = {}
    for number, simulation in enumerate(_simulations(path, document), start=1):
        task_id = str(simulation.get("task_id")) if isinstance(simulation, dict) else None
        problem = _simulation_problem(simulation, task_id, known)
        if problem is not None:
            set_aside.append(f"{path}: simulation {number}: {problem}")
            continue
        reward = (simulation.get("reward_info") or {}).get("reward")
        trials.setdefault(task_id, []).append({"trial": simulation.get("trial", number - 1),
                                               "termination_reason": simulation["termination_reason"],
                                               "messages": simulation["messages"], "reward": reward})
    agent = info.get("agent_info") or {}
    model = str(agent.get("llm") or agent.get("implementation") or path.stem)
    figures = trial_figures([{"task": task_id, "reward": t["reward"], "termination_reason": t["termination_reason"],
                              "status": "scored" if t["reward"] is not None else "not judged"}
                             for task_id, ts in trials.items() for t in ts])
    metrics = {f"pass_hat_{k}": value for k, value in figures["pass_hat_k"].items()}
    if figures["avg_reward"] is not None:
        metrics["avg_reward"] = figures["avg_reward"]
    commit = info.get("git_commit")
    return ImportedRun(tool="tau2", tool_version=f"commit {commit}" if commit else None, task=f"tau2_{domain}",
                       model=model, file=str(path), kind="tau2", questions=tasks,
                       predictions=[{"id": task_id, "trials": ts} for task_id, ts in trials.items()],
                       metrics=metrics, set_aside=set_aside,
                       params={"domain_folder": str(folder), "domain": domain, "split": ""})


def _simulations(path: Path, document: dict[str, Any]) -> list[Any]:
    """The file's simulations, or (tau2's dir format) those in simulations/ beside it."""
    simulations = document.get("simulations")
    if simulations:
        return simulations if isinstance(simulations, list) else []
    folder = path.parent / "simulations"
    if not folder.is_dir():
        return []
    found = []
    for file in sorted(folder.glob("*.json")):
        try:
            found.append(load_wild_json(read_wild_bytes(file), str(file)))
        except (OSError, UnreadableFile) as error:
            found.append(f"unreadable {file.name}: {error}")
    return found


def _simulation_problem(simulation: Any, task_id: str | None, known: set[str]) -> str | None:
    if isinstance(simulation, str):
        return simulation
    if not isinstance(simulation, dict):
        return "not an object"
    if task_id not in known:
        return f"task {task_id!r} is not among the file's tasks"
    if not isinstance(simulation.get("termination_reason"), str):
        return f"task {task_id}: no termination_reason"
    if not isinstance(simulation.get("messages"), list):
        return f"task {task_id}: no messages (a full-duplex run's ticks are not read)"
    return None
