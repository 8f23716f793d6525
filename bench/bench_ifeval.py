"""The ifeval kind measured: IFEval's 541 prompts × 200 replies (108,200 rows: GPT-4's published responses repeated and
varied) scored by the kind's B3–B5 against the official checkers run row by row in the same process (lm-eval's copy
of Google's instructions.py: test_instruction_following_strict and _loose, as the official evaluation runs them) —
the same verdicts required, but on the two prompts whose official letter check is random (keys 1122, 1129).

Usage: python bench/bench_ifeval.py [--samples 200] [--seed 0] [--distinct]
Needs lm-eval in the same environment (`pip install -e '.[ifeval-bench]'`, best in a venv of its own). NLTK's Punkt
English model is not shipped by any package and cannot be downloaded here: both sides count sentences with NLTK's
untrained Punkt (lm-eval's loader is pointed at it). With --distinct every reply is made unique (a number appended),
so nothing repeats.

Each prompt's replies are its published response in one of eight variants drawn per reply (as is, without commas,
with a first line "Sure!", wrapped in double quotes, and their combinations), as a model's samples repeat.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import get_kind  # noqa: E402
from stages.io.fields import prompt_key  # noqa: E402
from stages.kinds.ifeval.text_units import _sentence_tokenizer  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real" / "ifeval"
RANDOM_KEYS = {1122, 1129}


def variant(response: str, which: int) -> str:
    """One of eight variants of a response: bit 0 drops commas, bit 1 puts "Sure!" on a first line, bit 2 quotes it."""
    if which & 1:
        response = response.replace(",", "")
    if which & 2:
        response = "Sure!\n" + response
    if which & 4:
        response = f'"{response}"'
    return response


def rows(questions: list[dict], published: dict[str, str], samples: int, seed: int, distinct: bool) -> list[tuple]:
    rng = random.Random(seed)
    return [(question, variant(published[question["prompt"]], rng.randrange(8)) + (f" {i}" if distinct else ""))
            for question in questions for i in range(samples)]


def scored_by_kind(rows: list[tuple]) -> tuple[list[tuple[list, list]], float]:
    kind = get_kind("ifeval")
    started = time.perf_counter()
    fields = [kind.question_fields(question, question["prompt"]) for question, _ in rows]
    joined = {"id": [str(question["key"]) for question, _ in rows], "prediction": [reply for _, reply in rows],
              "instructions": [f["instructions"] for f in fields], "kwargs": [f["kwargs"] for f in fields]}
    normalized, _ = kind.normalize(joined, {})
    matched, _ = kind.match(normalized, {})
    kind.score(matched, {})
    return list(zip(matched["strict"], matched["loose"])), time.perf_counter() - started


def scored_officially(rows: list[tuple]) -> tuple[list[tuple[list, list]], float]:
    """lm-eval's copy of the official checkers, strict then loose, row by row."""
    import nltk
    import nltk.data
    import nltk.tokenize

    find = nltk.data.find
    nltk.download = lambda *args, **kwargs: True
    nltk.data.find = lambda resource, *a, **k: resource if "punkt" in str(resource) else find(resource, *a, **k)
    nltk.tokenize.sent_tokenize = lambda text, language="english": _sentence_tokenizer().tokenize(text)
    from lm_eval.tasks.ifeval import instructions_util, utils

    instructions_util._get_sentence_tokenizer = _sentence_tokenizer
    started = time.perf_counter()
    found = []
    for question, reply in rows:
        example = utils.InputExample(key=question["key"], instruction_id_list=question["instruction_id_list"],
                                     prompt=question["prompt"], kwargs=question["kwargs"])
        strict = utils.test_instruction_following_strict(example, reply)
        loose = utils.test_instruction_following_loose(example, reply)
        found.append((strict.follow_instruction_list, loose.follow_instruction_list))
    return found, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--distinct", action="store_true")
    args = parser.parse_args()
    questions = [json.loads(line) for line in (DATA / "input_data.jsonl").read_text(encoding="utf-8").splitlines()]
    published = {row["prompt"]: row["response"] for row in map(json.loads, (
        DATA / "input_response_data_gpt4_20231107_145030.jsonl").read_text(encoding="utf-8").splitlines())}
    assert all(prompt_key(q["prompt"]) for q in questions)
    table = rows(questions, published, args.samples, args.seed, args.distinct)
    ours, our_seconds = scored_by_kind(table)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    theirs, their_seconds = scored_officially(table)
    differ = [i for i, ((question, _), a, b) in enumerate(zip(table, ours, theirs))
              if question["key"] not in RANDOM_KEYS and (list(a[0]), list(a[1])) != (list(b[0]), list(b[1]))]
    print(f"{len(table):,} rows ({len(questions)} prompts × {args.samples} replies"
          f"{', every reply distinct' if args.distinct else ''}), "
          f"{sum(all(s) for s, _ in ours):,} followed strictly at prompt level")
    print(f"{'scorer':<44}{'seconds':>9}{'rows/s':>10}{'peak MiB':>10}")
    print(f"{'ifeval kind B3–B5 (strict and loose)':<44}{our_seconds:>9.2f}{len(table) / our_seconds:>10,.0f}"
          f"{peak:>10.0f}")
    print(f"{'official checkers row by row (lm-eval copy)':<44}{their_seconds:>9.2f}"
          f"{len(table) / their_seconds:>10,.0f}")
    print(f"speed-up {their_seconds / our_seconds:.1f}× (target ≥ 2×); rows differing (keys 1122 and 1129 aside): "
          f"{len(differ)}" + (f" (first {differ[:5]})" if differ else ""))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
