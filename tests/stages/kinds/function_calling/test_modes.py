"""BFCL's [generate] modes as handlers looked up by name: tools the default and listed first, each sending the
functions, a missed turn, a step's reply and its results its own way."""
from __future__ import annotations

import pytest

from stages.core.errors import UsageError
from stages.kinds import get_kind
from stages.kinds.function_calling.modes import get_mode, mode_names
from stages.kinds.function_calling.prompting import system_prompt

DOC = {"name": "math.add", "description": "Add.", "parameters": {"type": "dict", "properties": {
    "a": {"type": "integer", "description": "A."}}, "required": ["a"]}}
TURN = [{"role": "user", "content": "Add 1."}]
CALL = {"id": "c1", "type": "function", "function": {"name": "math_add", "arguments": "{\"a\": 1}"}}


def test_tools_is_the_default_and_the_kind_offers_both_modes_tools_first():
    assert get_mode(None) is get_mode("tools")
    assert mode_names() == ("tools", "prompt") == get_kind("function_calling").generate_modes
    with pytest.raises(UsageError, match="unknown function_calling mode 'xml'"):
        get_mode("xml")


def test_tools_mode_sends_the_functions_as_tools_and_reads_tool_calls():
    tools = get_mode("tools")
    assert tools.opening(TURN, [DOC]) == TURN
    assert [tool["function"]["name"] for tool in tools.tools([DOC])] == ["math_add"] and tools.tools([]) is None
    record = {"prediction": "", "tool_calls": [CALL]}
    assert tools.step_reply(record) == [{"math_add": "{\"a\": 1}"}]
    assert tools.execution_strings(tools.step_reply(record)) == ["math_add(a=1)"]
    assert tools.step_reply({"prediction": "no call", "tool_calls": None}) == "no call"
    assert tools.results_messages(record, ["math_add(a=1)"], ["2"]) == [
        {"role": "tool", "content": "2", "tool_call_id": "c1"}]


def test_prompt_mode_puts_the_functions_in_the_system_prompt_and_reads_the_text():
    prompt = get_mode("prompt")
    assert prompt.opening(TURN, [DOC]) == [{"role": "system", "content": system_prompt([DOC])}, *TURN]
    assert prompt.tools([DOC]) is None
    record = {"prediction": "[math.add(a=1)]", "tool_calls": [CALL]}
    assert prompt.step_reply(record) == "[math.add(a=1)]"
    assert prompt.execution_strings("[math.add(a=1)]") == ["math.add(a=1)"]
    assert prompt.results_messages(record, ["math.add(a=1)"], ["2"]) == [
        {"role": "user", "content": "[{'role': 'tool', 'name': 'math.add(a=1)', 'content': '2'}]"}]
