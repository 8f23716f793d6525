"""Nightly at scale: two nights of an N-row QA dataset through `evalpipe nightly`, and the paired bootstrap beside
scipy.stats.bootstrap (same resamples, in process).

Usage: python bench/bench_nightly.py [--rows 200000]
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

import numpy as np
from scipy.stats import bootstrap

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from qa_data import write_dataset  # noqa: E402

from stages import paired_bootstrap_drop_pvalue  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def run_night(inputs: Path, outputs: Path, night: str) -> tuple[float, int]:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pipeline", "nightly", "--date", night, "--inputs", str(inputs),
                             "--outputs", str(outputs)], cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, result.returncode


def scipy_drop_pvalue(before: np.ndarray, after: np.ndarray, resamples: int) -> float:
    """The same one-sided percentile p-value from scipy's paired bootstrap distribution of the mean difference."""
    result = bootstrap((after, before), lambda a, b, axis: (a - b).mean(axis=axis), paired=True, vectorized=True,
                       n_resamples=resamples, method="percentile", random_state=np.random.default_rng(0),
                       batch=max(1, (1 << 23) // before.size))
    distribution = result.bootstrap_distribution
    return (int(np.count_nonzero(distribution >= -1e-12)) + 1) / (resamples + 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        inputs, outputs = Path(tmp) / "inputs", Path(tmp) / "outputs"
        write_dataset(inputs / "bench_qa", args.rows, seed=0)
        first, code1 = run_night(inputs, outputs, "2026-11-01")
        write_dataset(inputs / "bench_qa", args.rows, seed=1)
        second, code2 = run_night(inputs, outputs, "2026-11-02")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        comparisons = json.loads((outputs / "nightly/2026-11-02/regressions.json").read_text())["comparisons"]
    print(f"rows: {args.rows:,}\n")
    print("| night | seconds | exit | rows/s |\n|---|---|---|---|")
    print(f"| first (nothing to compare) | {first:.1f} | {code1} | {args.rows / first:,.0f} |")
    print(f"| second (new predictions, compared) | {second:.1f} | {code2} | {args.rows / second:,.0f} |")
    print(f"\npeak RSS of the nightly subprocesses: {peak:,.0f} MiB")
    for c in comparisons:
        print(f"  {c['metric']}: {c['before']:.4f} → {c['after']:.4f}, p={c['p_value']:.3g} ({c['method']}), "
              f"regression={c['regression']}")

    print("\n| items | resamples | evalpipe s | scipy.stats.bootstrap s | ratio | evalpipe p | scipy p |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(1)
    for items, resamples in ((1_000, 10_000), (20_000, 10_000), (100_000, 2_000)):
        before = rng.uniform(size=items)
        after = np.clip(before + rng.normal(-0.004, 0.2, size=items), 0, 1)
        started = time.perf_counter()
        ours = paired_bootstrap_drop_pvalue(before, after, resamples)
        ours_s = time.perf_counter() - started
        started = time.perf_counter()
        theirs = scipy_drop_pvalue(before, after, resamples)
        theirs_s = time.perf_counter() - started
        print(f"| {items:,} | {resamples:,} | {ours_s:.2f} | {theirs_s:.2f} | {theirs_s / ours_s:.1f}× | {ours:.4f} |"
              f" {theirs:.4f} |")


if __name__ == "__main__":
    main()
