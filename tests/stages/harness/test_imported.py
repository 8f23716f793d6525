"""What an import reads: provenance with non-finite metrics kept as text, one reply or several as samples, side files
read leniently, files under folders each once, and rows without a reference set aside or judged."""
import math

import pytest

from stages.core.errors import UsageError
from stages.harness import importer
from stages.harness.imported import (
    ImportedRun,
    files_under,
    read_json_object,
    references_or_instructions,
    replies_prediction,
)
from stages.harness.inspect_logs import read_inspect


def test_provenance_keeps_a_non_finite_metric_as_text_and_leaves_out_what_is_unknown():
    run = ImportedRun(tool="opencompass", tool_version=None, task="t", model="m", file="f.json", kind="qa",
                      questions=[], predictions=[], metrics={"accuracy": 75.0, "bpb": math.inf, "x": math.nan})
    assert run.provenance() == {"tool": "opencompass", "task": "t", "model": "m", "file": "f.json",
                                "metrics": {"accuracy": 75.0, "bpb": "inf", "x": "nan"}}


def test_one_reply_is_a_prediction_several_are_samples():
    assert replies_prediction("7", ["a"]) == {"id": "7", "prediction": "a"}
    assert replies_prediction("7", ["a", "b"]) == {"id": "7", "samples": ["a", "b"]}


def test_side_files_are_read_leniently_and_files_found_once(tmp_path):
    (tmp_path / "results.json").write_text('{"acc": NaN}')
    (tmp_path / "list.json").write_text("[1, 2]")
    assert math.isnan(read_json_object(tmp_path / "results.json")["acc"])
    assert read_json_object(tmp_path / "list.json") == {} and read_json_object(tmp_path / "none.json") == {}
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.json").write_text("{}")
    found = files_under([tmp_path, tmp_path / "sub" / "a.json"], "*.json")
    assert found == sorted(tmp_path.rglob("*.json"))
    with pytest.raises(UsageError, match="no such file or folder"):
        files_under([tmp_path / "gone"], "*.json")


def test_rows_without_a_reference_are_set_aside_unless_none_has_one():
    questions = [{"id": "1", "question": "q1", "answers": ["a"]}, {"id": "2", "question": "q2", "answers": []}]
    predictions = [{"id": "1", "prediction": "a"}, {"id": "2", "prediction": "b"}]
    aside: list[str] = []
    kind, kept, answered = references_or_instructions("f.jsonl", questions, predictions, aside, "no reference")
    assert (kind, [q["id"] for q in kept], [p["id"] for p in answered]) == ("qa", ["1"], ["1"])
    assert aside == ["f.jsonl: id 2: no reference"]
    kind, kept, _ = references_or_instructions("f.jsonl", [questions[1]], predictions[1:], [], "no reference")
    assert kind == "instruction" and kept == [{"id": "2", "question": "q2"}]


def test_importers_are_looked_up_by_tool_name():
    assert importer("inspect") is read_inspect
    with pytest.raises(UsageError, match="lm-eval"):
        importer("lm_eval_typo")
