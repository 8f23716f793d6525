"""JSON depth found before a parser sees the text: exact for valid JSON (brackets in strings not counted), and a text
nested too deep set aside as a reject or refused like malformed JSON, never parsed."""
import orjson
import pytest

from stages.io.json_depth import MAX_JSON_DEPTH, lines_with_many_openers, load_json, nesting_depth, too_deep
from stages.io.jsonl_blocks import line_bounds
from stages.io.readers import decode_jsonl_line


@pytest.mark.parametrize(("text", "depth"), [
    (b'{"a": 1}', 1), (b"[[[]]]", 3), (b'{"a": "]]]]]]", "b": [[1]]}', 3), (b'["[[[[", {"x": "\\"[["}]', 2),
    (b'"just a string [["', 0), (b"42", 0), (b'[{"a": [{"b": []}]}]', 5),
])
def test_nesting_depth_counts_structure_only(text, depth):
    assert nesting_depth(text) == depth


def test_many_brackets_side_by_side_are_not_deep():
    wide = b"[" + b",".join([b"{}"] * 5000) + b"]"
    assert nesting_depth(wide) == 2 and not too_deep(wide)
    assert too_deep(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))
    assert not too_deep(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH)


def test_a_deep_line_is_a_reject_and_a_deep_text_a_decode_error():
    deep = b"[" * 200_000 + b"]" * 200_000
    assert decode_jsonl_line("f.jsonl", 7, deep).reason == "JSON nested deeper than 500 levels"
    assert decode_jsonl_line("f.jsonl", 7, deep).line == 7
    with pytest.raises(orjson.JSONDecodeError, match="nested deeper"):
        load_json(deep)
    assert load_json('{"a": [1, 2]}') == {"a": [1, 2]}


def test_only_lines_with_more_openers_than_the_limit_are_flagged():
    lines = [b'{"a": 1}', b"[" * 3 + b"]" * 3, b'{"text": "' + b"x" * 5000 + b'"}',
             b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1), b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH,
             b"[" + b"{}," * MAX_JSON_DEPTH + b"{}]", b""]
    data = b"\n".join(lines) + b"\n"
    starts, ends, _ = line_bounds(data)
    assert lines_with_many_openers(data, starts, ends).tolist() == [False, False, False, True, False, True, False]
    assert lines_with_many_openers(data, starts, ends, limit=2).tolist() == [False, True, False, True, True, True,
                                                                             False]
