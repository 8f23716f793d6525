"""The Arrow fast path of B1 / B2 gives exactly what the per-row loader gives: same rows, same rejects (file, line,
reason) in the same order, whatever mix of blocks it takes and leaves."""
import json
from functools import partial

import pyarrow as pa
import pytest

from stages import get_kind, load_predictions, load_questions
from stages.core.records import as_columns
from stages.io import jsonl_blocks
from stages.io.columnar_loading import block_table, parse_block, prediction_block, question_block
from stages.io.decoded_blocks import records_table
from stages.io.jsonl_blocks import iter_line_blocks
from stages.kinds.multiple_choice.kind import MultipleChoice
from stages.kinds.qa import OpenQA

QA = get_kind("qa")
NO_FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}


class RowByRowQA(OpenQA):
    """The qa kind with the fast path turned off: the reference the fast path must reproduce."""

    columnar_questions = False
    columnar_predictions = False


ROW_BY_ROW = RowByRowQA()


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of a few hundred bytes, so one small file mixes fast and per-row blocks."""
    monkeypatch.setattr(jsonl_blocks, "FIRST_BLOCK_BYTES", 300)
    monkeypatch.setattr(jsonl_blocks, "BLOCK_BYTES", 300)


def _write(path, rows):
    path.write_bytes(b"".join(row if isinstance(row, bytes) else json.dumps(row, ensure_ascii=False).encode() + b"\n"
                              for row in rows))
    return path


def _same_as_row_by_row(fast, slow):
    assert isinstance(fast.columns, pa.Table)
    assert as_columns(fast.columns) == as_columns(slow.columns)
    assert fast.rejects == slow.rejects
    assert fast.counts() == slow.counts()


QUESTIONS = [
    {"id": "q1", "question": "Who\u00a0wrote it?", "answers": [{"text": "Ann", "answer_start": 0}, {"text": "ann"}]},
    {"id": 2, "question": "全角，标点。", "answer": "北京\u3000市"},
    {"id": "q3", "question": "x", "answers": ["  ", "Paris", ""]},
    {"id": "q4", "query": "only a query", "answers": ["a\u2028b"]},
    {"id": "q5", "question": "", "answers": ["the end"]},
]


CLEAN_QUESTIONS = [
    {"id": "c1", "question": "Who\u00a0wrote it?", "answers": [{"text": "Ann", "answer_start": 0}, {"text": "ann"}]},
    {"id": "c2", "question": "全角，标点。", "answers": [{"text": "北京\u3000市"}]},
    {"id": "c3", "question": "x", "answers": [{"text": "  "}, {"text": "Paris"}, {"text": ""}]},
    {"id": "c4", "question": None, "answers": [{"text": "a\u2028b"}]},
    {"id": "c5", "question": "", "answers": [{"text": "the end"}]},
]


def test_clean_blocks_take_the_fast_path(tmp_path):
    path = _write(tmp_path / "q.jsonl", CLEAN_QUESTIONS)
    blocks = list(iter_line_blocks(path))
    assert blocks and all(question_block(block, NO_FIELDS) is not None for block in blocks)
    _same_as_row_by_row(load_questions(path, QA, NO_FIELDS), load_questions(path, ROW_BY_ROW, NO_FIELDS))


def test_malformed_lines_nested_golds_duplicates_and_odd_types_mid_file(tmp_path):
    rows = [*QUESTIONS,
            b'{"id": "bad", "answers": \n',  # malformed line mid-file
            {"id": "q6", "answers": {"spans": ["New", "York"]}},  # DROP-style nested gold
            {"id": "q7", "original_row": {"标准答案": "是"}, "answer": "no"},  # seed 002: original_row first
            {"id": "q1", "question": "dup of the first", "answers": ["z"]},  # duplicate across blocks
            {"question": "no id", "answers": ["x"]},
            {"id": "q9", "answers": []},
            {"id": 10.0, "answers": [3, "4"]},  # float id, numbers in golds
            ["not", "an", "object"],
            b'{"id": "q11", "answers": ["\xff"]}\n',  # undecodable bytes
            b"\n   \n",
            *({"id": f"tail{i}", "question": "q", "answers": [f"a{i}"]} for i in range(30)),
            {"id": "tail3", "question": "dup inside a clean block", "answers": ["b"]}]
    path = _write(tmp_path / "q.jsonl", rows)
    fast = load_questions(path, QA, NO_FIELDS)
    _same_as_row_by_row(fast, load_questions(path, ROW_BY_ROW, NO_FIELDS))
    assert any(question_block(block, NO_FIELDS) is not None for block in iter_line_blocks(path))
    assert [reject.line for reject in fast.rejects] == sorted(reject.line for reject in fast.rejects)
    reasons = {reject.line: reject.reason for reject in fast.rejects}
    assert reasons[6] == "the line ends before its JSON does (cut off?)" and reasons[9] == "duplicate id 'q1' (first seen at line 1)"


@pytest.mark.parametrize("rows", [range(0, 4), range(3, 11), range(20, 60)])
def test_a_shard_of_the_file_loads_the_same_either_way(tmp_path, rows):
    lines = [*QUESTIONS, b"{broken\n", *({"id": f"r{i}", "answers": [f"a {i}"]} for i in range(40))]
    path = _write(tmp_path / "q.jsonl", lines)
    _same_as_row_by_row(load_questions(path, QA, NO_FIELDS, rows), load_questions(path, ROW_BY_ROW, NO_FIELDS, rows))


def test_explicit_fields_and_line_ids(tmp_path):
    rows = [{"key": f"k{i}", "ask": f"q {i}", "gold": {"text": f"g{i}"} if i % 7 == 0 else [f"g{i}"]} for i in range(30)]
    path = _write(tmp_path / "q.jsonl", rows)
    for fields in ({**NO_FIELDS, "id_field": "key", "question_field": "ask", "gold_field": "gold"},
                   {**NO_FIELDS, "id_field": "@line", "gold_field": "gold"}):
        _same_as_row_by_row(load_questions(path, QA, fields), load_questions(path, ROW_BY_ROW, fields))


PREDICTIONS = [
    {"id": "q1", "prediction": "Ann", "confidence": 0.9},
    {"id": 2, "prediction": "", "confidence": 1},
    {"id": "q3", "final_answer": "Paris"},
    {"id": "q4", "prediction": None, "answer": "from the answer field"},
    {"id": "q5", "prediction": "\u3000the\u00a0end！"},
]


def test_predictions_either_way(tmp_path):
    clean = _write(tmp_path / "clean.jsonl", [{**row, "id": str(row["id"])} for row in PREDICTIONS]
                   + [{"id": f"p{i}", "prediction": f"x{i}"} for i in range(20)])
    assert all(prediction_block(block, NO_FIELDS) is not None for block in iter_line_blocks(clean))
    mixed = _write(tmp_path / "mixed.jsonl", [
        *PREDICTIONS,
        {"id": "n1", "prediction": 42},  # a number: text "42"
        {"id": "n2", "prediction": ["a list"]},
        {"id": "n3", "confidence": 0.5},
        {"id": "n4", "prediction": "p", "confidence": 1.5},
        {"id": "n5", "prediction": "p", "confidence": "0.25"},
        {"id": "q1", "prediction": "duplicate"},
        b'{"id": "n6", "prediction": "unterminated\n',
        *({"id": f"p{i}", "prediction": f"x{i}"} for i in range(20))])
    for path in (clean, mixed):
        _same_as_row_by_row(load_predictions(path, NO_FIELDS, None, QA), load_predictions(path, NO_FIELDS, None,
                                                                                         ROW_BY_ROW))


def test_parquet_either_way(tmp_path):
    import pyarrow.parquet as pq

    clean = tmp_path / "clean.parquet"
    pq.write_table(pa.table({"id": [f"c{i}" for i in range(50)] + ["c3"],
                             "question": ["全角，标点。", None, "x\u00a0y", *(f"q{i}" for i in range(48))],
                             "answers": [[f"a {i}", " "] for i in range(51)]}), clean)
    for rows in (None, range(2, 30)):
        _same_as_row_by_row(load_questions(clean, QA, NO_FIELDS, rows), load_questions(clean, ROW_BY_ROW, NO_FIELDS, rows))
    assert load_questions(clean, QA, NO_FIELDS).rejects[0].location == "row 51"

    odd = tmp_path / "odd.parquet"  # rows to set aside: the whole file goes row by row
    pq.write_table(pa.table({"id": [1, 2, 3, 4], "answer": ["x", "", "y", None]}), odd)
    fast, slow = load_questions(odd, QA, NO_FIELDS), load_questions(odd, ROW_BY_ROW, NO_FIELDS)
    assert as_columns(fast.columns) == as_columns(slow.columns) and fast.rejects == slow.rejects and len(fast.rejects) == 2

    predictions = tmp_path / "predictions.parquet"
    pq.write_table(pa.table({"id": ["a", "b", "a"], "prediction": ["x", "", "z"], "confidence": [0.5, None, 1.0]}),
                   predictions)
    _same_as_row_by_row(load_predictions(predictions, NO_FIELDS, None, QA),
                        load_predictions(predictions, NO_FIELDS, None, ROW_BY_ROW))


def test_csv_either_way(tmp_path):
    plain = tmp_path / "plain.csv"
    plain.write_bytes("\ufeffid , question,answer\n".encode() + "".join(
        f"c{i},全角，标点 {i},a {i}\n" for i in range(40)).encode() + b"c3,dup,x\n c41 , spaced ,  b  ")
    assert isinstance(load_questions(plain, QA, NO_FIELDS).columns, pa.Table)
    for rows in (None, range(5, 20)):
        _same_as_row_by_row(load_questions(plain, QA, NO_FIELDS, rows), load_questions(plain, ROW_BY_ROW, NO_FIELDS,
                                                                                      rows))
    predictions = tmp_path / "predictions.csv"
    predictions.write_text("id,prediction,confidence\na,x,0.5\nb,,1\nc,z,1e-1\n")
    _same_as_row_by_row(load_predictions(predictions, NO_FIELDS, None, QA),
                        load_predictions(predictions, NO_FIELDS, None, ROW_BY_ROW))
    for text in ('id,answer\n1,"quoted, with comma"\n2,x\n',  # quotes: csv.reader decides
                 "id,answer\n1,a\n\n2,b\n",  # a blank line
                 "id,answer\n1,a,extra\n2,b\n",  # a wrong number of fields
                 "id,answer\n1,a\r\n2,b\r\n",  # CRLF
                 "id,answer\n ,a\n2,\n"):  # rows to set aside
        odd = tmp_path / "odd.csv"
        odd.write_text(text)
        fast, slow = load_questions(odd, QA, NO_FIELDS), load_questions(odd, ROW_BY_ROW, NO_FIELDS)
        assert as_columns(fast.columns) == as_columns(slow.columns) and fast.rejects == slow.rejects, text
    confidences = tmp_path / "confidences.csv"
    confidences.write_text("id,prediction,confidence\na,x,high\nb,y, 0.5\nc,z,nan\n")
    fast, slow = load_predictions(confidences, NO_FIELDS, None, QA), load_predictions(confidences, NO_FIELDS, None,
                                                                                      ROW_BY_ROW)
    assert as_columns(fast.columns) == as_columns(slow.columns) and fast.rejects == slow.rejects


class RowByRowChoice(MultipleChoice):
    """Multiple choice with the fast path turned off."""

    columnar_questions = False
    columnar_predictions = False


CHOICE = get_kind("multiple_choice")
CHOICE_FIELDS = {**NO_FIELDS, "question_field": "Question", "gold_field": "Answer"}


def test_multiple_choice_predictions_take_the_fast_path(tmp_path):
    assert CHOICE.columnar_predictions and CHOICE.columnar_questions
    path = _write(tmp_path / "p.jsonl", [{"id": f"p{i}", "prediction": f"答案是 {'ABCD'[i % 4]}"} for i in range(30)]
                  + [b'{"id": "bad", \n', {"id": "p3", "prediction": "dup"}, {"id": "p40", "prediction": ["A"]},
                     {"id": "p41", "response": "B", "confidence": 0.9}])
    _same_as_row_by_row(load_predictions(path, NO_FIELDS, kind=CHOICE),
                        load_predictions(path, NO_FIELDS, kind=RowByRowChoice()))


def _choice_question(i):
    return {"id": f"c{i}", "Question": f"问题{i}", "A": f" 选项{i % 3} ", "B": "乙", "C": i, "D": "丁" if i % 2 else " ",
            "Answer": ["A", " b ", "C.", "答案是B"][i % 4]}


def test_multiple_choice_questions_on_the_fast_path_read_as_row_by_row(tmp_path):
    """Options from A–D columns (text, whole numbers, a blank D ends them) or an options / choices list, golds as
    letters or sentences: the fast path's rows equal the per-row loader's; options as a dict or in the question text,
    a gold naming no option and a row with one option column go row by row, with the same rejects."""
    clean = [_choice_question(i) for i in range(40)]
    listed = [{"id": f"l{i}", "Question": "q", "options": [" x ", "y", f"z{i % 5}"], "Answer": "c"} for i in range(20)]
    chosen = [{"id": f"h{i}", "Question": "q", "choices": ["1", "2"], "Answer": "B"} for i in range(20)]
    odd = [{"id": "d1", "Question": "q", "options": {"A": "x", "B": "y"}, "Answer": "A"},
           {"id": "t1", "Question": "Pick (A) red (B) blue", "Answer": "B"},
           {"id": "g1", "Question": "q", "A": "x", "B": "y", "Answer": "E"},
           {"id": "o1", "Question": "q", "A": "only", "Answer": "A"}]
    path = _write(tmp_path / "q.jsonl", [*clean, *odd[:2], *listed, *odd[2:], *chosen])
    fast, slow = load_questions(path, CHOICE, CHOICE_FIELDS), load_questions(path, RowByRowChoice(), CHOICE_FIELDS)
    _same_as_row_by_row(fast, slow)
    assert [r.reason[:16] for r in fast.rejects] == ["gold answer 'E' ", "no options found"]
    blocks = list(iter_line_blocks(_write(tmp_path / "clean.jsonl", clean)))
    fast_block = question_block(blocks[0], CHOICE_FIELDS, partial(CHOICE.columnar_question_fields, params={}),
                                CHOICE.question_types())
    assert fast_block is not None and fast_block.column("options").to_pylist()[:2] == [["选项0", "乙", "0"],
                                                                                       ["选项1", "乙", "1", "丁"]]


def test_multiple_choice_options_are_one_dictionary_of_the_distinct_texts_over_every_block(tmp_path):
    """Blocks encode their options apart; the loaded table holds one dictionary (Parquet then writes it once per row
    group instead of every text plainly), each text once, and every row's options read back as written."""
    rows = [_choice_question(i) for i in range(60)]
    path = _write(tmp_path / "q.jsonl", [*rows[:30], {"id": "t1", "Question": "Pick (A) red (B) blue", "Answer": "B"},
                                         *rows[30:]])
    options = load_questions(path, CHOICE, CHOICE_FIELDS).columns.column("options")
    assert len(list(iter_line_blocks(path))) > 3 and options.type == CHOICE.question_types()["options"]
    dictionaries = [chunk.values.dictionary for chunk in options.chunks]
    assert all(dictionary.equals(dictionaries[0]) for dictionary in dictionaries)
    assert sorted(dictionaries[0].to_pylist()) == sorted({"选项0", "选项1", "选项2", "乙", "丁", "red", "blue",
                                                          *map(str, range(60))})
    assert options.to_pylist() == load_questions(path, RowByRowChoice(), CHOICE_FIELDS).columns["options"].to_pylist()


