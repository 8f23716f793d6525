"""Multiple choice end to end on every CMMLU test question, with replies written in known formats."""
import csv
import json

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns

LETTERS = "ABCD"


def _reply(index: int, row: dict) -> tuple[str, str | None]:
    """A reply in one of eight formats, and the letter a trustworthy extractor must read from it (None: abstain)."""
    gold = row["Answer"].strip()
    wrong = LETTERS[(LETTERS.index(gold) + 1) % 4]
    formats = [
        (gold, gold),
        (f"答案是{gold}", gold),
        (f"{gold}、{row[gold]}", gold),
        (f"经过分析，{wrong}项不对。故选{gold}", gold),
        (f"答案：{chr(ord(gold) + 0xFEE0)}", gold),  # full-width letter
        (f"故选{wrong}", wrong),
        (f"答案是{gold}或{wrong}", None),  # two letters offered: ambiguous
        ("I cannot answer this question.", None),
    ]
    return formats[index % len(formats)]


def test_cmmlu_replies_are_extracted_as_constructed(tmp_path, real_data):
    folder = tmp_path / "inputs" / "cmmlu"
    (folder / "predictions").mkdir(parents=True)
    expected_letters, golds = {}, {}
    with open(folder / "questions.jsonl", "w", encoding="utf-8") as questions, \
            open(folder / "predictions" / "model.jsonl", "w", encoding="utf-8") as predictions:
        index = 0
        for path in sorted((real_data / "cmmlu" / "test").glob("*.csv")):
            with open(path, encoding="utf-8") as handle:
                for row in csv.DictReader(handle):
                    row_id = f"{path.stem}-{row['']}"
                    record = {"id": row_id, **{k: row[k] for k in ("Question", "A", "B", "C", "D", "Answer")}}
                    questions.write(json.dumps(record, ensure_ascii=False) + "\n")
                    reply, expected_letters[row_id] = _reply(index, row)
                    golds[row_id] = row["Answer"].strip()
                    predictions.write(json.dumps({"id": row_id, "response": reply}, ensure_ascii=False) + "\n")
                    index += 1
    (folder / "dataset.toml").write_text('question_field = "Question"\ngold_field = "Answer"\n')
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0

    total = len(golds)
    assert total == 11582
    b4 = read_artifact_json(tmp_path / "outputs/cmmlu/model/B4_matches.json")
    assert b4["header"]["kind"] == "multiple_choice"  # detected from the A/B/C/D columns
    rows = read_columns(tmp_path / "outputs/cmmlu/model/B4_matches.json")
    extracted = dict(zip(rows["id"], rows["letter"]))
    mismatches = [(i, expected_letters[i], extracted[i]) for i in golds if extracted[i] != expected_letters[i]]
    assert mismatches == []
    metrics = read_artifact_json(tmp_path / "outputs/cmmlu/model/B5_component_scores.json")["metrics"]
    expected_correct = sum(expected_letters[i] == golds[i] for i in golds)
    assert metrics["accuracy"] == pytest.approx(expected_correct / total)
    assert metrics["extraction_rate"] == pytest.approx(sum(v is not None for v in expected_letters.values()) / total)
