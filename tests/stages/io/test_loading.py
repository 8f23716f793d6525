import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from stages import get_kind, load_predictions, load_questions
from stages.core.records import as_columns

QA = get_kind("qa")
NO_FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}


def _reasons(result):
    return [(r.line, r.reason) for r in result.rejects]


def test_jsonl_bad_rows_are_set_aside_with_line_and_reason(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_bytes(
        b'{"id": "1", "question": "q", "answer": "Paris"}\n'
        b'{"id": "2", "question": "q", "answer": \n'  # malformed JSON
        b'\n'
        b'{"question": "no id", "answer": "x"}\n'
        b'{"id": "4", "question": "no gold"}\n'
        b'["not", "an", "object"]\n'
        b'{"id": "6", "answer": "\xff\xfe"}\n'  # undecodable bytes
        b'{"id": "1", "question": "dup", "answer": "y"}\n'
        b'{"id": "8", "question": "ok", "answers": ["a", "b"]}\n'
    )
    result = load_questions(path, QA, NO_FIELDS)
    assert as_columns(result.columns)["id"] == ["1", "8"]
    assert as_columns(result.columns)["golds"] == [["Paris"], ["a", "b"]]
    lines = [line for line, _ in _reasons(result)]
    assert lines == [2, 4, 5, 6, 7, 8]
    reasons = dict(_reasons(result))
    assert reasons[2] == "the line ends before its JSON does (cut off?)"
    assert reasons[4].startswith("no id")
    assert reasons[5] == "no gold answer"
    assert reasons[6] == "expected a JSON object, got list"
    assert reasons[7] == "undecodable bytes (not UTF-8) at byte 23 of the line: b'\\xff'"
    assert reasons[8] == "duplicate id '1' (first seen at line 1)"
    assert result.counts() == {"input_rows": 8, "accepted": 2, "rejected": 6}
    assert all(r.source == str(path) for r in result.rejects)


def test_json_array_keeps_line_numbers(tmp_path):
    path = tmp_path / "questions.json"
    rows = [{"id": "a", "answer": "x"}, {"id": "b"}, {"id": "c", "answer": "z"}]
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    result = load_questions(path, QA, NO_FIELDS)
    assert as_columns(result.columns)["id"] == ["a", "c"]
    assert as_columns(result.columns)["line"] == [2, 4]
    assert _reasons(result) == [(3, "no gold answer")]


def test_broken_json_file_is_one_reject(tmp_path):
    path = tmp_path / "questions.json"
    path.write_text('{"data": [\n{"broken": }\n')
    result = load_questions(path, QA, NO_FIELDS)
    assert result.accepted == 0
    assert result.counts() == {"input_rows": 1, "accepted": 0, "rejected": 1}
    assert result.rejects[0].line == 2 and result.rejects[0].reason.startswith("malformed JSON")


def test_squad_document_and_prediction_map(tmp_path):
    squad = {"data": [{"title": "T", "paragraphs": [{"context": "c", "qas": [
        {"id": "q1", "question": "Who?", "answers": [{"text": "Ann", "answer_start": 0}]},
        {"id": "q2", "question": "What?", "answers": [{"text": "x"}, {"text": "y"}]}]}]}]}
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(squad))
    loaded = load_questions(questions, QA, NO_FIELDS)
    assert as_columns(loaded.columns)["id"] == ["q1", "q2"] and as_columns(loaded.columns)["golds"] == [["Ann"], ["x", "y"]]
    predictions = tmp_path / "m.json"
    predictions.write_text(json.dumps({"q1": "Ann", "q2": 3}))
    loaded = load_predictions(predictions, NO_FIELDS)
    assert as_columns(loaded.columns)["prediction"] == ["Ann", "3"]


@pytest.mark.parametrize("encoded, offset", [("Romé".encode("cp1252"), 27 + 3), ("罗马".encode("gbk"), 27)])
def test_one_foreign_byte_in_a_plain_jsonl_file_is_one_reject(tmp_path, encoded, offset):
    """pyarrow.json reads invalid UTF-8 without complaint: the fast path must leave such a block to the row reader."""
    path = tmp_path / "m.jsonl"
    lines = [b'{"id": "1", "prediction": "Paris"}', b'{"id": "2", "prediction": "' + encoded + b'"}',
             b'{"id": "3", "prediction": "Oslo"}']
    path.write_bytes(b"\n".join(lines) + b"\n")
    loaded = load_predictions(path, NO_FIELDS)
    assert as_columns(loaded.columns)["id"] == ["1", "3"]
    assert [(r.line, r.reason.split(" of the line")[0]) for r in loaded.rejects] == [
        (2, f"undecodable bytes (not UTF-8) at byte {offset}")]  # the value starts at byte 27 of the line
    assert loaded.counts() == {"input_rows": 3, "accepted": 2, "rejected": 1}


