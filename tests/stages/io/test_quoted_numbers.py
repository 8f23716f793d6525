"""The integers of named fields quoted in a JSON-lines block, outside strings only, or the block refused (None) when the
scan cannot vouch that pyarrow.json would then read it as orjson reads it."""
import io

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.json as pj
import pytest

from stages.io import quoted_numbers
from stages.io.jsonl_blocks import LineBlock
from stages.io.quoted_numbers import QuotedField, quoted_integers, quoted_table, with_mark_before

EVIDENCE = ("evidence", "all_evidence")


@pytest.fixture(autouse=True, params=[1 << 20, 1])
def piece_bytes(request, monkeypatch):
    """The block scanned whole, and a line at a time."""
    monkeypatch.setattr(quoted_numbers, "PIECE_BYTES", request.param)


def _quoted(lines: list[bytes], names=EVIDENCE) -> list[dict] | None:
    data = quoted_integers(b"\n".join(lines) + b"\n", names)
    return None if data is None else [orjson.loads(line) for line in data.splitlines()]


def test_integers_inside_the_fields_become_text_and_nothing_else_changes():
    lines = [b'{"id": 7, "evidence": [[[108548, null, "Page_49ers", 0]], [[1, -2, "a, 12]", 13]]], "n": [3]}',
             b'{"all_evidence": [[5, 6, "x", 70]], "claim": "12 [34, 56]", "evidence": null}',
             b'{"meta": {"evidence": [1]}, "evidence" : [ 9 ,10 ], "score": 0.5}']
    assert _quoted(lines) == [
        {"id": 7, "evidence": [[["108548", None, "Page_49ers", "0"]], [["1", "-2", "a, 12]", "13"]]], "n": [3]},
        {"all_evidence": [["5", "6", "x", "70"]], "claim": "12 [34, 56]", "evidence": None},
        {"meta": {"evidence": [1]}, "evidence": ["9", "10"], "score": 0.5}]


def test_escaped_quotes_and_unicode_in_page_names_are_strings_the_scan_steps_over():
    lines = [b'{"evidence": [[[1, 2, "Say_\\"12\\",_3", 4]]], "claim": "\\\\"}',
             '{"evidence": [[[1, 2, "Caf\u00e9_\u6771\u4eac_7", 5]]], "claim": "\\"evidence\\": [1]"}'.encode(),
             b'{"x \\"evidence": [1, 2], "evidence": [[[3, 4, "\\\\", 5]]]}']
    assert _quoted(lines) == [{"evidence": [[["1", "2", 'Say_"12",_3', "4"]]], "claim": "\\"},
                              {"evidence": [[["1", "2", "Caf\u00e9_\u6771\u4eac_7", "5"]]],
                               "claim": '"evidence": [1]'},
                              {'x "evidence': [1, 2], "evidence": [[["3", "4", "\\", "5"]]]}]


def test_a_block_without_the_fields_comes_back_unchanged():
    data = b'{"id": 1, "claim": "no evidence"}\n{"id": 2}\n'
    assert quoted_integers(data, EVIDENCE) == data


@pytest.mark.parametrize("line", [
    b'{"evidence": [[[1, 2, "P", 007]]]}',  # leading zero: not JSON, and int() would write 7
    b'{"evidence": [[[1, 2, "P", -0]]]}',  # int() reads -0 as 0
    b'{"evidence": [[[1, 2, "P", 1234567890123456789]]]}',  # past 18 digits
    b'{"evidence": [[[1, 2, "P", 3]]], "x": NaN}',  # pyarrow.json reads NaN; orjson refuses the line
    b'{"evidence": [[[1, 2, "P", -Infinity]]]}',
    b'{"evidence": [[[1, 2, "P, 3]]]}',  # quotes that do not pair on the line
    b'{"evidence": [[[1, 2, "P", 3]]',  # the array does not close
    b'{"evidence": [[1, 2\n3]], "id": 4}',  # one that runs into the next line
])
def test_a_block_the_scan_cannot_vouch_for_is_refused(line):
    assert quoted_integers(b'{"evidence": [[[1, 2, "Q", 0]]]}\n' + line + b"\n", EVIDENCE) is None


@pytest.mark.parametrize("value", [b"1.5", b"1e3", b"true", b'{"page": "P"}', b"[1]", b"1 2"])
def test_what_the_scan_leaves_unquoted_the_explicit_type_refuses(value):
    """A float, a boolean, an object, a list too deep or two numbers without a comma: the scan quotes only runs of
    digits, and pyarrow.json refuses the rest, so the block is decoded line by line."""
    data = quoted_integers(b'{"evidence": [[[1, 2, "P", ' + value + b"]]]}\n", ("evidence",))
    schema = pa.schema([("evidence", pa.list_(pa.list_(pa.list_(pa.string()))))])
    with pytest.raises(pa.ArrowInvalid):
        pj.read_json(io.BytesIO(data), parse_options=pj.ParseOptions(explicit_schema=schema))


@pytest.mark.parametrize(("escape", "fast"), [(b"\\u00e9", True), (b"\\u0064800", True), (b"\\ud83d\\ude00", False),
                                              (b"\\uDBFF\\uDC00", False), (b"\\ud800", False)])
def test_a_block_with_a_surrogate_escape_is_left_to_the_decoded_path(escape, fast):
    """pyarrow.json and orjson may differ on a surrogate escape, paired or not: such a block is decoded line by line
    (None); other escapes are not."""
    data = b'{"evidence": [[[1, 2, "P' + escape + b'", 3]]]}\n{"evidence": null}\n'
    block = LineBlock(data, first_line=1, first_position=0, records=2, blank=False)
    fields = {"evidence": QuotedField(pa.list_(pa.list_(pa.list_(pa.string()))))}
    table = quoted_table(block, fields, frozenset(), {})
    assert (table is not None) == fast
    if fast:
        assert table.num_rows == 2


def test_a_mark_is_put_before_each_position_of_bytes_or_an_arrow_buffer():
    assert with_mark_before(b"abcd", np.array([0, 1, 1, 4]), b"|").to_pybytes() == b"|a||bcd|"
    assert with_mark_before(pa.py_buffer(b"xxpage7").slice(2), np.array([4]), b"\t").to_pybytes() == b"page\t7"
    assert with_mark_before(b"", np.zeros(0, dtype=np.int64), b'"').to_pybytes() == b""
