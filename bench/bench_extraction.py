"""Choice extraction and numeric comparison on N replies, beside straightforward reference implementations.

Usage: python bench/bench_extraction.py [--replies 1000000]
The references are what a script would do first: the first capital A–D in the reply (choices), and the first
float found by a regex compared with SequenceMatcher (numbers, seed 004's original approach).
"""
from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import compare_numeric, extract_choice  # noqa: E402

OPTIONS = {"A": "London", "B": "Paris", "C": "Berlin", "D": "Rome"}
CHOICE_FORMATS = [
    ("{g}", "{g}"), ("The answer is {g}.", "{g}"), ("Answer: **{g}**", "{g}"), ("答案：{g}", "{g}"),
    ("故选{g}", "{g}"), ("({l}) {t}", "{g}"), ("{t}", "{g}"), ("{w}和{x}都不对，只有选项{g}是对的", "{g}"),
    ("Let's think step by step. {t} is right, so {g}.", "{g}"), ("答案是{g}或{w}", None), ("I am not sure.", None),
]
NUMERIC_PAIRS = [  # (golden, prediction, is the prediction right)
    ("1,234,567", "Revenue was 1,234,567 dollars.", True), ("净利润为1,234.5万元", "净利润是12,345,000元", True),
    ("12.5%", "0.125", True), ("1.2亿", "约1.2亿元", True), ("三百", "300", True), ("1234569", "1234561", False),
    ("−5", "-5", True), ("3.4k", "about 3,400", True), ("15%", "15", False),
]


def reference_choice(reply: str) -> str | None:
    match = re.search(r"[ABCD]", reply)
    return match.group(0) if match else None


def reference_numeric(golden: str, prediction: str) -> bool:
    numbers = [re.search(r"-?\d+(?:\.\d+)?", text) for text in (golden, prediction)]
    if all(numbers):
        return abs(float(numbers[0].group(0)) - float(numbers[1].group(0))) <= 0.01
    return SequenceMatcher(None, golden, prediction).ratio() > 0.8


def make_choice_replies(n: int, rng: random.Random) -> list[tuple[str, str, str | None]]:
    replies = []
    for _ in range(n):
        gold, wrong, other = rng.sample("ABCD", 3)
        template, expected = rng.choice(CHOICE_FORMATS)
        reply = template.format(g=gold, l=gold.lower(), t=OPTIONS[gold], w=wrong, x=other)
        replies.append((reply, gold, expected.format(g=gold) if expected else None))
    return replies


def timed(function, items):
    started = time.perf_counter()
    results = [function(*item) for item in items]
    return time.perf_counter() - started, results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", type=int, default=1_000_000)
    args = parser.parse_args()
    rng = random.Random(0)
    replies = make_choice_replies(args.replies, rng)
    ours_s, ours = timed(lambda reply, gold, expected: extract_choice(reply, OPTIONS).letter, replies)
    ref_s, ref = timed(lambda reply, gold, expected: reference_choice(reply), replies)

    def rates(letters):
        right = sum(letter == expected for letter, (_, _, expected) in zip(letters, replies))
        wrong_guess = sum(letter is not None and letter != expected for letter, (_, _, expected) in zip(letters, replies))
        return right / len(replies), wrong_guess / len(replies)

    numeric = [rng.choice(NUMERIC_PAIRS) for _ in range(args.replies)]
    num_s, num = timed(lambda g, p, right: compare_numeric(g, p)["label"] == "correct", numeric)
    num_ref_s, num_ref = timed(lambda g, p, right: reference_numeric(g, p), numeric)

    def numeric_rates(verdicts):
        intended = sum(v == right for v, (_, _, right) in zip(verdicts, numeric)) / len(numeric)
        return intended, sum(v and not right for v, (_, _, right) in zip(verdicts, numeric)) / len(numeric)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    (ours_right, ours_wrong), (ref_right, ref_wrong) = rates(ours), rates(ref)
    print(f"replies: {args.replies:,}; peak RSS {peak:,.0f} MiB\n")
    print("| task | implementation | seconds | replies/s | as intended | wrong accept |\n|---|---|---|---|---|---|")
    print(f"| choice | extract_choice | {ours_s:.1f} | {args.replies / ours_s:,.0f} | {ours_right:.1%} | {ours_wrong:.1%} |")
    print(f"| choice | first capital A–D | {ref_s:.1f} | {args.replies / ref_s:,.0f} | {ref_right:.1%} | {ref_wrong:.1%} |")
    (num_right, num_wrong), (nref_right, nref_wrong) = numeric_rates(num), numeric_rates(num_ref)
    print(f"| numeric | compare_numeric | {num_s:.1f} | {args.replies / num_s:,.0f} | {num_right:.1%} | {num_wrong:.1%} |")
    print(f"| numeric | first float + SequenceMatcher | {num_ref_s:.1f} | {args.replies / num_ref_s:,.0f} | "
          f"{nref_right:.1%} | {nref_wrong:.1%} |")
    print(f"\nratio (ours / reference time): choice {ours_s / ref_s:.1f}×, numeric {num_s / num_ref_s:.1f}×")


if __name__ == "__main__":
    main()
