"""Judge throughput: N items × 2 criteria asked at concurrency C of a scripted judge server on 127.0.0.1 that takes
50 ms per call (in its own process), through the journal; prints calls/s, the share of ideal throughput
(C / latency), peak RSS, and a rerun's time (every call read back from the journal, none asked). Then the
leaderboard: M models × K items against a baseline (outcomes drawn from known ratings), the Bradley–Terry fit with
its bootstrap, beside scikit-learn's logistic regression on the same outcomes (Arena-Hard-Auto's way: ties as one win
each way) for the single fit.

The store part: two nights of N items, a tenth of the answers changed on the second, each night in its own journal
with the verdict store shared — calls asked on night two — and the time to read 10⁶ stored verdicts.

Usage: python bench/bench_judge.py [--items 10000] [--concurrency 16] [--latency 0.05]
                                   [--part judge|leaderboard|store|all] [--models 20] [--board-items 5000]
                                   [--resamples 1000] [--stored 1000000]
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
from stages.judge.bradley_terry import BASE_RATING, bradley_terry_ratings  # noqa: E402

VERDICT = '{"reason": "consistent with the reference", "score": 1}'


def bench_leaderboard(models: int, items: int, resamples: int) -> None:
    """Outcomes of every model against the baseline on every item, drawn from known ratings; the fit and its
    bootstrap timed, and the single fit against scikit-learn's logistic regression on the same battles."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    names = [f"m{i:02d}" for i in range(models)]
    truth = dict(zip(names, BASE_RATING + np.linspace(-300, 300, models)))
    baseline = names[models // 2]
    first, second, outcome, ids = [], [], [], []
    for name in names:
        if name == baseline:
            continue
        p = 1 / (1 + 10 ** ((truth[baseline] - truth[name]) / 400))
        draws = rng.random(items)
        found = np.where(np.abs(draws - p) < 0.05, "tie", np.where(draws < p, "first", "second"))
        first += [name] * items
        second += [baseline] * items
        outcome += found.tolist()
        ids += [f"q{i}" for i in range(items)]
    started = time.perf_counter()
    single = bradley_terry_ratings(first, second, outcome, ids, baseline, resamples=0)
    fit = time.perf_counter() - started
    started = time.perf_counter()
    board = bradley_terry_ratings(first, second, outcome, ids, baseline, resamples=resamples)
    total = time.perf_counter() - started
    index = {name: i for i, name in enumerate(sorted(names))}
    rows, labels, weights = [], [], []
    for a, b, found in zip(first, second, outcome):
        for won, weight in ((1, 1.0 if found == "first" else 0.5 if found == "tie" else 0.0),
                            (0, 1.0 if found == "second" else 0.5 if found == "tie" else 0.0)):
            if weight:
                x = np.zeros(len(names))
                x[index[a]], x[index[b]] = np.log(10) / 400, -np.log(10) / 400
                rows.append(x)
                labels.append(won)
                weights.append(weight)
    started = time.perf_counter()
    model = LogisticRegression(fit_intercept=False, C=np.inf, tol=1e-8, max_iter=10_000)  # no penalty
    model.fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))
    reference = time.perf_counter() - started
    coefficients = model.coef_[0]
    theirs = {name: coefficients[index[name]] - coefficients[index[baseline]] + BASE_RATING for name in names}
    ours = {row["model"]: row["rating"] for row in single["models"]}
    gap = max(abs(ours[name] - theirs[name]) for name in names)
    widest = max(row["high"] - row["low"] for row in board["models"] if row["model"] != baseline)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"leaderboard: {models} models × {items:,} items against a baseline = {len(outcome):,} outcomes, "
          f"{resamples:,} bootstrap resamples")
    print("| outcomes | fit s | fit + bootstrap s | scikit-learn fit s | × scikit-learn | max rating gap | "
          "widest 95% interval | peak RSS MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {len(outcome):,} | {fit:.3f} | {total:.1f} | {reference:.2f} | {reference / fit:.0f}× faster | "
          f"{gap:.4f} | {widest:.0f} points | {peak:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--part", choices=("judge", "leaderboard", "store", "all"), default="all")
    parser.add_argument("--stored", type=int, default=1_000_000)
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--board-items", type=int, default=5_000)
    parser.add_argument("--resamples", type=int, default=1_000)
    args = parser.parse_args()
    if args.part in ("judge", "all"):
        bench_judge(args)
    if args.part in ("leaderboard", "all"):
        bench_leaderboard(args.models, args.board_items, args.resamples)
    if args.part in ("store", "all"):
        bench_store(args)


def bench_store(args: argparse.Namespace) -> None:
    """Two nights against one verdict store, a tenth of the answers changed on the second; then reading a store of
    `args.stored` verdicts."""
    import orjson

    from stages.chat.journal import AnswerStore

    ports: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(ports, args.latency, VERDICT), daemon=True)
    server.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}"
    config = read_judge_config({"url": url, "model": "judge", "criteria": ["correct"],
                                "concurrency": args.concurrency}, "bench")
    nights = []
    with tempfile.TemporaryDirectory(prefix="evalpipe-store-") as scratch:
        store = Path(scratch) / "verdicts.jsonl"
        for night, changed in ((1, 0), (2, args.items // 10)):
            items = [{"id": f"q{i}", **render_fields(f"Question {i}?", [f"answer {i}"],
                                                     f"changed {i}" if i < changed else f"answer {i}", None, None)}
                     for i in range(args.items)]
            calls = judge_calls(items, config)
            started = time.perf_counter()
            usage = ask_judges(calls, config, Path(scratch) / f"night{night}.jsonl", store).usage
            nights.append((night, len(calls), usage, time.perf_counter() - started))
        record = {"id": "0" * 24, "key": "0" * 24, "prediction": VERDICT, "judge": "judge"}
        with open(store, "wb") as handle:
            for i in range(args.stored):
                handle.write(orjson.dumps({**record, "id": f"{i:024d}", "key": f"{i:024d}"}) + b"\n")
        size = store.stat().st_size
        started = time.perf_counter()
        loaded = AnswerStore(store).load({f"{i:024d}" for i in range(0, args.stored, 10)})  # a night's tenth
        read = time.perf_counter() - started
    server.terminate()
    print(f"verdict store: two nights of {args.items:,} items, a tenth changed on night two; concurrency "
          f"{args.concurrency}, {args.latency * 1000:.0f} ms server")
    print("| night | calls needed | asked | reused | wall s |")
    print("| --- | --- | --- | --- | --- |")
    for night, needed, usage, wall in nights:
        print(f"| {night} | {needed:,} | {usage['asked']:,} | {usage['reused']:,} | {wall:.1f} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"reading {args.stored:,} stored verdicts ({size / 2**20:.0f} MiB) for the {len(loaded):,} a night needs: "
          f"{read:.2f} s; peak RSS {peak:.0f} MiB")


def bench_judge(args: argparse.Namespace) -> None:
    """The judge's throughput through the journal, and a rerun that asks nothing."""
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
