"""What the tau2 pipeline tests read back from a finished run: its `evalpipe export tau2` file with the times blanked,
and B4's reward per trial."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.cli import main
from stages.io.artifacts import read_columns


def exported_results(workspace: Path, dataset: str) -> dict[str, Any]:
    """The dataset's run written by `evalpipe export tau2` (exit 0), its timestamps blanked so files compare."""
    out = workspace / "results.json"
    assert main(["export", "tau2", "--outputs", str(workspace / "outputs"), "--dataset", dataset,
                 "--out", str(out)]) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    results["timestamp"] = ""
    for simulation in results["simulations"]:
        simulation.update(timestamp="", start_time="", end_time="")
        for message in simulation["messages"]:
            message["timestamp"] = ""
    return results


def trial_rewards(b4: Path) -> dict[str, float]:
    """B4's reward of each trial, keyed `task/trial` as tau2's rescoring files key them."""
    matched = read_columns(b4)
    return {f"{task}/{number}": reward for task, rewards in zip(matched["id"], matched["rewards"])
            for number, reward in enumerate(json.loads(rewards))}
