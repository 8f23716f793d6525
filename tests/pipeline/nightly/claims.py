"""The nightly tests' two datasets — 200 claims to verify and 40 capitals questions — and what a night does with
them: model m's predictions written with the first few items wrong, `evalpipe nightly` run, the history read."""
from __future__ import annotations

import pyarrow.parquet as pq

from pipeline.cli import main
from tests.pipeline.workspace import write_jsonl

CLAIMS, QUESTIONS = 200, 40
VERDICTS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
ANSWERS = {"SUPPORTS": "true", "REFUTES": "false", "NOT ENOUGH INFO": "not enough information"}
WRONG = {"SUPPORTS": "false", "REFUTES": "true", "NOT ENOUGH INFO": "true"}


def gold(i):
    return VERDICTS[i % 3]


def predict(inputs, wrong_claims=0, wrong_questions=0):
    """Tonight's predictions of model `m`: everything right except the first few items of each dataset."""
    write_jsonl(inputs / "claims" / "predictions" / "m.jsonl", [
        {"id": i, "prediction": (WRONG if i < wrong_claims else ANSWERS)[gold(i)]} for i in range(CLAIMS)])
    write_jsonl(inputs / "capitals" / "predictions" / "m.jsonl", [
        {"id": f"q{i}", "prediction": "no idea" if i < wrong_questions else f"answer number {i}"}
        for i in range(QUESTIONS)])


def nightly(inputs, night, capsys):
    code = main(["nightly", "--date", night, "--inputs", str(inputs), "--outputs", str(inputs.parent / "outputs")])
    return code, capsys.readouterr().out


def history(inputs):
    return pq.read_table(inputs.parent / "outputs" / "nightly" / "history.parquet").to_pylist()
