"""Replies read in each format the kind takes: OpenAI tool_calls and plain message content beside bfcl-eval's result
records, and Python call text read without ever being run."""
from __future__ import annotations

import json

import pytest

from stages.kinds.function_calling.files import load_replies
from stages.kinds.function_calling.python_calls import DecodeError, python_calls
from stages.kinds.function_calling.verdicts import TEXT, TOOL_CALLS, decode_reply, item_verdict

DOC = [{"name": "weather.get", "parameters": {"type": "dict", "required": ["city"], "properties": {
    "city": {"type": "string"}, "days": {"type": "integer"}}}}]
ANSWER = [{"weather.get": {"city": ["Paris"], "days": [3, ""]}}]


def _tool_call(name: str, arguments) -> dict:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}


def test_openai_tool_calls_and_message_content_are_read(tmp_path):
    records = [{"id": "simple_python_0", "tool_calls": [_tool_call("weather_get", '{"city": "paris"}')]},
               {"id": "simple_python_1", "message": {"role": "assistant", "content": None,
                                                     "tool_calls": [_tool_call("weather_get", {"city": "Rome"})]}},
               {"id": "simple_python_2", "message": {"role": "assistant", "content": "weather.get(city='Paris')"}},
               {"id": "simple_python_3", "prediction": "It is sunny."}]
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    loaded = load_replies(path, {}).columns
    assert loaded["reply_format"] == [TOOL_CALLS, TOOL_CALLS, TEXT, TEXT]
    verdicts = []
    for reply, reply_format in zip(loaded["prediction"], loaded["reply_format"]):
        reply = json.loads(reply) if reply_format == TOOL_CALLS else reply
        verdict, _ = item_verdict("simple_python", DOC, ANSWER, reply, reply_format)
        verdicts.append((verdict.valid, verdict.error_type))
    assert verdicts == [(True, None), (False, "value_error:string"), (True, None),
                        (False, "ast_decoder:decoder_failed")]


def test_a_tool_calls_name_is_compared_with_its_dots_made_underscores():
    dotted = [_tool_call("weather.get", '{"city": "Paris"}')]
    verdict, decoded = item_verdict("simple_python", DOC, ANSWER, dotted, TOOL_CALLS)
    assert (verdict.valid, verdict.error_type) == (False, "simple_function_checker:wrong_func_name")
    assert decode_reply([_tool_call("weather_get", '{"days": 2}')], TOOL_CALLS, "python") == [
        {"weather_get": {"days": 2}}]


def test_python_call_text_is_read_never_run(tmp_path):
    marker = tmp_path / "ran"
    reply = f"[weather.get(city=__import__('pathlib').Path({str(marker)!r}).touch())]"
    assert python_calls(reply) == [{"weather.get": {"city": f"__import__('pathlib').Path({str(marker)!r}).touch()"}}]
    with pytest.raises(DecodeError):
        python_calls("[weather.get(city=open('/etc/passwd').read() + 'x')]")
    assert not marker.exists()
    assert python_calls("[f(a=2 * 3.5, b='ab' * 2, c=-4, d=(1, 2), e=x)]") == [
        {"f": {"a": 7.0, "b": "abab", "c": -4, "d": (1, 2), "e": "x"}}]


def test_a_relevance_item_may_offer_no_function_an_ast_item_may_not(tmp_path):
    from stages.kinds.function_calling.files import load_items

    question = [[{"role": "user", "content": "Weather in Boston?"}]]
    items = [{"id": "live_irrelevance_120-9-0", "question": question, "function": []},
             {"id": "simple_python_0", "question": question, "function": [], "ground_truth": ANSWER}]
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    loaded = load_items(path, {})
    assert loaded.columns["id"] == ["live_irrelevance_120-9-0"]
    assert [(r.line, r.reason) for r in loaded.rejects] == [
        (2, "function is not a list of function docs (name, parameters.properties): empty")]
    verdict, _ = item_verdict("live_irrelevance", [], None, "[get_weather(city='Boston')]", TEXT)
    assert (verdict.valid, verdict.error_type) == (False, "irrelevance_error:decoder_success")
