"""Kind detection asks every registered kind how surely it recognizes a dataset's records: the built-in kinds are found
as before, options outrank verdict golds, and a newly registered kind is detected with no list to edit."""
import json

import pytest

from stages.kinds.base import KINDS, Kind, Recognition, every_record_has
from stages.kinds.detection import detect_kind


def _questions(tmp_path, records):
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "records", "kind"), [
    ("humaneval", [{"task_id": "t", "prompt": "def f():", "entry_point": "f", "test": "assert f()"}], "code"),
    ("ifeval", [{"key": 1, "prompt": "Write", "instruction_id_list": ["x"], "kwargs": [{}]}], "ifeval"),
    ("retail", [{"id": "0", "user_scenario": {}, "evaluation_criteria": {}}], "tau2"),
    ("bfcl", [{"id": "s_0", "question": [[{"role": "user", "content": "?"}]], "function": []}], "function_calling"),
    ("exam", [{"id": "1", "question": "2 + 2?", "options": ["3", "4"], "answer": "B"},
              {"id": "2", "question": "Sky?", "options": ["blue", "red"], "answer": "A"}], "multiple_choice"),
    ("fever_dev", [{"id": "1", "question": "Paris is in France.", "answer": "SUPPORTS"}], "fact_verification"),
    ("fever_options", [{"id": "1", "question": "Paris is in France.", "options": ["SUPPORTS", "REFUTES"],
                        "answer": "SUPPORTS"}], "multiple_choice"),
    ("trivia", [{"id": "1", "question": "Capital of France?", "answer": "Paris"}], "qa"),
    ("empty", [], "qa"),
])
def test_each_built_in_kind_recognizes_its_records(tmp_path, name, records, kind):
    assert detect_kind(name, _questions(tmp_path, records)) == kind


def test_a_dataset_of_document_folders_is_the_kind_that_reads_them(tmp_path):
    assert detect_kind("story", None) == "annotation"


class _Probe(Kind):
    def recognize(self, records, dataset_name):
        return Recognition.FIELDS if every_record_has(records, "probe_field") else Recognition.NO


def test_a_newly_registered_kind_is_asked_with_no_list_to_edit(tmp_path, monkeypatch):
    KINDS.names()  # every kind imported first, so the probe is one more
    monkeypatch.setitem(KINDS._parts, "probe", _Probe())
    assert detect_kind("x", _questions(tmp_path, [{"id": "1", "question": "?", "probe_field": 1}])) == "probe"
    assert detect_kind("x", _questions(tmp_path, [{"id": "1", "question": "?", "answer": "a"}])) == "qa"
