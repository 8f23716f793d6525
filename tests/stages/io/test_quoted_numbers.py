"""The integers of named fields quoted in a JSON-lines block, outside strings only, or the block refused (None) when the
scan cannot vouch that pyarrow.json would then read it as orjson reads it."""
import io

import orjson
import pyarrow as pa
import pyarrow.json as pj
import pytest

from stages.io import quoted_numbers
from stages.io.quoted_numbers import quoted_integers

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
