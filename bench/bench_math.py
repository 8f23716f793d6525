"""The math kind measured: MATH-500's 500 problems × 64 replies each (32,000 rows) scored by the math kind's B3–B5,
as several replies per item (wrong answers grouped by equivalence, maj@k), against math-verify's parse + verify called row by row in the same process — same verdict on every row required.

Usage: python bench/bench_math.py [--samples 64] [--seed 0] [--data ../shared/data/real/math/math500.jsonl]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    problems = [json.loads(line) for line in args.data.read_text().splitlines()]
    rows = replies(problems, args.samples, args.seed)
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
