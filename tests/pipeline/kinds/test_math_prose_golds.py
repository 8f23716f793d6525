"""A math gold written as prose: its answer found by the cues a reply's is found by, a word answer compared as text,
and a gold with none (a number in words) set aside in B1 with its line and reason — never read as a product of
letters."""
import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import run, write_jsonl

pytest.importorskip("math_verify")


def test_a_prose_gold_is_read_by_its_cue_and_one_without_an_answer_is_set_aside(tmp_path):
    folder = tmp_path / "inputs" / "prose"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "2 + 3?", "answer": "The answer is 5."},
                                             {"id": "2", "question": "4 + 1?", "answer": "five"},
                                             {"id": "3", "question": "Half?", "answer": "\\frac{1}{2}"},
                                             {"id": "4", "question": "Who is fastest?", "answer": "Evelyn"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "1", "prediction": "So $\\boxed{5}$."},
                                                     {"id": "2", "prediction": "\\boxed{5}"},
                                                     {"id": "3", "prediction": "\\boxed{0.5}"},
                                                     {"id": "4", "prediction": "$\\boxed{\\text{Evelyn}}$"}])
    (folder / "dataset.toml").write_text('kind = "math"\n')
    assert run(tmp_path) == 0
    rejects = read_artifact_json(tmp_path / "outputs" / "prose" / "B1_questions.json")["rejects"]
    assert [(r["line"], r["reason"]) for r in rejects] == [(2, "gold 'five' is a number in words: write it in digits")]
    matched = read_columns(tmp_path / "outputs" / "prose" / "m" / "B4_matches.json")
    assert (matched["id"], matched["gold"], matched["correct"]) == (["1", "3", "4"], ["5", "\\frac{1}{2}", "Evelyn"],
                                                                    [True, True, True])
    report = read_artifact_json(tmp_path / "outputs" / "prose" / "B6_report.json")["report"]
    assert report["models"]["m"]["accuracy"] == 1.0
