"""Shards: B1–B5 per row range, B6 adding the shards' counts and sums, so the numbers equal the unsharded run's;
appending predictions reruns only the shards whose rows changed; what sharding could hide is reported."""
import json
import shutil
from pathlib import Path

import pandas
import pytest

from pipeline.cli import main
from stages import read_artifact
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import DEMO_INPUTS, assert_close, changed_artifacts, snapshot, write_jsonl

DEMO = DEMO_INPUTS
SHARDABLE_DEMOS = ["qa_mixed", "fact_check", "mc_mixed", "numeric_finance"]


def _copy(dataset: str, root: Path, shard_rows: int | None) -> Path:
    folder = root / "inputs" / dataset
    shutil.copytree(DEMO / dataset, folder)
    if shard_rows:
        toml = folder / "dataset.toml"
        text = toml.read_text(encoding="utf-8") if toml.exists() else ""
        if "[params]" in text:
            text = text.replace("[params]", f"[params]\nshard_rows = {shard_rows}", 1)
        else:
            text += f"\n[params]\nshard_rows = {shard_rows}\n"
        toml.write_text(text, encoding="utf-8")
    return root / "inputs"


def _run(inputs: Path, outputs: Path) -> int:
    return main(["run", "--inputs", str(inputs), "--outputs", str(outputs)])


@pytest.mark.parametrize("dataset", SHARDABLE_DEMOS)
def test_sharded_numbers_equal_the_unsharded_ones(tmp_path, dataset):
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert _run(_copy(dataset, whole, None), whole / "out") == 0
    assert _run(_copy(dataset, split, 3), split / "out") == 0
    assert (split / "out" / dataset / "shards" / "00002").is_dir()
    unsharded = read_artifact_json(whole / "out" / dataset / "B6_report.json")["report"]
    sharded = read_artifact_json(split / "out" / dataset / "B6_report.json")["report"]
    assert_close(unsharded["models"], sharded["models"], dataset)
    assert sharded["set_aside"] == unsharded["set_aside"] and sharded["problems"] == unsharded["problems"] == []
    assert sharded["distributions"] == unsharded["distributions"]
    for model in unsharded["models"]:
        whole_rows = read_artifact(whole / "out", "B4", dataset, model).sort_values("id").reset_index(drop=True)
        split_rows = read_artifact(split / "out", "B4", dataset, model).sort_values("id").reset_index(drop=True)
        pandas.testing.assert_frame_equal(whole_rows, split_rows, check_dtype=False)


def _qa(folder: Path, questions: int, answered: int) -> None:
    write_jsonl(folder / "questions.jsonl",
                [{"id": f"q{i}", "question": f"q {i}", "answers": [f"a{i % 3}"]} for i in range(questions)])
    write_jsonl(folder / "predictions" / "m.jsonl",
                [{"id": f"q{i}", "prediction": f"a{i % 2}"} for i in range(answered)])
    (folder / "dataset.toml").write_text("[params]\nshard_rows = 5\n")


def test_appending_predictions_reruns_only_the_shards_whose_rows_changed(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "out"
    _qa(inputs / "qa", 20, 17)
    assert _run(inputs, outputs) == 0
    before = snapshot(outputs)
    predictions = inputs / "qa" / "predictions" / "m.jsonl"
    with open(predictions, "a") as handle:
        for i in range(17, 20):
            handle.write(json.dumps({"id": f"q{i}", "prediction": f"a{i % 2}"}) + "\n")
    assert _run(inputs, outputs) == 0
    rerun = changed_artifacts(before, snapshot(outputs))
    assert rerun == {"qa/shards/00003/m/B2_predictions.json", "qa/B6_report.json", "B6_summary.json",
                     *(f"qa/shards/{s:05d}/m/{a}" for s in (2, 3)
                       for a in ("B3_normalized.json", "B4_matches.json", "B5_component_scores.json"))}
    whole = tmp_path / "whole"
    _qa(whole / "inputs" / "qa", 20, 20)
    (whole / "inputs" / "qa" / "dataset.toml").unlink()
    assert _run(whole / "inputs", whole / "out") == 0
    assert_close(read_artifact_json(whole / "out" / "qa" / "B6_report.json")["report"]["models"],
           read_artifact_json(outputs / "qa" / "B6_report.json")["report"]["models"])


def test_predictions_far_from_their_questions_and_ids_in_two_shards_are_reported(tmp_path, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "out"
    _qa(inputs / "qa", 20, 20)
    predictions = inputs / "qa" / "predictions" / "m.jsonl"
    predictions.write_text("".join(reversed(predictions.read_text().splitlines(keepends=True))))
    questions = inputs / "qa" / "questions.jsonl"
    lines = questions.read_text().splitlines(keepends=True)
    questions.write_text("".join([*lines[:19], lines[0]]))  # q0 again, in the last shard
    assert _run(inputs, outputs) == 1
    problems = read_artifact_json(outputs / "qa" / "B6_report.json")["report"]["problems"]
    assert problems[0] == "1 question id(s) appear in more than one shard (e.g. 'q0')"
    assert problems[1].startswith("model m: ") and "sit in another shard's rows than their question" in problems[1]
