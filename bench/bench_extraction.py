"""Choice extraction and numeric comparison on N replies, beside straightforward reference implementations.

Usage: python bench/bench_extraction.py [--replies 1000000] [--cmmlu ../shared/data/real/cmmlu/test]
The references are what a script would do first: the first capital A–D in the reply (choices), and the first
float found by a regex compared with SequenceMatcher (numbers, seed 004's original approach). The CMMLU table answers
every real CMMLU test question in ten reply styles and counts right / wrong letters / unparsed per style.
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from stages import compare_numeric, extract_choice  # noqa: E402
from tests.stages.kinds.multiple_choice.cmmlu_replies import REPLY_STYLES, cmmlu_questions  # noqa: E402

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
    parser.add_argument("--cmmlu", type=Path, default=REPO.parent / "shared" / "data" / "real" / "cmmlu" / "test")
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
    if args.cmmlu.is_dir():
        cmmlu_table(args.cmmlu)


def cmmlu_table(folder: Path) -> None:
    """Every CMMLU test question answered in each reply style: right, wrong letter and unparsed shares, both readers."""
    questions = list(cmmlu_questions(folder))
    print(f"\nCMMLU test, {len(questions):,} questions per style\n")
    print("| reply style | extract_choice right | wrong letter | unparsed | first capital A–D right | wrong letter |")
    print("|---|---|---|---|---|---|")
    totals = {"ours": [0, 0], "reference": [0, 0]}
    started = time.perf_counter()
    for style, reply_of in REPLY_STYLES.items():
        ours, reference = [0, 0, 0], [0, 0]
        for _, options, gold in questions:
            reply = reply_of(gold, options)
            letter = extract_choice(reply, options).letter
            ours[0 if letter == gold else 2 if letter is None else 1] += 1
            first = reference_choice(reply)
            reference[0] += first == gold
            reference[1] += first is not None and first != gold
        for name, counts in (("ours", ours), ("reference", reference)):
            totals[name][0] += counts[0]
            totals[name][1] += counts[1]
        n = len(questions)
        print(f"| {style} | {ours[0] / n:.2%} | {ours[1] / n:.2%} | {ours[2] / n:.2%} | {reference[0] / n:.2%} | "
              f"{reference[1] / n:.2%} |")
    n = len(questions) * len(REPLY_STYLES)
    print(f"| all ten | {totals['ours'][0] / n:.3%} | {totals['ours'][1] / n:.3%} | | "
          f"{totals['reference'][0] / n:.2%} | {totals['reference'][1] / n:.2%} |")
    print(f"\n{n:,} replies in {time.perf_counter() - started:.1f} s (both readers)")


if __name__ == "__main__":
    main()