def test_csv_rows_with_wrong_field_count_or_bytes(tmp_path):
    path = tmp_path / "m.csv"
    path.write_bytes(b"id,prediction\n1,Paris\n2,a,b\n3,\"multi\nline\"\n4,\xff\n5,ok\n")
    loaded = load_predictions(path, NO_FIELDS)
    assert as_columns(loaded.columns)["id"] == ["1", "3", "5"]
    assert as_columns(loaded.columns)["prediction"] == ["Paris", "multi\nline", "ok"]
    assert _reasons(loaded) == [(3, "expected 2 fields, got 3"), (6, "undecodable bytes (not UTF-8)")]
    assert loaded.counts() == {"input_rows": 5, "accepted": 3, "rejected": 2}


def test_parquet_and_wrong_prediction_types(tmp_path):
    path = tmp_path / "m.parquet"
    pq.write_table(pa.table({"id": ["1", "2", None], "prediction": ["a", None, "c"]}), path)
    loaded = load_predictions(path, NO_FIELDS)
    assert as_columns(loaded.columns)["id"] == ["1"]
    assert [r.reason for r in loaded.rejects] == [
        "no prediction (looked for prediction, final_answer, predicted_label, response, output, answer, completion)",
        "no id (field 'id' missing or empty)",
    ]
    jsonl = tmp_path / "m.jsonl"
    jsonl.write_text('{"id": 1, "prediction": ["a"]}\n{"id": 2, "prediction": ""}\n')
    loaded = load_predictions(jsonl, NO_FIELDS)
    assert as_columns(loaded.columns)["prediction"] == [""]  # an empty answer is an answer (scores 0), not a missing row
    assert loaded.rejects[0].reason == "wrong type: prediction 'prediction' is a list, expected text"


def test_line_ids_pair_files_by_position(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text('{"id": 0, "predicted_label": "SUPPORTS"}\nnot json\n{"id": 0, "predicted_label": "REFUTES"}\n')
    loaded = load_predictions(path, {**NO_FIELDS, "id_field": "@line"})
    assert as_columns(loaded.columns)["id"] == ["1", "3"]


def test_confidence_must_be_a_probability(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text('{"id": 1, "prediction": "a", "confidence": 0.5}\n{"id": 2, "prediction": "b", "confidence": 3}\n'
                    '{"id": 3, "prediction": "c", "confidence": "high"}\n{"id": 4, "prediction": "d"}\n')
    loaded = load_predictions(path, NO_FIELDS)
    assert as_columns(loaded.columns)["id"] == ["1", "4"] and as_columns(loaded.columns)["confidence"] == [0.5, None]
    assert [r.line for r in loaded.rejects] == [2, 3]
    assert loaded.rejects[0].reason == "wrong type: confidence 3 is not a number between 0 and 1"


def test_a_kinds_reason_is_kept_as_it_says_and_only_a_type_error_is_called_a_wrong_type(tmp_path):
    """A kind's field reader refusing a value with a ValueError gives the reason it says (no "wrong type:" before "no
    test cases"); a TypeError is a value of the wrong type."""
    class Refusing(type(QA)):
        def question_fields(self, record, question):
            if record["n"] == 1:
                raise ValueError("no test cases (the list is empty)")
            if record["n"] == 2:
                raise TypeError("'int' object is not iterable")
            return {}

        def prediction_fields(self, record):
            if record["n"] == 1:
                raise ValueError("steps are not in order")
            return {}

    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps({"id": n, "question": "q", "answer": "a", "n": n}) + "\n" for n in (1, 2, 3)))
    loaded = load_questions(questions, Refusing(), NO_FIELDS)
    assert _reasons(loaded) == [(1, "no test cases (the list is empty)"), (2, "wrong type: 'int' object is not iterable")]
    predictions = tmp_path / "m.jsonl"
    predictions.write_text('{"id": 1, "prediction": "a", "n": 1}\n{"id": 3, "prediction": "a", "n": 3}\n')
    assert _reasons(load_predictions(predictions, NO_FIELDS, None, Refusing())) == [(1, "steps are not in order")]
