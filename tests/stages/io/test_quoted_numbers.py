"""The integers of named fields quoted in a JSON-lines block, outside strings only, or the block refused (None) when the
scan cannot vouch that pyarrow.json would then read it as orjson reads it."""
import orjson
import pytest

from stages.io.quoted_numbers import quoted_integers

EVIDENCE = ("evidence", "all_evidence")


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
    b'{"evidence": [[[1, 2, "P", 1.5]]]}',  # not an integer: Python would print 1.5 as written, but 1.50 not
    b'{"evidence": [[[1, 2, "P", 1e3]]]}',
    b'{"evidence": [[[1, 2, "P", 007]]]}',  # leading zero
    b'{"evidence": [[[1, 2, "P", -0]]]}',  # int() reads -0 as 0
    b'{"evidence": [[[1, 2, "P", 1234567890123456789]]]}',  # past 18 digits
    b'{"evidence": [[[1, 2, "P", true]]]}',
    b'{"evidence": [[[1, 2, {"page": "P"}, 3]]]}',
    b'{"evidence": [[[1, 2, "P", 3]]], "x": NaN}',  # pyarrow.json reads NaN; orjson refuses the line
    b'{"evidence": [[[1, 2, "P", -Infinity]]]}',
    b'{"evidence": [[[1, 2, "P, 3]]]}',  # quotes that do not pair on the line
    b'{"evidence": [[[1, 2, "P", 3]]',  # the array does not close
])
def test_a_block_the_scan_cannot_vouch_for_is_refused(line):
    assert quoted_integers(b'{"evidence": [[[1, 2, "Q", 0]]]}\n' + line + b"\n", EVIDENCE) is None
