"""B1–B6 on a generated N-row QA dataset: per-stage time, peak RSS, rows/s, beside the official SQuAD logic.

Usage: python bench/bench_qa_pipeline.py [--rows 1000000]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from official_squad import exact_match_score, f1_score  # noqa: E402
from qa_data import write_dataset  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def reference_scoring(folder: Path) -> tuple[float, float, float]:
    """Read the same two files with json and score them with the official logic: (seconds, EM, F1)."""
    started = time.perf_counter()
    predictions = {}
    with open(folder / "predictions" / "model.jsonl", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            predictions[record["id"]] = record["prediction"]
    em = f1 = total = 0.0
    with open(folder / "questions.jsonl", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            total += 1
            if record["id"] not in predictions:
                continue
            prediction = predictions[record["id"]]
            em += max(float(exact_match_score(prediction, g)) for g in record["answers"])
            f1 += max(f1_score(prediction, g) for g in record["answers"])
    return time.perf_counter() - started, em / total, f1 / total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        inputs, outputs = Path(tmp) / "inputs", Path(tmp) / "outputs"
        write_dataset(inputs / "bench_qa", args.rows)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs", str(outputs)],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - started
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs", str(outputs)],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        noop = time.perf_counter() - started
        stage_seconds = {}
        for path in sorted(outputs.rglob("B*_*.json")):
            header = json.loads(path.read_text(encoding="utf-8")).get("header", {})
            if "timings" in header:
                stage_seconds[header["stage"]] = header["timings"]["seconds"]
        metrics = json.loads((outputs / "bench_qa/model/B5_component_scores.json").read_text())["metrics"]
        reference_seconds, reference_em, reference_f1 = reference_scoring(inputs / "bench_qa")

    print(f"rows: {args.rows:,}")
    print("| stage | seconds |\n|---|---|")
    for stage, seconds in stage_seconds.items():
        print(f"| {stage} | {seconds:.2f} |")
    print("\n| what | evalpipe B1–B6 (subprocess) | official SQuAD logic (in process) |\n|---|---|---|")
    print(f"| wall seconds | {wall:.1f} | {reference_seconds:.1f} |")
    print(f"| rows/s | {args.rows / wall:,.0f} | {args.rows / reference_seconds:,.0f} |")
    print(f"| ratio (evalpipe time / reference time) | {wall / reference_seconds:.2f} | 1.00 |")
    print(f"| peak RSS MiB | {peak_mib:,.0f} | – |")
    print(f"| EM | {metrics['exact_match']:.12f} | {reference_em:.12f} |")
    print(f"| F1 | {metrics['f1']:.12f} | {reference_f1:.12f} |")
    print(f"| second run, nothing changed (s) | {noop:.2f} | – |")


if __name__ == "__main__":
    main()