def test_multiple_choice_csv_as_published_reads_as_row_by_row(tmp_path):
    path = tmp_path / "cmmlu.csv"
    path.write_text(",Question,A,B,C,D,Answer\n0,问题一,甲, 乙,丙,丁,B\n1,问题二,1,2,3,4,D\n2,问题三,x,y,,,A\n",
                    encoding="utf-8")
    fast, slow = load_questions(path, CHOICE, CHOICE_FIELDS), load_questions(path, RowByRowChoice(), CHOICE_FIELDS)
    assert isinstance(fast.columns, pa.Table)
    assert as_columns(fast.columns) == as_columns(slow.columns) and fast.rejects == slow.rejects == []
    assert fast.columns.column("options").to_pylist() == [["甲", "乙", "丙", "丁"], ["1", "2", "3", "4"], ["x", "y"]]


def test_numeric_questions_take_the_fast_path_and_rows_without_gold_go_row_by_row(tmp_path):
    from stages.kinds.numeric.kind import NumericAnswers

    class RowByRowNumeric(NumericAnswers):
        columnar_questions = False

    numeric = get_kind("numeric")
    assert numeric.columnar_questions
    rows = [{"id": f"n{i}", "question": "How many?", "answer": f"{i * 1.5} kg"} for i in range(30)]
    path = _write(tmp_path / "n.jsonl", [*rows[:20], {"id": "blank", "question": "q", "answer": " "}, *rows[20:]])
    fast, slow = load_questions(path, numeric, NO_FIELDS), load_questions(path, RowByRowNumeric(), NO_FIELDS)
    _same_as_row_by_row(fast, slow)
    assert as_columns(fast.columns)["golds"][20] == []  # kept without gold: unscorable in B4, as row by row


