import hashlib
import json
from pathlib import Path

import pytest

from pipeline.cli import main


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture
def workspace(tmp_path):
    """inputs/ with one QA dataset (two models) and one fact-verification dataset; outputs/ empty."""
    inputs = tmp_path / "inputs"
    qa = inputs / "qa_small"
    write_jsonl(qa / "questions.jsonl", [
        {"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
        {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]},
        {"id": "3", "question": "首都？", "answers": ["北京"]},
        {"id": "4", "question": "Author?", "answers": ["Jane Austen"]},
    ])
    write_jsonl(qa / "predictions" / "alpha.jsonl", [
        {"id": "1", "prediction": "Paris"}, {"id": "2", "prediction": "Saturn"},
        {"id": "3", "prediction": "北京。"}, {"id": "4", "prediction": "Austen"},
    ])
    write_jsonl(qa / "predictions" / "beta.jsonl", [
        {"id": "1", "prediction": "paris"}, {"id": "2", "prediction": "Jupiter"}, {"id": "9", "prediction": "x"},
    ])
    fv = inputs / "claims"
    write_jsonl(fv / "questions.jsonl", [
        {"id": i, "claim": c, "label": l} for i, (c, l) in enumerate(
            [("a", "SUPPORTS"), ("b", "REFUTES"), ("c", "NOT ENOUGH INFO"), ("d", "SUPPORTS")], start=1)
    ])
    write_jsonl(fv / "predictions" / "alpha.jsonl", [
        {"id": 1, "prediction": "成立"}, {"id": 2, "prediction": "不成立"}, {"id": 3, "prediction": "maybe?"},
        {"id": 4, "prediction": "The claim is true."},
    ])
    (fv / "dataset.toml").write_text('kind = "fact_verification"\n')
    return tmp_path


def run(workspace: Path, *args: str) -> int:
    return main(["run", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs"), *args])


def snapshot(outputs: Path) -> dict[str, tuple[int, str]]:
    """Every file under outputs with its mtime and content hash."""
    return {
        str(p.relative_to(outputs)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(outputs.rglob("*")) if p.is_file()
    }


def changed(before: dict, after: dict) -> set[str]:
    return {name for name in after if before.get(name) != after[name]} | (set(before) - set(after))
