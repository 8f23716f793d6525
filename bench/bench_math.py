"""The math kind measured: MATH-500's 500 problems × 64 replies each (32,000 rows) scored by the math kind's B3–B5,
as several replies per item (wrong answers grouped by equivalence, maj@k), against math-verify's parse + verify called row by row in the same process — same verdict on every row required.

Usage: python bench/bench_math.py [--samples 64] [--seed 0] [--data ../shared/data/real/math/math500.jsonl]
       python bench/bench_math.py --whole-run [--samples 32] [--repeat 2]

--whole-run measures what a user waits for: `evalpipe run` in a fresh process (start-up, B1–B6, the report) over the
problems and their replies written as a dataset (questions.jsonl, each problem's replies in one `samples` list, kind
math), against math-verify's parse + verify row by row on the same rows (its import included); B4's verdict per
(problem, sample) must equal math-verify's.

Replies are built from each problem's official solution: right ones keep its boxed answer, wrong ones box one of three
other problems' answers instead; a fifth of them state the answer after "The final answer is" with no box anywhere in
the reply, and half
open with a <think> block (the reference reads the text after it, as harnesses that strip reasoning do). Each
problem's share of right replies is drawn once, so its final answers repeat across samples as a model's do.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import get_kind  # noqa: E402
from stages.kinds.math.final_answer import last_boxed  # noqa: E402
from stages.kinds.sampling import item_samples  # noqa: E402
from stages.text.reasoning import answers_after_reasoning  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real" / "math" / "math500.jsonl"


def replies(problems: list[dict], samples: int, seed: int) -> list[tuple[dict, str]]:
    """(problem, reply) for every sample of every problem."""
    rng = random.Random(seed)
    rows = []
    for problem in problems:
        share_right = rng.uniform(0.1, 0.95)
        wrong = rng.sample([p["answer"] for p in problems if p["answer"] != problem["answer"]], 3)
        solution = problem["solution"]
        boxed = last_boxed(solution)
        cut = solution.rfind("\\boxed")
        for _ in range(samples):
            answer = boxed if rng.random() < share_right else rng.choice(wrong)
            if rng.random() < 0.2:
                reply = f"{unboxed(solution)}\n\nThe final answer is ${answer}$. I hope it is correct."
            else:
                reply = solution[:cut] + solution[cut:].replace(f"\\boxed{{{boxed}}}", f"\\boxed{{{answer}}}", 1)
            if rng.random() < 0.5:
                reply = f"<think>Let me try {rng.choice(wrong)} first… no.</think>\n\n{reply}"
            rows.append((problem, reply))
    return rows


def unboxed(text: str) -> str:
    """The text with every \\boxed{…} replaced by its contents."""
    while (start := text.rfind("\\boxed{")) >= 0:
        inside = last_boxed(text[start:])
        if inside is None:
            break
        text = text[:start] + inside + text[start + len("\\boxed{") + len(inside) + 1:]
    return text


def scored_by_kind(rows: list[tuple[dict, str]], samples: int) -> tuple[list[bool], float]:
    """The math kind's B3 (reasoning cut, final answer), B4 (equivalence, wrong answers grouped for the vote) and B5
    (accuracy; per item replies, right ones and maj@k) on one table of every (problem, sample) row."""
    import pyarrow as pa

    kind = get_kind("math")
    started = time.perf_counter()
    joined = pa.table({"id": [p["unique_id"] for p, _ in rows], "sample": [i % samples for i in range(len(rows))],
                       "golds": [[p["answer"]] for p, _ in rows], "prediction": [reply for _, reply in rows],
                       "subject": [p["subject"] for p, _ in rows], "level": [str(p["level"]) for p, _ in rows]})
    joined, _ = answers_after_reasoning(joined)
    normalized, _ = kind.normalize(joined, {})
    normalized = normalized.append_column("sample", joined.column("sample"))
    matched, _ = kind.match(normalized, {"compare_seconds": 5.0})
    scored, _ = kind.score(matched, {})
    accuracy = scored.column("accuracy").to_pylist()
    item_samples(matched.column("id").to_pylist(), joined.column("sample").to_pylist(), accuracy,
                 {"accuracy": accuracy}, matched.column("vote").to_pylist())
    return matched.column("correct").to_pylist(), time.perf_counter() - started


def scored_row_by_row(rows: list[tuple[dict, str]]) -> tuple[list[bool], float]:
    """math-verify's own call on each row: verify(parse(gold), parse(reply after its reasoning))."""
    from math_verify import parse, verify

    started = time.perf_counter()
    found = [verify(parse("\\boxed{" + problem["answer"] + "}"), parse(re.split("</think>", reply)[-1]))
             for problem, reply in rows]
    return found, time.perf_counter() - started


def write_math_dataset(folder: Path, rows: list[tuple[dict, str]], samples: int) -> None:
    """questions.jsonl (MATH-500's fields) and predictions/model.jsonl with each problem's replies in order."""
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    (folder / "dataset.toml").write_text('kind = "math"\n')
    problems = list({problem["unique_id"]: problem for problem, _ in rows}.values())
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as handle:
        for problem in problems:
            handle.write(json.dumps({key: problem[key] for key in ("unique_id", "problem", "answer", "subject",
                                                                    "level")}) + "\n")
    with open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as handle:
        for start in range(0, len(rows), samples):
            handle.write(json.dumps({"unique_id": rows[start][0]["unique_id"],
                                     "samples": [reply for _, reply in rows[start:start + samples]]}) + "\n")


