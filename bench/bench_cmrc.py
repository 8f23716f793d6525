"""CMRC 2018 scoring throughput: N (prediction, answers) pairs built from the CMRC 2018 dev answers (exact,
truncated, padded, mixed Chinese/English, reordered), scored by `qa_em_f1(mode="cmrc")` and by a transcription of the
official scorer's rules (character loop, full LCS matrix) in the same process.

Usage: python bench/bench_cmrc.py [--pairs 1000000]
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pipeline"))
from test_acceptance_cmrc import our_predictions, reference_scores  # noqa: E402

from stages import qa_em_f1  # noqa: E402

DEV = ROOT.parent / "shared" / "data" / "real" / "cmrc2018" / "cmrc2018_dev.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--reference-pairs", type=int, default=100_000, help="the reference is timed on a sample")
    args = parser.parse_args()
    questions, predictions = our_predictions(json.loads(DEV.read_text(encoding="utf-8")))
    base = [(predictions[q["id"]], [a["text"] for a in q["answers"]]) for q in questions if q["id"] in predictions]
    pairs = [base[i % len(base)] for i in range(args.pairs)]
    started = time.perf_counter()
    ours = [qa_em_f1(prediction, golds, mode="cmrc") for prediction, golds in pairs]
    ours_seconds = time.perf_counter() - started
    sample = pairs[: args.reference_pairs]
    started = time.perf_counter()
    reference = [reference_scores(golds, prediction) for prediction, golds in sample]
    reference_seconds = time.perf_counter() - started
    mismatches = sum(abs(a[0] - b[0]) > 1e-12 or abs(a[1] - b[1]) > 1e-12 for a, b in zip(ours, reference))
    ours_rate, reference_rate = args.pairs / ours_seconds, len(sample) / reference_seconds
    print(f"{'implementation':<44}{'pairs':>11}{'seconds':>9}{'pairs/s':>10}")
    print(f"{'evalpipe qa_em_f1(mode=cmrc)':<44}{args.pairs:>11,}{ours_seconds:>9.1f}{ours_rate:>10,.0f}")
    print(f"{'official rules (char loop, LCS matrix)':<44}{len(sample):>11,}{reference_seconds:>9.1f}"
          f"{reference_rate:>10,.0f}")
    print(f"speed-up {ours_rate / reference_rate:.1f}×; {mismatches} of {len(sample):,} compared pairs differ; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")


if __name__ == "__main__":
    main()
