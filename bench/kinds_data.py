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


def _distinct_reply(index: int, options: list[str], gold: str) -> str:
    """A reply as models write them to a question of their own: a letter, a statement, the option's text, prose."""
    wrong = LETTERS[(LETTERS.index(gold) + 1) % 4]
    text = options[LETTERS.index(gold)]
    formats = [gold, f"答案是{gold}", f"答案：{gold}", text, f"{gold}. {text}",
               f"经过分析，{wrong}项不对，{text}符合题意。故选{gold}", f"The answer is {gold}.",
               f"I think {options[LETTERS.index(wrong)]} is the most likely answer, so {wrong}.",
               f"答案是{gold}或{wrong}", "I cannot answer this question."]
    return formats[index % len(formats)]


def write_distinct_cmmlu_dataset(folder: Path, rows: int) -> Path:
    """`rows` distinct questions (the MMLU / CMMLU case: no question twice): each row's four options drawn from four
    different CMMLU questions and its question numbered, replies in ten formats (letters, statements, option texts,
    prose, two letters, a refusal)."""
    base = []
    for path in sorted((REAL / "cmmlu" / "test").glob("*.csv")):
        with open(path, encoding="utf-8") as handle:
            base += [row for row in csv.DictReader(handle)]
    (folder / "predictions").mkdir(parents=True, exist_ok=True)
    (folder / "dataset.toml").write_text('kind = "multiple_choice"\nquestion_field = "Question"\n'
                                         'gold_field = "Answer"\n', encoding="utf-8")
    n = len(base)
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as predictions:
        for i in range(rows):
            picks = [base[(i + k * 7919 + (i // n) * 104729 * (k + 1)) % n] for k in range(4)]
            options = [pick[letter] for pick, letter in zip(picks, LETTERS)]
            gold = LETTERS[(i * 31 + i // 7) % 4]
            row = {"id": f"q{i}", "Question": f"{i}. {picks[0]['Question']}", **dict(zip(LETTERS, options)),
                   "Answer": gold}
            questions.write(json.dumps(row, ensure_ascii=False) + "\n")
            predictions.write(json.dumps({"id": row["id"], "response": _distinct_reply(i, options, gold)},
                                         ensure_ascii=False) + "\n")
    return folder
