"""B1–B6 on a generated N-row QA dataset: per-stage time, peak RSS, rows/s, beside the official SQuAD logic run on
the same files in this process; then the fact_verification and multiple_choice kinds at the same size (multiple
choice twice: CMMLU's questions repeated, and every question distinct).

Usage: python bench/bench_qa_pipeline.py [--rows 1000000] [--repeat 2] [--no-kinds]
       python bench/bench_qa_pipeline.py --growth 100000,1000000,3000000

Each evalpipe run is a fresh `python -m pipeline run` (startup, Luigi, every artifact written); its peak RSS is that
process's own (os.wait4). The "nothing changed" rerun is the same command again once the first run's artifacts are
written back to disk (os.sync), with Python's bytecode cache on as in an installed package.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kinds_data import write_cmmlu_dataset, write_distinct_cmmlu_dataset, write_fever_dataset  # noqa: E402
from official_squad import exact_match_score, f1_score  # noqa: E402
from qa_data import write_dataset  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("B1", "B2", "B3", "B4", "B5", "B6")


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


def run_pipeline(inputs: Path, outputs: Path) -> tuple[float, float]:
    """One `evalpipe run` in a fresh process: (wall seconds, that process's peak RSS in MiB). It starts once the
    files written before it are on disk (os.sync), so no write-back of a dataset just generated, or of the last
    run's outputs, competes with it: every kind and every run measured alike."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    os.sync()
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs",
                                    str(outputs)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            raise SystemExit(f"evalpipe run on {inputs} failed (exit {os.waitstatus_to_exitcode(status)}):\n"
                             + errors.read().decode(errors="replace"))
    return wall, usage.ru_maxrss / 1024


def stage_seconds(outputs: Path) -> dict[str, float]:
    """Seconds per stage, summed over shards and models, from the artifacts' headers."""
    seconds: dict[str, float] = {}
    for path in outputs.rglob("B*_*.json"):
        header = json.loads(path.read_text(encoding="utf-8")).get("header", {})
        if "timings" in header:
            seconds[header["stage"]] = seconds.get(header["stage"], 0.0) + header["timings"]["seconds"]
    return seconds


def qa_round(inputs: Path, outputs: Path, rows: int) -> dict:
    """evalpipe end to end, a rerun with nothing changed, and the official logic, on the same files."""
    wall, peak = run_pipeline(inputs, outputs)
    os.sync()  # the run's ~300 MB of artifacts written back first: a rerun does not come within a second of a run
    noop, _ = run_pipeline(inputs, outputs)
    metrics = json.loads((outputs / "bench_qa/model/B5_component_scores.json").read_text())["metrics"]
    reference_seconds, reference_em, reference_f1 = reference_scoring(inputs / "bench_qa")
    return {"wall": wall, "peak": peak, "noop": noop, "stages": stage_seconds(outputs), "em": metrics["exact_match"],
            "f1": metrics["f1"], "reference": reference_seconds, "reference_em": reference_em,
            "reference_f1": reference_f1, "rows": rows}


def print_qa(rounds: list[dict]) -> None:
    rows = rounds[0]["rows"]
    print(f"rows: {rows:,}\n")
    print("| stage | " + " | ".join(f"run {i + 1} s" for i in range(len(rounds))) + " | rows/s (last run) |")
    print("|---|" + "---|" * (len(rounds) + 1))
    for stage in STAGES:
        seconds = [r["stages"].get(stage, 0.0) for r in rounds]
        print(f"| {stage} | " + " | ".join(f"{s:.2f}" for s in seconds) + f" | {rows / max(seconds[-1], 1e-9):,.0f} |")
    print("\n| run | evalpipe B1–B6 s | official SQuAD logic s | speed-up (official / evalpipe) | evalpipe rows/s "
          "| peak RSS MiB | rerun, nothing changed s | EM evalpipe / official | F1 evalpipe / official |")
    print("|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rounds, start=1):
        print(f"| {i} | {r['wall']:.1f} | {r['reference']:.1f} | {r['reference'] / r['wall']:.2f} | "
              f"{rows / r['wall']:,.0f} | {r['peak']:,.0f} | {r['noop']:.2f} | {r['em']:.12f} / {r['reference_em']:.12f} "
              f"| {r['f1']:.12f} / {r['reference_f1']:.12f} |")


KINDS = (("fact_verification", "FEVER", write_fever_dataset, "accuracy"),
         ("multiple_choice", "CMMLU", write_cmmlu_dataset, "accuracy"),
         ("multiple_choice_distinct", "every question distinct, CMMLU options", write_distinct_cmmlu_dataset,
          "accuracy"))


def kind_run(inputs: Path, outputs: Path, dataset: str, metric: str) -> dict:
    """One `evalpipe run` of a kind's dataset on fresh outputs: wall, peak, stage seconds and the headline metric."""
    wall, peak = run_pipeline(inputs, outputs)
    model = next(p.parent.name for p in (outputs / dataset).glob("*/B5_component_scores.json"))
    value = json.loads((outputs / dataset / model / "B5_component_scores.json").read_text())["metrics"][metric]
    return {"wall": wall, "peak": peak, "stages": stage_seconds(outputs), "value": value}


def kinds_table(tmp: Path, rows: int, runs: int, qa_seconds: float) -> None:
    """fact_verification (FEVER) and multiple_choice (CMMLU repeated, and every question distinct) at `rows` rows,
    `runs` runs in a row each on fresh outputs: wall, its ratio to the qa kind's (same rows, this bench run), rows/s,
    peak RSS, stages, headline."""
    print("\n| dataset (data) | run | rows | evalpipe B1–B6 s | × qa | rows/s | peak RSS MiB | "
          + " | ".join(f"{stage} s" for stage in STAGES) + " | headline |")
    print("|---|---|---|---|---|---|---|" + "---|" * len(STAGES) + "---|")
    for dataset, data, write, metric in KINDS:
        inputs = tmp / dataset / "inputs"
        write(inputs / dataset, rows)
        for run in range(1, runs + 1):
            r = kind_run(inputs, tmp / dataset / f"outputs{run}", dataset, metric)
            print(f"| {dataset} ({data}) | {run} | {rows:,} | {r['wall']:.1f} | {r['wall'] / qa_seconds:.2f} | "
                  f"{rows / r['wall']:,.0f} | {r['peak']:,.0f} | "
                  + " | ".join(f"{r['stages'].get(stage, 0.0):.2f}" for stage in STAGES)
                  + f" | {metric} {r['value']:.4f} |")


def growth_table(tmp: Path, sizes: list[int]) -> None:
    """Each kind's B1–B6 at several sizes (one run each): how time and memory grow with the rows."""
    print("\n| kind | rows | evalpipe B1–B6 s | rows/s | peak RSS MiB |")
    print("|---|---|---|---|---|")
    for kind, _, write, _ in (("qa", "SQuAD", write_dataset, "f1"), *KINDS):
        for rows in sizes:
            inputs = tmp / f"{kind}-{rows}" / "inputs"
            write(inputs / (kind if kind != "qa" else "bench_qa"), rows)
            wall, peak = run_pipeline(inputs, tmp / f"{kind}-{rows}" / "outputs")
            print(f"| {kind} | {rows:,} | {wall:.1f} | {rows / wall:,.0f} | {peak:,.0f} |", flush=True)
            shutil.rmtree(tmp / f"{kind}-{rows}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=2, help="end-to-end QA rounds, each on fresh outputs")
    parser.add_argument("--no-kinds", action="store_true", help="skip the fact_verification / multiple_choice runs")
    parser.add_argument("--growth", default="", help="comma-separated sizes (100000,1000000,3000000): only the "
                                                     "growth table, every kind at each size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.growth:
            growth_table(Path(tmp), [int(size) for size in args.growth.split(",")])
            return
        inputs = Path(tmp) / "inputs"
        write_dataset(inputs / "bench_qa", args.rows)
        rounds = [qa_round(inputs, Path(tmp) / f"outputs{i}", args.rows) for i in range(args.repeat)]
        print_qa(rounds)
        if not args.no_kinds:
            kinds_table(Path(tmp), args.rows, args.repeat, sum(r["wall"] for r in rounds) / len(rounds))


if __name__ == "__main__":
    main()
