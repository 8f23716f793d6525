"""Nightly alarms measured: false alarms on unchanged nights, detection of planted drops, and how soon a slow slide is
caught against a pinned baseline — with evalpipe's own tests (compare_nights) on simulated item scores.

Usage: python bench/bench_alarms.py [--nights 100] [--trials 100] [--resamples 10000]

A suite of 40 QA datasets × 2 models × 400 items. Each item has a fixed ability (its chance of being right); every
night redraws each item's correctness from it, as sampling at temperature > 0 does: exact_match is 0/1 and F1 a
graded value (1 when right, else 0, 0.25 or 0.5), so both the McNemar and the bootstrap paths are exercised. A night
is compared with the one before with every test corrected together (none / Holm / Benjamini–Hochberg at alpha 0.05,
min_drop 0.02). Planted drops lower one pair's abilities by 5 or 10 points on a 400- or 2,000-item dataset inside an
otherwise unchanged suite; a slide lowers them by 1.5 points a night.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import RegressionSettings, compare_nights  # noqa: E402
from stages.nightly.regression import correct_together  # noqa: E402

DATASETS, MODELS, ITEMS = 40, 2, 400
CORRECTIONS = ("none", "holm", "bh")


def abilities(rng: np.random.Generator, items: int) -> np.ndarray:
    """Per-item chance of a right answer: most items easy, some hard (mean about 0.67)."""
    return rng.beta(2.0, 1.0, size=items)


def night_values(rng: np.random.Generator, ability: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One night's exact_match and F1 per item."""
    right = rng.random(ability.size) < ability
    partial = rng.choice([0.0, 0.25, 0.5], size=ability.size)
    return right.astype(float), np.where(right, 1.0, partial)


def columns(pairs: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]) -> dict[str, list]:
    """Item-score columns for every (dataset, model) → (exact_match, f1) values."""
    out = {name: [] for name in ("dataset", "model", "metric", "test", "id", "value")}
    for (dataset, model), (em, f1) in pairs.items():
        for metric, test, values in (("exact_match", "binary", em), ("f1", "mean", f1)):
            n = values.size
            out["dataset"] += [dataset] * n
            out["model"] += [model] * n
            out["metric"] += [metric] * n
            out["test"] += [test] * n
            out["id"] += [str(i) for i in range(n)]
            out["value"] += values.tolist()
    return out


def tested(before, after, settings) -> list[dict]:
    """Uncorrected comparisons (the corrections are applied to them afterwards)."""
    return compare_nights(columns(before), columns(after), settings, correction="none")


def flagged(comparisons: list[dict], settings, correction: str) -> list[dict]:
    return [c for c in correct_together(comparisons, settings, correction) if c["regression"]]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--resamples", type=int, default=10000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    default = RegressionSettings(bootstrap_resamples=args.resamples)
    keys = [(f"qa{d:02d}", f"m{m}") for d in range(DATASETS) for m in range(MODELS)]
    settings = {dataset: default for dataset, _ in keys}
    ability = {key: abilities(rng, ITEMS) for key in keys}

    started = time.perf_counter()
    previous = {key: night_values(rng, ability[key]) for key in keys}
    aa_nights, tests = [], 0
    for _ in range(args.nights):
        tonight = {key: night_values(rng, ability[key]) for key in keys}
        comparisons = tested(previous, tonight, settings)
        tests += len(comparisons)
        aa_nights.append(comparisons)
        previous = tonight
    aa_seconds = time.perf_counter() - started

    print(f"A/A: {args.nights} unchanged nights of {DATASETS} datasets × {MODELS} models × {ITEMS} items "
          f"({tests // args.nights} tests a night), {args.resamples} bootstrap resamples\n")
    print("| correction | nights with any alarm | alarms per night |\n|---|---|---|")
    for correction in CORRECTIONS:
        alarms = [len(flagged(night, settings, correction)) for night in aa_nights]
        print(f"| {correction} | {sum(a > 0 for a in alarms) / len(alarms):.1%} | {np.mean(alarms):.2f} |")

    print(f"\nPlanted drops: one (dataset, model) of the suite, {args.trials} trials each, the other 158 tests taken "
          "from the A/A nights\n")
    print("| items | planted drop | detected, bh | detected, holm | detected, none | exact_match flagged (bh) | "
          "f1 flagged (bh) |\n|---|---|---|---|---|---|---|")
    planted_key = ("planted", "m0")
    planted_settings = {**settings, "planted": default}
    for items in (400, 2000):
        for drop in (0.05, 0.10):
            found = {c: 0 for c in CORRECTIONS}
            metrics = {"exact_match": 0, "f1": 0}
            for trial in range(args.trials):
                base = abilities(rng, items)
                pair = tested({planted_key: night_values(rng, base)},
                              {planted_key: night_values(rng, np.clip(base - drop, 0, 1))}, planted_settings)
                night = [c for c in aa_nights[trial % len(aa_nights)] if c["dataset"] != keys[0][0]
                         or c["model"] != keys[0][1]] + pair
                for correction in CORRECTIONS:
                    hits = [c for c in flagged(night, planted_settings, correction) if c["dataset"] == "planted"]
                    found[correction] += bool(hits)
                    if correction == "bh":
                        for c in hits:
                            metrics[c["metric"]] += 1
            n = args.trials
            print(f"| {items:,} | {drop:.0%} | {found['bh'] / n:.0%} | {found['holm'] / n:.0%} | "
                  f"{found['none'] / n:.0%} | {metrics['exact_match'] / n:.0%} | {metrics['f1'] / n:.0%} |")

    print("\nA slide of 1.5 points a night (bh): nights until a DRIFT against the pinned baseline; REGRESSION "
          "night over night\n")
    print("| items | median nights to DRIFT | caught within 8 nights | night-over-night alarms |\n|---|---|---|---|")
    for items in (400, 2000):
        nights_to_drift, regressions, trials = [], 0, max(1, args.trials // 5)
        for trial in range(trials):
            base = abilities(rng, items)
            baseline = {planted_key: night_values(rng, base)}
            previous_pair = baseline
            for night in range(1, 9):
                tonight = {planted_key: night_values(rng, np.clip(base - 0.015 * night, 0, 1))}
                others = [c for c in aa_nights[(trial * 8 + night) % len(aa_nights)]
                          if (c["dataset"], c["model"]) != keys[0]]
                regressions += any(c["dataset"] == "planted" for c in flagged(
                    others + tested(previous_pair, tonight, planted_settings), planted_settings, "bh"))
                drift = [c for c in flagged(others + tested(baseline, tonight, planted_settings), planted_settings,
                                            "bh") if c["dataset"] == "planted"]
                previous_pair = tonight
                if drift:
                    nights_to_drift.append(night)
                    break
        median = np.median(nights_to_drift) if nights_to_drift else float("nan")
        print(f"| {items:,} | {median:.0f} | {len(nights_to_drift) / trials:.0%} | {regressions} in "
              f"{trials} slides |")

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{tests:,} A/A tests in {aa_seconds:.1f} s ({tests / aa_seconds:,.0f} tests/s); peak RSS {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
