"""Rescores evalpipe's exported tau2 results file with tau2-bench 1.0.1's own `tau2 evaluate-trajs` (not part of the
suite): tau2 loads tau2_reference/exported_mock.json (written by `python -m tests.pipeline.kinds.test_tau2_export DIR`)
into its Results model, rescores every simulation, and its rewards go to tau2_reference/export_rescored.json.

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_export_check.py
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "tau2_reference"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([str(Path(sys.executable).parent / "tau2"), "evaluate-trajs", str(OUT / "exported_mock.json"),
                        "-o", folder], check=True, capture_output=True)
        (rescored,) = Path(folder).rglob("*.json")
        simulations = json.loads(rescored.read_text())["simulations"]
    rewards = {f"{s['task_id']}/{s['trial']}": s["reward_info"]["reward"] for s in simulations}
    (OUT / "export_rescored.json").write_text(json.dumps({"tool": "tau2 evaluate-trajs 1.0.1", "rewards": rewards},
                                                         indent=1) + "\n")
    print(rewards, file=sys.stderr)


if __name__ == "__main__":
    main()
