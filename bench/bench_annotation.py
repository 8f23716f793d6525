"""Annotation scoring: N synthetic document pairs of E events each, in process and through the B1–B6 pipeline.

Usage: python bench/bench_annotation.py [--documents 10000] [--events 20] [--skip-pipeline]
Target (issue #5): 10k pairs of 20 events scored within 60 s on 2 cores. The reference beside Boundary Similarity
is segeval (the published implementation, installed with the test extra) on the same segmentations.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import evaluate_annotation  # noqa: E402
from stages.kinds.annotation.text_span import sentence_masses, text_to_sentence_indices  # noqa: E402

NAMES = ["牛郎", "织女", "王母", "老牛", "Peppa", "George", "Hare", "Tortoise"]
LEVELS = [("Social", "friend"), ("Social", "mentor"), ("Conflict", "enemy"), ("Family & Kinship", "spouse")]
SENTIMENTS = ["love", "trust", "anger", "fear", "gratitude"]
CATEGORIES = [("Physical & Conflict", "attack"), ("Social & Communication", "advise"), ("Movement", "travel")]


def make_pair(rng: random.Random, events: int) -> tuple[dict, dict]:
    """A story of 2 sentences per event, a gold document, and a prediction with about 20% of labels changed."""
    sentences = [f"{rng.choice(NAMES)}在第{i}天做了一件事。" for i in range(2 * events)]
    text = "".join(sentences)
    offsets = [0]
    for sentence in sentences:
        offsets.append(offsets[-1] + len(sentence))
    characters = [{"name": n, "alias": [n.lower()], "archetype": rng.choice(["hero", "villain"])} for n in NAMES]
    gold_events = []
    for i in range(events):
        level1, level2 = rng.choice(LEVELS)
        category, action = rng.choice(CATEGORIES)
        gold_events.append({
            "id": f"e{i}", "text_span": {"start": offsets[2 * i], "end": offsets[2 * i + 2]},
            "relationships": [{"agent": rng.choice(NAMES), "target": rng.choice(NAMES), "relationship_level1": level1,
                               "relationship_level2": level2, "sentiment": rng.choice(SENTIMENTS)}
                              for _ in range(2)],
            "action_layer": {"category": category, "type": action, "context": "duel", "status": "success",
                             "function": "trigger"},
        })
    gold = {"source_info": {"text_content": text}, "characters": characters, "narrative_events": gold_events}
    prediction = json.loads(json.dumps(gold))
    del prediction["source_info"]
    for event in prediction["narrative_events"]:
        if rng.random() < 0.3:
            event["id"] = f"p{event['id']}"  # aligned by span instead
        if rng.random() < 0.2:
            event["text_span"]["end"] = offsets[min(len(offsets) - 1, offsets.index(event["text_span"]["end"]) + 1)]
        if rng.random() < 0.2:
            event["relationships"][0]["sentiment"] = rng.choice(SENTIMENTS)
        if rng.random() < 0.2:
            event["action_layer"]["type"] = "other"
    prediction["characters"] = prediction["characters"][: rng.randint(5, 8)]
    return prediction, gold


def segeval_reference(pairs: list[tuple[dict, dict]]) -> tuple[float, list[float]]:
    """Boundary Similarity of the same sentence segmentations computed by segeval."""
    import segeval

    started = time.perf_counter()
    scores = []
    for prediction, gold in pairs:
        text = gold["source_info"]["text_content"]
        sentences = text_to_sentence_indices(text)
        spans = [[(e["text_span"]["start"], e["text_span"]["end"]) for e in doc["narrative_events"]]
                 for doc in (prediction, gold)]
        masses = [sentence_masses(s, sentences) for s in spans]
        scores.append(float(segeval.boundary_similarity(masses[0], masses[1], n_t=2)))
    return time.perf_counter() - started, scores


def run_pipeline(pairs: list[tuple[dict, dict]]) -> float:
    from pipeline.cli import main

    with tempfile.TemporaryDirectory() as folder:
        dataset = Path(folder) / "inputs" / "stories"
        for sub in ("ground_truth", "predictions/bench"):
            (dataset / sub).mkdir(parents=True)
        for index, (prediction, gold) in enumerate(pairs):
            (dataset / "ground_truth" / f"d{index}.json").write_text(json.dumps(gold, ensure_ascii=False))
            (dataset / "predictions/bench" / f"d{index}.json").write_text(json.dumps(prediction, ensure_ascii=False))
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["run", "--inputs", str(Path(folder) / "inputs"), "--outputs", str(Path(folder) / "outputs")])
        elapsed = time.perf_counter() - started
        if code != 0:
            raise SystemExit(f"pipeline failed with exit code {code}")
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--skip-pipeline", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    pairs = [make_pair(rng, args.events) for _ in range(args.documents)]

    started = time.perf_counter()
    results = [evaluate_annotation(prediction, gold) for prediction, gold in pairs]
    evaluate_seconds = time.perf_counter() - started
    reference_seconds, reference_scores = segeval_reference(pairs)
    ours = [r["component_scores"]["text_span"] for r in results]
    agree = sum(abs(a - b) < 1e-9 for a, b in zip(ours, reference_scores))
    pipeline_seconds = None if args.skip_pipeline else run_pipeline(pairs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024

    n, e = args.documents, args.events
    print(f"{n:,} document pairs × {e} events ({n * e:,} events), 2 cores")
    print(f"{'what':<44}{'seconds':>10}{'docs/s':>12}")
    print(f"{'evaluate_annotation (all components)':<44}{evaluate_seconds:>10.1f}{n / evaluate_seconds:>12,.0f}")
    if pipeline_seconds is not None:
        print(f"{'pipeline B1–B6 from files':<44}{pipeline_seconds:>10.1f}{n / pipeline_seconds:>12,.0f}")
    print(f"{'segeval Boundary Similarity only (reference)':<44}{reference_seconds:>10.1f}"
          f"{n / reference_seconds:>12,.0f}")
    print(f"boundary_score equal to segeval's: {agree:,} / {n:,}; peak memory {peak:.2f} GiB")


if __name__ == "__main__":
    main()
