"""Generate a large QA dataset (questions + one model's predictions) from SQuAD dev and BERT's predictions."""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real" / "squad"


def squad_rows() -> list[tuple[str, str, list[str], str]]:
    """(id, question, gold answers, BERT prediction) for every SQuAD v1.1 dev question."""
    dev = json.loads((REAL / "dev-v1.1.json").read_text(encoding="utf-8"))
    predictions = json.loads((REAL / "bert-predictions.json").read_text(encoding="utf-8"))
    return [
        (qa["id"], qa["question"], [a["text"] for a in qa["answers"]], predictions.get(qa["id"], ""))
        for article in dev["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]
    ]


def write_qa(folder: Path, rows: int, seed: int,
             prediction: Callable[[random.Random, str, str, list[str], list], dict | None]) -> Path:
    """inputs/<folder>/questions.jsonl with `rows` SQuAD dev questions (repeated with new ids past the dev set) and
    predictions/model.jsonl with what `prediction(rng, id, BERT's answer, golds, every dev row)` gives each (None:
    no prediction)."""
    rng = random.Random(seed)
    base = squad_rows()
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as predictions:
        for i in range(rows):
            qid, question, golds, answer = base[i % len(base)]
            row_id = f"{qid}-{i // len(base)}"
            questions.write(json.dumps({"id": row_id, "question": question, "answers": golds}) + "\n")
            record = prediction(rng, row_id, answer, golds, base)
            if record is not None:
                predictions.write(json.dumps(record) + "\n")
    return folder


def write_dataset(folder: Path, rows: int, seed: int = 0) -> Path:
    """inputs/<folder>/questions.jsonl and predictions/model.jsonl with `rows` rows; ~1 in 50 predictions missing."""
    return write_qa(folder, rows, seed, _one_reply)


def _one_reply(rng: random.Random, row_id: str, answer: str, golds: list[str], base: list) -> dict | None:
    """BERT's answer, missing for ~1 in 50 rows and perturbed for ~1 in 5 (so reruns of the base rows differ)."""
    if rng.random() < 0.02:
        return None
    if rng.random() < 0.2:
        answer = f"the {answer} {rng.choice(golds)}"
    return {"id": row_id, "prediction": answer}
