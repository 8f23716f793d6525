"""Large fact-verification and multiple-choice datasets built from the real FEVER and CMMLU files, for benchmarks."""
from __future__ import annotations

import csv
import json
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real"
LETTERS = "ABCD"


def write_fever_dataset(folder: Path, rows: int) -> Path:
    """FEVER gold rows and a system's predictions (label and evidence), repeated to `rows` lines, paired by line."""
    gold = (REAL / "fever" / "actual.jsonl").read_text(encoding="utf-8").splitlines()
    predicted = (REAL / "fever" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    (folder / "dataset.toml").write_text('kind = "fact_verification"\nid_field = "@line"\n', encoding="utf-8")
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "system.jsonl", "w", encoding="utf-8") as predictions:
        for i in range(rows):
            questions.write(gold[i % len(gold)] + "\n")
            predictions.write(predicted[i % len(predicted)] + "\n")
    return folder


def _reply(index: int, row: dict) -> str:
    """A reply in one of the formats models write: a bare letter, a sentence, the option text, a refusal."""
    gold = row["Answer"].strip()
    wrong = LETTERS[(LETTERS.index(gold) + 1) % 4]
    formats = [gold, f"答案是{gold}", f"{gold}、{row[gold]}", f"经过分析，{wrong}项不对。故选{gold}", f"故选{wrong}",
               f"答案是{gold}或{wrong}", row[wrong], "I cannot answer this question."]
    return formats[index % len(formats)]


def write_cmmlu_dataset(folder: Path, rows: int) -> Path:
    """CMMLU questions (options A–D) with replies in mixed formats, repeated to `rows` rows with distinct ids."""
    base = []
    for path in sorted((REAL / "cmmlu" / "test").glob("*.csv")):
        with open(path, encoding="utf-8") as handle:
            base += [{"id": f"{path.stem}-{row['']}", **{k: row[k] for k in ("Question", "A", "B", "C", "D", "Answer")}}
                     for row in csv.DictReader(handle)]
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    (folder / "dataset.toml").write_text('kind = "multiple_choice"\nquestion_field = "Question"\n'
                                         'gold_field = "Answer"\n', encoding="utf-8")
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as predictions:
        for i in range(rows):
            row = base[i % len(base)]
            row_id = f"{row['id']}-{i // len(base)}"
            questions.write(json.dumps({**row, "id": row_id}, ensure_ascii=False) + "\n")
            predictions.write(json.dumps({"id": row_id, "response": _reply(i, row)}, ensure_ascii=False) + "\n")
    return folder
