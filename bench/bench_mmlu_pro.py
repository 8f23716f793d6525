"""MMLU-Pro's five published results files (60,160 replies) imported and scored by evalpipe — `evalpipe import
mmlu-pro` and `evalpipe run`, each file its own dataset — against the repository's own extraction loop, its
compute_accuracy.py run as it is on the same files, each side in its own process, once. compute_accuracy.py reads a
folder of JSON lists whose replies are `model_outputs` (the name its evaluate scripts write); the published files call
them `generated_text`, so the bench writes that folder first (untimed). The script makes two passes per file (level 1:
the first regex, level 2: the cascade); level 1 and the JSON loads take under a second of its time.

Usage: python3 bench/bench_mmlu_pro.py REFERENCE (a checkout of TIGER-AI-Lab/MMLU-Pro holding compute_accuracy.py:
`git --git-dir=<fetched snapshot> archive HEAD compute_accuracy.py | tar x -C REFERENCE`) [DATA (default:
../shared/data/real/mmlu_pro)]."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "real" / "mmlu_pro"


def reference_folder(files: list[Path], folder: Path) -> None:
    """The files as compute_accuracy.py reads them: one JSON list per model, replies under `model_outputs`."""
    for path in files:
        with zipfile.ZipFile(path) as archive:
            items = json.loads(archive.read(archive.namelist()[0]))
        for item in items:
            item["model_outputs"] = item.pop("generated_text")
        (folder / path.with_suffix(".json").name).write_text(json.dumps(items))


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Seconds a command takes in its own process, and what it printed."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env, cwd=ROOT)
    return time.perf_counter() - start, done.stdout


def evalpipe_run(files: list[Path], work: Path) -> tuple[float, dict[str, float]]:
    """Seconds to import and score every file (each its own dataset: two revisions of the test set), and each
    model's accuracy from its B5 artifact."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    elapsed = 0.0
    for index, path in enumerate(files):
        seconds, _ = timed([sys.executable, "-m", "pipeline", "import", "mmlu-pro", str(path), "--inputs",
                            str(work / "inputs"), "--dataset", f"mmlu_pro_{index}"], env)
        elapsed += seconds
    seconds, _ = timed([sys.executable, "-m", "pipeline", "run", "--inputs", str(work / "inputs"), "--outputs",
                        str(work / "outputs")], env)
    accuracies = {}
    for scored in (work / "outputs").glob("mmlu_pro_*/*/B5_component_scores.json"):
        accuracies[scored.parent.name] = json.loads(scored.read_text())["metrics"]["accuracy"]
    return elapsed + seconds, accuracies


def main() -> None:
    reference, data = Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else DATA
    files = sorted(data.glob("model_outputs_*.zip"))
    with tempfile.TemporaryDirectory() as scratch:
        folder, work = Path(scratch) / "reference", Path(scratch) / "evalpipe"
        folder.mkdir()
        reference_folder(files, folder)
        ours, accuracies = evalpipe_run(files, work)
        theirs, printed = timed([sys.executable, str(reference / "compute_accuracy.py"), str(folder)])
    level_2 = dict(re.findall(r"model_outputs_(.+?)_5shots\.json ([0-9.]+)\n\n", printed))
    print(f"MMLU-Pro, {len(files)} published files, {len(files) * 12032:,} replies, one run each "
          f"(a shared machine: noisy)\n")
    print(f"{'':42}{'seconds':>10}")
    print(f"{'compute_accuracy.py (both levels)':42}{theirs:>10.1f}")
    print(f"{'evalpipe import + run (all stages)':42}{ours:>10.1f}")
    print(f"{'speed-up':42}{theirs / ours:>9.1f}×\n")
    print(f"{'model':32}{'evalpipe (save_res guesses)':>30}{'script level 2 (random.choice)':>32}")
    for model in sorted(accuracies):
        print(f"{model:32}{accuracies[model]:>30.4f}{float(level_2.get(model, 'nan')):>32.4f}")


if __name__ == "__main__":
    main()
