"""Rescores evalpipe's exported tau2 results files with tau2-bench 1.0.1's own `tau2 evaluate-trajs` (not part of the
suite): tau2 loads tau2_reference/exported_mock.json (written by `python -m tests.pipeline.kinds.test_tau2_export DIR`)
and exported_telecom.json (`python -m tests.pipeline.kinds.test_tau2_telecom_pipeline DIR`) into its Results model,
rescores every simulation, and its rewards go to tau2_reference/export_rescored.json and
telecom_export_rescored.json, with `rewritten`: where tau2's Results model, loading the export and dumping it again as
its save does, writes it otherwise — [] when the export is the file tau2 writes; tau2's rescored telecom file itself is kept as results_telecom.json (a results file tau2 1.0.1
wrote, which `evalpipe import tau2` reads).

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_export_check.py
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tau2.data_model.simulation import Results

OUT = Path(__file__).resolve().parent / "tau2_reference"


def rewritten(written, dumped, path: str = "") -> list[str]:
    """The paths where tau2's dump differs from the file written (a field missing, added or changed)."""
    if isinstance(written, dict) and isinstance(dumped, dict):
        return [found for name in dict.fromkeys([*written, *dumped]) for found in
                (rewritten(written[name], dumped[name], f"{path}/{name}") if name in written and name in dumped
                 else [f"{path}/{name}"])]
    if isinstance(written, list) and isinstance(dumped, list) and len(written) == len(dumped):
        return [found for number, pair in enumerate(zip(written, dumped)) for found in rewritten(*pair, f"{path}/{number}")]
    return [] if written == dumped else [path]


def main() -> None:
    for exported, written in (("exported_mock.json", "export_rescored.json"),
                              ("exported_telecom.json", "telecom_export_rescored.json")):
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run([str(Path(sys.executable).parent / "tau2"), "evaluate-trajs", str(OUT / exported),
                            "-o", folder], check=True, capture_output=True)
            (rescored,) = Path(folder).rglob("*.json")
            simulations = json.loads(rescored.read_text())["simulations"]
            if exported == "exported_telecom.json":
                shutil.copy(rescored, OUT / "results_telecom.json")
        rewards = {f"{s['task_id']}/{s['trial']}": s["reward_info"]["reward"] for s in simulations}
        document = json.loads((OUT / exported).read_text())
        again = json.loads(Results.model_validate(document).model_dump_json())
        (OUT / written).write_text(json.dumps({"tool": "tau2 evaluate-trajs 1.0.1", "rewards": rewards,
                                               "rewritten": rewritten(document, again)}, indent=1) + "\n")
        print(rewards, file=sys.stderr)


if __name__ == "__main__":
    main()