def test_blocks_pyarrow_json_refuses_are_decoded_line_by_line(tmp_path):
    """HotpotQA's supporting facts mix page names and sentence numbers: pyarrow.json refuses those blocks, which are
    then decoded line by line onto the fast path; a field the fast path reads with no one Arrow type (ids of two
    types, an id past 64 bits, golds as text and lists) sends its block row by row — the same rows and rejects."""
    rows = [{"_id": f"h{i}", "question": f"q{i}", "answer": f"a{i}", "answers": ["read only if answer is absent"],
             "supporting_facts": [[f"Page {i}", i], ["P", 0]]} for i in range(40)]
    odd = [{"_id": 7, "question": "int id", "answer": "x", "supporting_facts": [["P", 1]]},
           {"_id": 2 ** 70, "question": "huge id", "answer": "y", "supporting_facts": []},
           {"_id": "m1", "question": "golds mixed", "answer": ["y", "z"], "answers": ["not these"],
            "supporting_facts": [["P", "1"]]},
           {"_id": "m2", "question": 3, "answer": "z", "supporting_facts": [[None, 2]]}]
    path = _write(tmp_path / "hotpot.jsonl", [*rows[:12], odd[0], *rows[12:20], odd[1], *rows[20:25], odd[2],
                                              *rows[25:30], odd[3], b'{"_id": "cut", \n', *rows[30:]])
    blocks = list(iter_line_blocks(path))
    decoded = [block for block in blocks if question_block(block, NO_FIELDS) is not None]
    assert decoded and all(parse_block(block) is None for block in decoded)
    assert len(decoded) < len(blocks)
    fast = load_questions(path, QA, NO_FIELDS)
    _same_as_row_by_row(fast, load_questions(path, ROW_BY_ROW, NO_FIELDS))
    assert as_columns(fast.columns)["id"][:2] == ["h0", "h1"]
    assert fast.rejects[0].reason == "the line ends before its JSON does (cut off?)"
    records = [{"a": 1, "b": ["x", 2]}, {"a": 2, "c": "only here"}]
    table = records_table(records, {}, {})
    assert table.column_names == ["a", "b", "c"] and table.column("b").type == pa.binary()
    assert table.column("c").to_pylist() == [None, "only here"]


