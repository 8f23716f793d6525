"""Start-up cost of the `evalpipe` command: cumulative import time of pipeline.cli, and the wall time of a no-op
`evalpipe run` over the demo (everything up to date), beside the floors no evalpipe code can go under (an empty
interpreter, `import luigi`), and what of the no-op run's import time is the kinds' modules and luigi's. Medians of N
runs. Every run compiles its bytecode as an installed package would (PYTHONDONTWRITEBYTECODE is dropped: with it set,
each run compiles every module of a tree with no __pycache__, ~0.3 s more).

Usage: python bench/bench_startup.py [--runs 7]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cumulative_import_seconds(module: str) -> float:
    """`python -X importtime -c "import MODULE"`: the module's own cumulative line, in seconds."""
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], cwd=ROOT, env=ENV,
                         capture_output=True, text=True, check=True).stderr
    line = next(l for l in reversed(err.splitlines()) if re.search(rf"\|\s+{re.escape(module)}$", l))
    return int(line.split("|")[1]) / 1e6


def run_import_seconds(argv: list[str], module: str) -> float:
    """`python -X importtime ARGV...`: the import time of `module` (its cumulative line) or, for a package prefix
    ending in ".", the self time of the modules under it, summed; in seconds."""
    err = subprocess.run([sys.executable, "-X", "importtime", *argv], cwd=ROOT, env=ENV, capture_output=True,
                         text=True, check=True).stderr
    fields = [line.split("|") for line in err.splitlines()[1:] if line.startswith("import time:") and "|" in line]
    if module.endswith("."):
        return sum(int(f[0].split(":")[1]) for f in fields if f[2].strip().startswith(module)) / 1e6
    return sum(int(f[1]) for f in fields if f[2].strip() == module) / 1e6


def wall_seconds(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as outputs:
        run = [sys.executable, "-m", "pipeline", "run", "--outputs", outputs]
        wall_seconds(run)
        run_args = run[1:]
        rows = [
            ("import pipeline.cli (cumulative)", [cumulative_import_seconds("pipeline.cli") for _ in range(runs)],
             0.25),
            ("import luigi (floor, cumulative)", [cumulative_import_seconds("luigi") for _ in range(runs)], None),
            ("python -c pass (floor, wall)", [wall_seconds([sys.executable, "-c", "pass"]) for _ in range(runs)], None),
            ("no-op evalpipe run, demo (wall)", [wall_seconds(run) for _ in range(runs)], 0.6),
            ("  of it: import stages.kinds.* (self)", [run_import_seconds(run_args, "stages.kinds.")
                                                      for _ in range(runs)], None),
            ("  of it: import luigi (cumulative)", [run_import_seconds(run_args, "luigi") for _ in range(runs)], None),
        ]
    print(f"{'what':<38}{'median s':>10}{'min s':>9}{'target s':>10}")
    for name, values, target in rows:
        print(f"{name:<38}{statistics.median(values):>10.3f}{min(values):>9.3f}{'' if target is None else target:>10}")


if __name__ == "__main__":
    main()
