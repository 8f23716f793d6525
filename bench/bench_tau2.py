"""The tau2 kind's rescoring measured against tau2-bench 1.0.1's own: every retail and mock task × 4 trials (the
task's gold calls, answered by tau2's environment) written as a tau2 results file with tau2's Results.save, then
rescored by tau2's evaluate-trajs (compute_simulation_rewards, evaluation type ALL, lenient replay) and by evalpipe
(the file read by `evalpipe import tau2`'s reader, each trial evaluated by the kind's evaluator) — one run each, in
one process, the same reward required on every trial. The tasks embedded in the file have their NL assertions left
out (tau2 would ask an LLM for 40 retail tasks; evalpipe would leave them not judged), so both sides replay every
trial in full.

Usage: TAU2_DATA_DIR=<folder holding tau2/domains/{retail,mock}> /work/tau2-venv/bin/python bench/bench_tau2.py
(the venv of tests/stages/kinds/tau2/make_tau2_reference.py, with evalpipe's own dependencies installed into it or
the repository on its path: orjson is all the kind's evaluator needs)."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "stages" / "kinds" / "tau2"))
import make_tau2_reference as reference  # noqa: E402

TRIALS = 4


def write_file(domain: str, folder: Path) -> Path:
    """Every task of `domain`, TRIALS trials of its gold calls, without NL assertions."""
    from tau2.data_model.simulation import SimulationRun, TerminationReason
    from tau2.data_model.tasks import Task

    raws = json.loads((reference.DOMAINS / domain / "tasks.json").read_text())
    results = reference.results_file(domain, [], "max_steps")  # its info; the tasks and trials follow
    tasks = []
    for raw in raws:
        raw = json.loads(json.dumps(raw))
        raw["evaluation_criteria"]["nl_assertions"] = None
        raw["evaluation_criteria"]["reward_basis"] = [b for b in raw["evaluation_criteria"].get(
            "reward_basis", ["DB", "COMMUNICATE"]) if b != "NL_ASSERTION"]
        tasks.append(Task.model_validate(raw))
    simulations = []
    for task in tasks:
        actions = task.model_dump(mode="json")["evaluation_criteria"].get("actions") or []
        messages, _, _ = reference.trajectory(domain, task, actions, "Done.")
        for trial in range(TRIALS):
            simulations.append(SimulationRun(id=f"{task.id}-{trial}", task_id=task.id, trial=trial, start_time="",
                                             end_time="", duration=0.0, timestamp="", agent_cost=0.0, user_cost=0.0,
                                             termination_reason=TerminationReason.AGENT_STOP, messages=messages,
                                             seed=trial))
    results.tasks, results.simulations = tasks, simulations
    results.info.num_trials = TRIALS
    path = folder / f"{domain}.json"
    results.save(path)
    return path


def main() -> None:
    from tau2.data_model.simulation import Results
    from tau2.scripts.evaluate_trajectories import compute_simulation_rewards

    from stages.harness.tau2 import read_tau2
    from stages.kinds.tau2.domains import read_domain
    from stages.kinds.tau2.evaluation import evaluate

    domains = Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains"
    with tempfile.TemporaryDirectory() as tmp:
        paths = [write_file(domain, Path(tmp)) for domain in ("retail", "mock")]
        start = time.perf_counter()
        theirs = {}
        for path in paths:
            rescored = compute_simulation_rewards(Results.load(path))
            theirs.update({(path.stem, s.task_id, s.trial): s.reward_info.reward for s in rescored.simulations})
        tau2_seconds = time.perf_counter() - start
        start = time.perf_counter()
        ours = {}
        for run in read_tau2(paths, data=domains):
            domain = run.params["domain"]
            data = read_domain(Path(run.params["domain_folder"]))
            tasks = {task["id"]: task for task in run.questions}
            for prediction in run.predictions:
                for trial in prediction["trials"]:
                    ours[(domain, prediction["id"], trial["trial"])] = evaluate(
                        tasks[prediction["id"]], data, trial["messages"], trial["termination_reason"]).reward
        evalpipe_seconds = time.perf_counter() - start
    differ = [key for key in theirs if theirs[key] != ours.get(key)]
    print(json.dumps({"trials": len(theirs), "tau2_evaluate_trajs_s": round(tau2_seconds, 3),
                      "evalpipe_s": round(evalpipe_seconds, 3), "rewards_differ": len(differ),
                      "successes": sum(r == 1.0 for r in ours.values())}, indent=1))


if __name__ == "__main__":
    main()
