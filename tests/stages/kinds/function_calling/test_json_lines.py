"""BFCL's `.json` files are JSON lines; a one-line file is one record when that line is a record with an id."""
import json

from stages.core.records import Reject
from stages.kinds.function_calling.json_lines import read_records


def _records(path):
    return [item if isinstance(item, Reject) else item[1] for item in read_records(path)]


def test_a_result_file_of_one_item_is_that_record(tmp_path):
    path = tmp_path / "BFCL_v4_multi_turn_base_result.json"
    path.write_text(json.dumps({"id": "multi_turn_base_0", "result": [[]]}) + "\n")
    assert _records(path) == [{"id": "multi_turn_base_0", "result": [[]]}]


def test_json_lines_of_several_records_are_read_line_by_line(tmp_path):
    path = tmp_path / "BFCL_v4_simple_python.json"
    path.write_text("".join(json.dumps({"id": f"simple_python_{i}", "question": [[]]}) + "\n" for i in range(3)))
    assert [record["id"] for record in _records(path)] == ["simple_python_0", "simple_python_1", "simple_python_2"]


def test_a_one_line_json_document_without_an_id_is_read_as_a_document(tmp_path):
    path = tmp_path / "questions.json"
    path.write_text(json.dumps([{"id": "a", "question": [[]]}, {"id": "b", "question": [[]]}]) + "\n")
    assert [record["id"] for record in _records(path)] == ["a", "b"]
