"""BFCL's prompt mode: its default system prompt (bfcl-eval's formulate_system_prompt with ret_fmt=python,
tool_call_tag=False, func_doc_fmt=json, prompt_fmt=plaintext, style=classic) with the functions as indented JSON,
put before the first turn (joined to the turn's own system message), and a step's results returned in words."""
from __future__ import annotations

import json
from typing import Any

SYSTEM_PROMPT = (  # bfcl-eval's text: persona and task run together, "{param_types}" empty between two spaces
    "You are an expert in composing functions.You are given a question and a set of possible functions. Based on "
    "the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the "
    "functions can be used, point it out. If the given question lacks the parameters required by the function, also "
    "point it out.\n\nYou should only return the function calls in your response.\n\nIf you decide to invoke any of "
    "the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, "
    "params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include any other text in the response."
    "\n\nAt each turn, you should try your best to complete the tasks requested by the user within the current turn. "
    "Continue to output functions to call until you have fulfilled the user's request to the best of your ability. "
    "Once you have no more functions to call, the system will consider the current turn complete and proceed to the "
    "next turn or task.\n\nHere is a list of functions in json format that you can invoke.\n{functions}\n")
ADDED_FUNCTIONS = "I have updated some more functions you can choose from. What about now?"  # a missed function's turn


def system_prompt(functions: list[dict[str, Any]]) -> str:
    return SYSTEM_PROMPT.format(functions=json.dumps(functions, indent=4))


def with_system_prompt(messages: list[dict[str, Any]], functions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first turn's messages with BFCL's system prompt first: joined before the turn's own system message (a
    blank line between), else a system message of its own."""
    prompt = system_prompt(functions)
    if messages and messages[0].get("role") == "system":
        return [{**messages[0], "content": f"{prompt}\n\n{messages[0]['content']}"}, *messages[1:]]
    return [{"role": "system", "content": prompt}, *messages]


def results_message(calls: list[str], results: list[str]) -> dict[str, str]:
    """A prompting model's step results: one user message holding Python's text of the list of tool results."""
    return {"role": "user", "content": repr([{"role": "tool", "name": call, "content": result}
                                             for call, result in zip(calls, results)])}
