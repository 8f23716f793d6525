"""Judge throughput: N items × 2 criteria asked at concurrency C of a scripted judge server on 127.0.0.1 that takes
50 ms per call (in its own process), through the journal; prints calls/s, the share of ideal throughput
(C / latency), peak RSS, and a rerun's time (every call read back from the journal, none asked).

Usage: python bench/bench_judge.py [--items 10000] [--concurrency 16] [--latency 0.05]
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))
from bench_generation import serve  # noqa: E402

from stages.judge import ask_judges, item_verdicts, judge_calls, judge_summary, read_judge_config  # noqa: E402
from stages.judge.asking import render_fields  # noqa: E402

VERDICT = '{"reason": "consistent with the reference", "score": 1}'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    criteria = ["content_correct", "style_consistent"]
    ports: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(ports, args.latency, VERDICT), daemon=True)
    server.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}"
    config = read_judge_config({"url": url, "model": "judge", "criteria": criteria, "concurrency": args.concurrency,
                                "persona": "Peppa Pig"}, "bench")
    items = [{"id": f"s{i}", **render_fields(f"scene {i}: what do you want to do?", [f"Jump in puddles {i}!"],
                                             f"I want to jump in muddy puddles {i}!", None, "Peppa Pig")}
             for i in range(args.items)]
    with tempfile.TemporaryDirectory(prefix="evalpipe-judge-") as scratch:
        journal = Path(scratch) / "calls.jsonl"
        calls = judge_calls(items, config)
        started = time.perf_counter()
        records = ask_judges(calls, config, journal)
        asked = time.perf_counter() - started
        started = time.perf_counter()
        summary = judge_summary(item_verdicts(calls, records, config), config)
        scored = time.perf_counter() - started
        started = time.perf_counter()
        ask_judges(calls, config, journal)
        rerun = time.perf_counter() - started
    server.terminate()
    ideal = args.concurrency / args.latency
    rate = len(calls) / asked
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"judge: {args.items:,} items × {len(criteria)} criteria = {len(calls):,} calls at concurrency "
          f"{args.concurrency} against a {args.latency * 1000:.0f} ms server (its own process), 127.0.0.1")
    print("| calls | wall s | calls/s | ideal calls/s | share of ideal | verdicts + summary s | rerun s | peak RSS MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {len(calls):,} | {asked:.1f} | {rate:.0f} | {ideal:.0f} | {rate / ideal:.0%} | {scored:.2f} | "
          f"{rerun:.2f} | {peak:.0f} |")
    means = ", ".join(f"{name} {s['mean']:.3f} (parsed {s['parse_rate']:.0%})" for name, s in summary.items())
    print(f"verdicts: {means}")


if __name__ == "__main__":
    main()
