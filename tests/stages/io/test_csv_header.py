"""CSV files as published: pandas' index column is the id, field names match in any case, configured fields too."""
import json

import pytest

from stages import get_kind, load_predictions, load_questions
from stages.core.records import as_columns
from stages.io.csv_header import canonical_csv_header

NO_FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}
CMMLU_AGRONOMY = "cmmlu/test/agronomy.csv"  # under the real data


@pytest.mark.parametrize("header, expected", [
    (["", "Question", "A", "B", "C", "D", "Answer"], ["id", "question", "A", "B", "C", "D", "answer"]),
    (["", "ID", "Question"], ["", "id", "question"]),  # an id column of its own wins over the index
    (["", "qid", "prompt"], ["", "qid", "prompt"]),
    (["question", "Question"], ["question", "Question"]),  # the exact name is there: nothing renamed
    (["Answer", "ANSWER"], ["Answer", "ANSWER"]),  # two claims on one name: neither renamed
    (["a", "b", "Prediction", "notes"], ["A", "B", "prediction", "notes"]),
])
def test_canonical_header(header, expected):
    assert canonical_csv_header(header) == expected


def test_cmmlu_csv_as_published_reads_without_configuration(real_data):
    result = load_questions(real_data / CMMLU_AGRONOMY, get_kind("multiple_choice"), NO_FIELDS)
    columns = as_columns(result.columns)
    assert result.rejects == [] and result.accepted == 169
    assert columns["id"][:2] == ["0", "1"]
    assert columns["golds"][:2] == [["B"], ["B"]]
    assert columns["options"][0] == ["农业生产工具", "土地", "劳动力", "资金"]


@pytest.mark.parametrize("quoted", [False, True], ids=["arrow_csv", "per_row"])
def test_index_column_and_capitalised_fields_on_both_csv_paths(tmp_path, quoted):
    cell = '"Paris, France"' if quoted else "Paris"
    (tmp_path / "q.csv").write_text(f",Question,Answer\n0,capital of France?,{cell}\n1,2+2?,4\n", encoding="utf-8")
    (tmp_path / "p.csv").write_text(",Prediction\n0,Paris\n1,4\n", encoding="utf-8")
    questions = as_columns(load_questions(tmp_path / "q.csv", get_kind("qa"), NO_FIELDS).columns)
    predictions = as_columns(load_predictions(tmp_path / "p.csv", NO_FIELDS).columns)
    assert questions["id"] == ["0", "1"] and questions["question"] == ["capital of France?", "2+2?"]
    assert questions["golds"] == [["Paris, France" if quoted else "Paris"], ["4"]]
    assert predictions["id"] == ["0", "1"] and predictions["prediction"] == ["Paris", "4"]


@pytest.mark.parametrize("odd_line", [False, True], ids=["arrow_jsonl", "per_row"])
def test_configured_fields_match_in_any_case(tmp_path, odd_line):
    rows = [{"Key": "a", "Query": "q?", "GOLD": "yes", "Reply": "yes"}, {"Key": "b", "Query": "r?", "GOLD": "no",
                                                                         "Reply": "maybe"}]
    text = "\n".join(json.dumps(row) for row in rows) + ("\n[1]\n" if odd_line else "\n")
    (tmp_path / "q.jsonl").write_text(text, encoding="utf-8")
    fields = {"id_field": "key", "question_field": "query", "gold_field": "gold", "prediction_field": "reply"}
    questions = as_columns(load_questions(tmp_path / "q.jsonl", get_kind("qa"), fields).columns)
    predictions = as_columns(load_predictions(tmp_path / "q.jsonl", fields).columns)
    assert questions["id"] == ["a", "b"] and questions["golds"] == [["yes"], ["no"]]
    assert questions["question"] == ["q?", "r?"]
    assert predictions["prediction"] == ["yes", "maybe"]