def whole_run(rows: list[tuple[dict, str]], samples: int, repeat: int) -> None:
    """`evalpipe run` in a fresh process over the rows as a dataset, `repeat` times on fresh outputs, against
    math-verify row by row in a fresh process too (its imports counted, as the run's are)."""
    import subprocess
    import tempfile

    import pyarrow.parquet as pq

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_qa_pipeline import run_pipeline, stage_seconds

    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs"
        write_math_dataset(inputs / "math500", rows, samples)
        runs = []
        for attempt in range(repeat):
            outputs = Path(tmp) / f"outputs{attempt}"
            wall, peak = run_pipeline(inputs, outputs)
            runs.append((wall, peak, stage_seconds(outputs)))
        matched = pq.read_table(next((Path(tmp) / "outputs0" / "math500" / "model").glob("B4_*.parquet")))
        ours = dict(zip(zip(matched.column("id").to_pylist(), matched.column("sample").to_pylist()),
                        matched.column("correct").to_pylist()))
        reference = subprocess.run([sys.executable, __file__, "--reference-only", "--samples", str(samples),
                                    "--seed", str(SEED[0]), "--data", str(DATA_USED[0])],
                                   capture_output=True, text=True, check=True).stdout.splitlines()
    their_seconds, verdicts = float(reference[0]), json.loads(reference[1])
    theirs = {(problem["unique_id"], i % samples): verdict for i, ((problem, _), verdict) in enumerate(zip(rows,
                                                                                                          verdicts))}
    differ = [key for key in theirs if ours.get(key) is not theirs[key]]
    wall, peak, stages = min(runs, key=lambda found: found[0])
    print(f"{len(rows):,} rows ({len(rows) // samples} problems × {samples} replies), {sum(verdicts):,} right by "
          f"math-verify")
    print("| scorer | seconds | rows/s | peak RSS MiB |\n|---|---|---|---|")
    print(f"| evalpipe run, math kind, whole (fresh process: start-up, B1–B6, report) | {wall:.2f} | "
          f"{len(rows) / wall:,.0f} | {peak:,.0f} |")
    print(f"| math-verify parse + verify row by row (fresh process, import included) | {their_seconds:.2f} | "
          f"{len(rows) / their_seconds:,.0f} | – |")
    print("walls: " + ", ".join(f"{found[0]:.2f}" for found in runs) + "; stages of the fastest: "
          + ", ".join(f"{stage} {seconds:.2f}" for stage, seconds in sorted(stages.items()))
          + f" (sum {sum(stages.values()):.2f})")
    print(f"speed-up {their_seconds / wall:.2f}× (target ≥ 5×); verdicts differing: {len(differ)}"
          + (f" (first {differ[:5]})" if differ else ""))
    sys.exit(1 if differ else 0)


SEED, DATA_USED = [0], [DATA]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=None, help="replies per problem (64; 32 with --whole-run)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--whole-run", action="store_true", help="time `evalpipe run` end to end (see above)")
    parser.add_argument("--repeat", type=int, default=2, help="whole runs, the fastest kept")
    parser.add_argument("--reference-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    samples = args.samples or (32 if args.whole_run else 64)
    problems = [json.loads(line) for line in args.data.read_text().splitlines()]
    rows = replies(problems, samples, args.seed)
    if args.reference_only:
        started = time.perf_counter()
        import math_verify  # noqa: F401  (its import is part of what a user of it waits for)

        imported = time.perf_counter() - started
        found, seconds = scored_row_by_row(rows)
        print(f"{imported + seconds:.3f}\n{json.dumps(found)}")
        return
    if args.whole_run:
        SEED[0], DATA_USED[0] = args.seed, args.data
        whole_run(rows, samples, args.repeat)
        return
    args.samples = samples
    ours, our_seconds = scored_by_kind(rows, args.samples)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    checker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    theirs, their_seconds = scored_row_by_row(rows)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a is not b]
    distinct = len({(p["answer"], reply.split("</think>")[-1][-200:]) for p, reply in rows})
    print(f"{len(rows):,} rows ({len(problems)} problems × {args.samples} replies), {sum(theirs):,} right by "
          f"math-verify; distinct reply endings {distinct:,}")
    print(f"{'scorer':<34}{'seconds':>9}{'rows/s':>10}{'peak MiB':>10}")
    print(f"{'math kind B3–B5':<34}{our_seconds:>9.2f}{len(rows) / our_seconds:>10,.0f}{peak:>10.0f}"
          f"   (+ a checker process: {checker_peak:.0f} MiB)")
    print(f"{'math-verify row by row':<34}{their_seconds:>9.2f}{len(rows) / their_seconds:>10,.0f}")
    print(f"speed-up {their_seconds / our_seconds:.1f}×; verdicts differing: {len(differ)}"
          + (f" (first rows {differ[:5]})" if differ else ""))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