def test_a_field_is_typed_from_all_its_values_whether_or_not_its_first_ones_mix_types():
    clean = [{"n": i, "mixed_late": i, "mixed_early": [i, "page"] if i < 3 else [i]} for i in range(200)]
    clean[150]["mixed_late"] = "text"  # past the first values tried alone: every value is still tried
    table = records_table(clean, {}, {})
    assert table.column("n").type == pa.int64() and table.column("n").to_pylist() == list(range(200))
    assert table.column("mixed_late").type == pa.binary() and table.column("mixed_early").type == pa.binary()


FEVER = get_kind("fact_verification")


class RowByRowFever(type(FEVER)):
    """Fact verification with the fast path turned off."""

    columnar_questions = False
    columnar_predictions = False


def _fever_rows():
    rows = [{"id": i, "label": "SUPPORTS", "claim": f"c{i}", "evidence": [[[1, 2, f"Page_{i}", i]], [[3, None, "P", 0]]]}
            for i in range(30)]
    rows[5] = {"id": 5, "label": "NOT ENOUGH INFO", "claim": "c5", "evidence": [[[9, None, None, None]]]}
    rows[9] = {"id": 9, "label": "REFUTES", "claim": "no evidence field"}
    return rows


@pytest.mark.parametrize("fields", [NO_FIELDS, {**NO_FIELDS, "id_field": "@line"}])
@pytest.mark.parametrize("rows", [None, range(4, 26)])
def test_fever_reads_its_evidence_on_the_fast_path_with_the_same_rows_and_rejects(tmp_path, fields, rows):
    """FEVER's evidence lists mix numbers and page names: each value is read by the kind's reader (question_readers,
    prediction_readers) on decoded blocks; an unreadable verdict, evidence of the wrong shape, a malformed line and a
    blank line send only their blocks row by row, with the same rows and rejects as the per-row loader, sharded or
    not, with ids of their own or by position."""
    questions = _fever_rows()
    path = _write(tmp_path / "fever.jsonl", [*questions[:7], {"id": 99, "label": "REFUTES", "evidence": "page"},
                                             *questions[7:14], {"id": 98, "label": "MAYBE", "evidence": []},
                                             b"\n", *questions[14:22], b"{\n", *questions[22:]])
    params = {"label_map": {}}
    fast = load_questions(path, FEVER, fields, rows, params)
    _same_as_row_by_row(fast, load_questions(path, RowByRowFever(), fields, rows, params))
    blocks = list(iter_line_blocks(path, rows))
    assert any(question_block(block, fields, partial(FEVER.columnar_question_fields, params=params),
                              FEVER.question_types(), FEVER.question_readers) is not None for block in blocks)
    if rows is None:
        assert [(r.line, r.reason[:26]) for r in fast.rejects] == [
            (8, "evidence must be a list of"), (16, "gold verdict not readable:"), (26, "the line ends before its J")]
        evidence = as_columns(fast.columns)["evidence"]
        assert evidence[0] == [["Page_0\t0"], ["P\t0"]] and evidence[5] == [["None\t"]] and evidence[9] is None

    predictions = [{"id": i, "predicted_label": "SUPPORTS", "predicted_evidence": [[f"Page_{i}", i], ["P", 0.0]]}
                   for i in range(30)]
    predictions[3] = {"id": 3, "predicted_label": "REFUTES"}
    path = _write(tmp_path / "system.jsonl", [*predictions[:10], {"id": 97, "predicted_label": "SUPPORTS",
                                                                  "predicted_evidence": [["P"]]}, *predictions[10:]])
    fast = load_predictions(path, fields, rows, FEVER)
    _same_as_row_by_row(fast, load_predictions(path, fields, rows, RowByRowFever()))
    if rows is None:
        assert [(r.line, r.reason) for r in fast.rejects] == [
            (11, "predicted_evidence must be a list of [page, line] pairs")]
        assert as_columns(fast.columns)["predicted_evidence"][:4] == [["Page_0\t0", "P\t0"], ["Page_1\t1", "P\t0"],
                                                                      ["Page_2\t2", "P\t0"], None]


