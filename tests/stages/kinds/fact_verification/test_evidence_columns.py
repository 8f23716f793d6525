"""FEVER's evidence read on Arrow (integers quoted, pyarrow.json, evidence_columns) gives exactly what the decoded
path and the per-row loader give: same rows, same sentences, same rejects with file, line and reason; a block it
cannot read the same way falls back to the decoded path."""
import json

import pyarrow as pa
import pytest

from stages import get_kind, load_predictions, load_questions
from stages.core.records import as_columns
from stages.io import columnar_loading, jsonl_blocks, quoted_numbers
from stages.kinds.fact_verification.evidence import predicted_evidence_sentences
from stages.kinds.fact_verification.evidence_columns import gold_evidence_column, predicted_evidence_column

FEVER = get_kind("fact_verification")
FIELDS = {"id_field": None, "question_field": None, "gold_field": None, "prediction_field": None}
PARAMS = {"label_map": {}}


class DecodedFever(type(FEVER)):
    """Fact verification as before the Arrow evidence path: every block decoded line by line."""

    def quoted_question_fields(self):
        return {}

    def quoted_prediction_fields(self):
        return {}


class RowByRowFever(type(FEVER)):
    """Fact verification with the fast path turned off."""

    columnar_questions = False
    columnar_predictions = False


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of a few hundred bytes, so one small file mixes Arrow, decoded and per-row blocks."""
    monkeypatch.setattr(jsonl_blocks, "FIRST_BLOCK_BYTES", 400)
    monkeypatch.setattr(jsonl_blocks, "BLOCK_BYTES", 400)


@pytest.fixture
def decoded_blocks(monkeypatch):
    """How many blocks went to the decoded path."""
    calls = []
    decoded = columnar_loading.decoded_table

    def counted(block, readers, types):
        calls.append(block.first_line)
        return decoded(block, readers, types)

    monkeypatch.setattr(columnar_loading, "decoded_table", counted)
    return calls


def _write(path, rows):
    path.write_bytes(b"".join(row if isinstance(row, bytes) else json.dumps(row, ensure_ascii=False).encode() + b"\n"
                              for row in rows))
    return path


def _same(*results):
    first = results[0]
    assert isinstance(first.columns, pa.Table)
    for other in results[1:]:
        assert as_columns(first.columns) == as_columns(other.columns)
        assert first.rejects == other.rejects
        assert first.counts() == other.counts()


def _question(i, evidence):
    return {"id": i, "verifiable": "VERIFIABLE", "label": "SUPPORTS", "claim": f"claim {i} [1, 2]",
            "evidence": evidence, "all_evidence": [item for group in evidence or [] for item in group or [None]]}


GOOD = [
    _question(0, [[[108548, None, None, None]]]),
    _question(1, [[[289914, 283015, "Soul_Food_-LRB-film-RRB-", 0]], [[1, 2, "Soul_Food", 7]]]),
    _question(2, [[[1, 2, 'Say_"12",_3', 4], [5, 6, "Caf\u00e9_\u6771\u4eac_49ers", 12]]]),
    _question(3, [[[1, 2, "a, 12] [3", -1]], []]),
    _question(4, []),
    _question(5, None),
    _question(6, [[[1, 2, 404, 0]]]),  # a page given as a number
    _question(7, [[["a", "b", "P", "5"]]]),  # a line given as text int() reads back the same
]


def test_good_fever_blocks_are_read_on_arrow_with_the_same_sentences(tmp_path, decoded_blocks):
    path = _write(tmp_path / "fever.jsonl", GOOD * 6)
    fast = load_questions(path, FEVER, FIELDS, None, PARAMS)
    assert not decoded_blocks
    _same(fast, load_questions(path, DecodedFever(), FIELDS, None, PARAMS),
          load_questions(path, RowByRowFever(), FIELDS, None, PARAMS))
    assert as_columns(fast.columns)["evidence"][:8] == [
        [["None\t"]], [["Soul_Food_-LRB-film-RRB-\t0"], ["Soul_Food\t7"]],
        [['Say_"12",_3\t4', "Caf\u00e9_\u6771\u4eac_49ers\t12"]], [["a, 12] [3\t-1"], []], [], None, [["404\t0"]],
        [["P\t5"]]]


BAD = [
    b'{"id": 20, "label": "SUPPORTS", "evidence": [[[1, 2, "P", 3]]\n',  # malformed
    _question(21, [None]),  # a group that is null
    _question(22, [[None]]),  # an item that is null
    _question(23, [[[[1, 2, "P", 3]]]]),  # nested one level too deep
    _question(24, [[1, 2, "P", 3]]),  # one level too shallow
    _question(25, [[[1, 2, "P"]]]),  # three values
    _question(26, [[[1, 2, "P", "05"]]]),  # a line int() reads, but not back the same: "5"
    _question(27, [[[1, 2, "P", 1.0]]]),  # a float line: "1"
    _question(28, [[[1, 2, "P", "five"]]]),
    b'{"id": 29, "label": "SUPPORTS", "evidence": [[[1, 2, "P", NaN]]]}\n',
    b'{"id": 30, "label": "SUPPORTS", "evidence": [[[1, 2, "P", 3]]], "evidence": null}\n',  # a repeated key
    _question(31, [[[1, 2, "P", 12345678901234567890]]]),
    _question(32, [[[1, 2, "P", True]]]),
    b'{"id": 33, "label": "SUPPORTS", "evidence": [[[1, 2, "P\\uDbff", 3]]]}\n',  # a lone surrogate
]


@pytest.mark.parametrize("bad", range(len(BAD)))
def test_a_block_with_a_line_arrow_cannot_read_falls_back_with_the_same_rows_and_rejects(tmp_path, bad,
                                                                                        decoded_blocks):
    path = _write(tmp_path / "fever.jsonl", [*GOOD, *GOOD[:4], BAD[bad], *GOOD[4:], *GOOD])
    fast = load_questions(path, FEVER, FIELDS, None, PARAMS)
    decoded = len(decoded_blocks)
    _same(fast, load_questions(path, DecodedFever(), FIELDS, None, PARAMS),
          load_questions(path, RowByRowFever(), FIELDS, None, PARAMS))
    assert 1 <= decoded < len(list(jsonl_blocks.iter_line_blocks(path))) / 2  # the bad line's block, few others


def test_the_known_bad_lines_are_set_aside_with_their_line_and_reason(tmp_path):
    path = _write(tmp_path / "fever.jsonl", [GOOD[1], BAD[0], BAD[1], BAD[3], BAD[6], BAD[9], GOOD[2]])
    fast = load_questions(path, FEVER, FIELDS, None, PARAMS)
    assert [(reject.source, reject.line, reject.reason) for reject in fast.rejects] == [
        (str(path), 2, "the line ends before its JSON does (cut off?)"),
        (str(path), 3, "evidence must be a list of evidence groups"),
        (str(path), 4, "each evidence item must be [annotation_id, evidence_id, page, line]"),
        (str(path), 6, "malformed JSON at column 59: unexpected character")]
    assert as_columns(fast.columns)["evidence"] == [[["Soul_Food_-LRB-film-RRB-\t0"], ["Soul_Food\t7"]], [["P\t5"]],
                                                    [['Say_"12",_3\t4', "Caf\u00e9_\u6771\u4eac_49ers\t12"]]]


PREDICTIONS = [
    {"id": 0, "predicted_label": "SUPPORTS", "predicted_evidence": [["49ers\u2013Seahawks_rivalry", 0], ["Tilda", 12]]},
    {"id": 1, "predicted_label": "REFUTES", "predicted_evidence": [['The_"Good",_2', 3], [None, None]]},
    {"id": 2, "predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []},
    {"id": 3, "predicted_label": "SUPPORTS"},
    {"id": 4, "predicted_label": "SUPPORTS", "predicted_evidence": [[7, -8]]},
]
BAD_PREDICTIONS = [
    {"id": 10, "predicted_label": "SUPPORTS", "predicted_evidence": [["P"]]},
    {"id": 11, "predicted_label": "SUPPORTS", "predicted_evidence": [["P", 0.0]]},
    {"id": 12, "predicted_label": "SUPPORTS", "predicted_evidence": [[["P", 1]]]},
    {"id": 13, "predicted_label": "SUPPORTS", "predicted_evidence": ["P", 1]},
    b'{"id": 14, "predicted_label": "SUPPORTS", "predicted_evidence": [["P", 1]]]}\n',
    b'{"id": 15, "predicted_label": "SUPPORTS", "predicted_evidence": [["P\\ud800", 1]]}\n',  # a lone surrogate:
    b'{"id": 16, "predicted_label": "SUPPORTS", "predicted_evidence": [["\\u00e9\\uDFFF", 1]]}\n',  # orjson refuses
]


def test_predicted_evidence_is_read_on_arrow_and_falls_back_where_it_must(tmp_path, decoded_blocks):
    path = _write(tmp_path / "system.jsonl", PREDICTIONS * 5)
    fast = load_predictions(path, FIELDS, None, FEVER)
    assert not decoded_blocks
    _same(fast, load_predictions(path, FIELDS, None, DecodedFever()),
          load_predictions(path, FIELDS, None, RowByRowFever()))
    assert as_columns(fast.columns)["predicted_evidence"][:5] == [
        ["49ers\u2013Seahawks_rivalry\t0", "Tilda\t12"], ['The_"Good",_2\t3', "None\t"], [], None, ["7\t-8"]]
    for bad in BAD_PREDICTIONS:
        path = _write(tmp_path / "system.jsonl", [*PREDICTIONS * 2, bad, *PREDICTIONS * 2])
        _same(load_predictions(path, FIELDS, None, FEVER), load_predictions(path, FIELDS, None, DecodedFever()),
              load_predictions(path, FIELDS, None, RowByRowFever()))


def test_the_column_readers_refuse_what_the_value_readers_would_read_another_way():
    items = pa.array([[[["1", "2", "P", "3"]]], [[["1", "2", "P", "03"]]]], pa.list_(pa.list_(pa.list_(pa.string()))))
    assert gold_evidence_column(items[:1]).to_pylist() == [[["P\t3"]]]
    assert gold_evidence_column(items) is None
    assert gold_evidence_column(pa.array([[None]], items.type)) is None
    pairs = pa.list_(pa.list_(pa.string()))
    assert predicted_evidence_column(pa.array([[["P", None, "x"]]], pairs)) is None
    assert predicted_evidence_column(pa.array([None, [["P", None]]], pairs)).to_pylist() == [None, ["P\t"]]


def test_pairs_without_a_null_are_joined_on_their_bytes_as_the_value_reader_joins_them():
    pairs = pa.list_(pa.list_(pa.string()))
    values = [[["49ers\u2013Seahawks_rivalry", 0], ["a\tb", -12]], None, [], [["Caf\u00e9_\u6771\u4eac", 123456789012345678]],
              [["", 7], ["None", 10]]]
    column = pa.array([None if value is None else [[page, str(line)] for page, line in value] for value in values],
                      pairs)
    expected = [["49ers\u2013Seahawks_rivalry\t0", "a\tb\t-12"], None, [], ["Caf\u00e9_\u6771\u4eac\t123456789012345678"],
                ["\t7", "None\t10"]]
    assert [None if value is None else predicted_evidence_sentences(value) for value in values] == expected
    assert predicted_evidence_column(column).to_pylist() == expected
    assert predicted_evidence_column(column.slice(1)).to_pylist() == expected[1:]
    assert predicted_evidence_column(column.slice(3, 2)).to_pylist() == expected[3:]


@pytest.mark.parametrize("line", ["05", "-0", "+5", "", " 1", "1 ", "1.0", "1-2", "--1", "-", "x", "1234567890123456789"])
def test_pairs_whose_line_is_not_written_as_python_writes_an_integer_of_at_most_18_digits_are_refused(line):
    pairs = pa.list_(pa.list_(pa.string()))
    assert predicted_evidence_column(pa.array([[["P", "1"]], [["Q", "2"], ["R", line]]], pairs)) is None


@pytest.fixture
def skipping(monkeypatch):
    """Per block, whether all_evidence was skipped (read_json told to leave it out) or the block read another way."""
    taken = []
    skip = quoted_numbers._skipping_unread

    def counted(data, fields, readers):
        table = skip(data, fields, readers)
        taken.append(table is not None)
        return table

    monkeypatch.setattr(quoted_numbers, "_skipping_unread", counted)
    return taken


KEYED = [row for row in GOOD if row["evidence"] is not None]  # a null value's key is not counted: read whole


def test_all_evidence_is_skipped_on_good_blocks_with_the_same_rows(tmp_path, skipping):
    path = _write(tmp_path / "fever.jsonl", KEYED * 6)
    _same(load_questions(path, FEVER, FIELDS, None, PARAMS), load_questions(path, DecodedFever(), FIELDS, None, PARAMS),
          load_questions(path, RowByRowFever(), FIELDS, None, PARAMS))
    assert len(skipping) > 5 and all(skipping)


ODD = [
    {**GOOD[1], "question": "Is the claim true?"},  # a key the first line lacks, which B1 reads (before the claim)
    {**GOOD[1], "note": [1, "x"]},  # a key the first line lacks, of no type
    b'{"id": "x44", "label": "SUPPORTS", "claim": "c", "evidence": [], "all_evidence": []}\n',  # another type than
    {**GOOD[1], "verifiable": 1.5},  # the first line's
    {**GOOD[1], "claim": None},
    {**GOOD[1], "verifiable": {"by": "annotators"}},  # a nested object
    {**GOOD[1], "all_evidence": "none"},  # all_evidence of another shape, or missing
    {key: value for key, value in GOOD[1].items() if key != "all_evidence"},
    b'{"id": 40, "label": "SUPPORTS", "claim": "c", "evidence": [], "all_evidence": [1,, 2]}\n',  # malformed
    b'{"id": 41, "label": "SUPPORTS", "claim": "c", "evidence": [], "all_evidence": [], "all_evidence": [[1]]}\n',
    b'{"id": 42, "label": "SUPPORTS", "claim": "c", "evidence": [], "all_evidence": [], "label": "REFUTES"}\n',
    b'{"id": 43, "label": "SUPPORTS", "claim": "c", "evidence": [], "cl\\u0061im": "d", "all_evidence": []}\n',
]


@pytest.mark.parametrize("odd", range(len(ODD)))
def test_a_block_whose_keys_or_types_are_not_the_first_lines_is_read_as_before(tmp_path, monkeypatch, odd, skipping):
    """all_evidence is skipped only where every top-level key is one whose type the first line gives (or
    all_evidence) and that type holds: any other block is read whole, with the same rows and rejects."""
    monkeypatch.setattr(jsonl_blocks, "BLOCK_BYTES", 1500)  # the odd line inside a block, not first
    rows = [*KEYED, *KEYED[:3], ODD[odd], *KEYED[3:], *KEYED]
    path = _write(tmp_path / "fever.jsonl", [row if isinstance(row, bytes) else {**row, "id": i} for i, row in
                                             enumerate(rows)])
    _same(load_questions(path, FEVER, FIELDS, None, PARAMS), load_questions(path, DecodedFever(), FIELDS, None, PARAMS),
          load_questions(path, RowByRowFever(), FIELDS, None, PARAMS))
    assert True in skipping
    assert (False in skipping) == (odd not in (7, 9))  # no all_evidence, or two: each of its keys is counted
