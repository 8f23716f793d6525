"""Generate a large QA dataset (questions + one model's predictions) from SQuAD dev and BERT's predictions."""
from __future__ import annotations

import json
import random
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


def write_dataset(folder: Path, rows: int, seed: int = 0) -> Path:
    """inputs/<folder>/questions.jsonl and predictions/model.jsonl with `rows` rows; ~1 in 50 predictions missing."""
    rng = random.Random(seed)
    base = squad_rows()
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as predictions:
        for i in range(rows):
            qid, question, golds, prediction = base[i % len(base)]
            row_id = f"{qid}-{i // len(base)}"
            questions.write(json.dumps({"id": row_id, "question": question, "answers": golds}) + "\n")
            if rng.random() < 0.02:
                continue
            if rng.random() < 0.2:  # perturb some answers so reruns of the base rows do not all agree
                prediction = f"the {prediction} {rng.choice(golds)}"
            predictions.write(json.dumps({"id": row_id, "prediction": prediction}) + "\n")
    return folder
