"""AlignBench's release as published (../shared/data/real): 683 Chinese questions with reference, category and
subcategory, and its config tables carried as one prompts file."""
import json

from stages.leaderboards.alignbench.files import read_alignbench


def test_the_release_reads_as_questions_with_references_and_its_config(real_data):
    root = real_data / "leaderboards/alignbench"
    found = read_alignbench(root)
    raw = [json.loads(line) for line in (root / "data/data_v1.1_release.jsonl").read_text(encoding="utf-8").splitlines()
           if line.strip()]
    assert found.problems == [] and len(found.questions) == len(raw) == 683
    first = found.questions[0]
    assert (first["instruction"], first["answer"]) == (raw[0]["question"], raw[0]["reference"])
    assert {q["category"] for q in found.questions} == {r["category"] for r in raw}
    config = json.loads(found.files["alignbench.json"])
    assert config["dimension_set"] == json.loads((root / "config/dimension_set.json").read_text(encoding="utf-8"))
    assert found.board == {"name": "alignbench", "prompts": "alignbench.json"}