def test_fever_parquet_reads_its_evidence_as_row_by_row(tmp_path):
    import pyarrow.parquet as pq

    path = tmp_path / "fever.parquet"
    pq.write_table(pa.table({"id": [f"f{i}" for i in range(6)], "label": ["SUPPORTS", "REFUTES"] * 3,
                             "evidence": [[[["1", "2", f"Page_{i}", str(i)]]] for i in range(5)] + [None]}), path)
    params = {"label_map": {}}
    for rows in (None, range(2, 5)):
        fast = load_questions(path, FEVER, NO_FIELDS, rows, params)
        assert isinstance(fast.columns, pa.Table)
        _same_as_row_by_row(fast, load_questions(path, RowByRowFever(), NO_FIELDS, rows, params))
    assert as_columns(load_questions(path, FEVER, NO_FIELDS, None, params).columns)["evidence"][1:] == [
        [["Page_1\t1"]], [["Page_2\t2"]], [["Page_3\t3"]], [["Page_4\t4"]], None]


def test_the_cycle_collector_is_back_on_after_a_decoded_block(tmp_path):
    import gc

    path = _write(tmp_path / "fever.jsonl", [*_fever_rows(), {"id": 99, "label": "REFUTES", "evidence": "page"}])
    for block in iter_line_blocks(path):
        block_table(block, FEVER.question_readers, FEVER.question_types())
        assert gc.isenabled()
