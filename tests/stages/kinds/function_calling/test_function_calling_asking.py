"""What function_calling sends when it asks live, against bfcl-eval's own: its default system prompt for prompt mode,
the language hints on every function doc, the step limit and the missed-function turn's message (compared with an
installed bfcl-eval where there is one), and the messages built from an item's turns."""
import json

import pytest

from stages.kinds.function_calling.agent import STEP_LIMIT
from stages.kinds.function_calling.hints import with_language_hints
from stages.kinds.function_calling.modes import get_mode
from stages.kinds.function_calling.prompting import ADDED_FUNCTIONS, results_message, system_prompt, with_system_prompt

DOC = {"name": "Cache.put", "description": "Store a value.", "parameters": {"type": "dict", "properties": {
    "key": {"type": "String", "description": "Key."}, "ttl": {"type": "long", "description": "Seconds."},
    "tags": {"type": "ArrayList", "description": "Tags.", "items": {"type": "String"}}}}}


def test_java_parameters_go_as_strings_saying_their_type():
    hinted = with_language_hints([DOC], "java")[0]
    assert hinted["description"] == "Store a value. Note that the provided function is in Java 8 SDK syntax."
    assert hinted["parameters"]["properties"] == {
        "key": {"type": "string", "description": "Key. This is Java String type parameter in string representation."},
        "ttl": {"type": "string", "description": "Seconds. This is Java long type parameter in string representation."},
        "tags": {"type": "string", "description": "Tags. This is Java ArrayList type parameter in string "
                 "representation. The list elements are of type String; they are not in string representation."}}
    assert DOC["parameters"]["properties"]["ttl"]["type"] == "long"  # the item's own docs are left as they are


def test_the_system_prompt_joins_an_items_own_system_message():
    own = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    joined = with_system_prompt(own, [DOC])
    assert joined[0]["content"] == system_prompt([DOC]) + "\n\nBe brief." and joined[1:] == own[1:]
    alone = with_system_prompt(own[1:], [DOC])
    assert alone == [{"role": "system", "content": system_prompt([DOC])}, own[1]]
    assert system_prompt([DOC]).endswith("that you can invoke.\n" + json.dumps([DOC], indent=4) + "\n")


def test_missed_functions_and_results_in_prompt_mode_are_pythons_text():
    assert get_mode("tools").added_functions([DOC]) == ([DOC], {"role": "user", "content": ADDED_FUNCTIONS})
    assert get_mode("prompt").added_functions([DOC]) == ([], {"role": "user",
                                                             "content": str([DOC]) + "\n" + ADDED_FUNCTIONS})
    assert results_message(["ls()"], ['{"a": 1}']) == {
        "role": "user", "content": "[{'role': 'tool', 'name': 'ls()', 'content': '{\"a\": 1}'}]"}


def test_the_protocols_constants_are_bfcl_evals():
    prompts = pytest.importorskip("bfcl_eval.constants.default_prompts")
    assert STEP_LIMIT == prompts.MAXIMUM_STEP_LIMIT
    assert ADDED_FUNCTIONS == prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC
    assert get_mode("prompt").added_functions([DOC])[1]["content"] == \
        prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING.format(functions=[DOC])
    style, output = prompts.PROMPT_STYLE_TEMPLATES["classic"], prompts.OUTPUT_FORMAT_MAPPING["python"]
    assert prompts.DEFAULT_SYSTEM_PROMPT_FORMAT == \
        "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"
    expected = prompts.PROMPT_TEMPLATE_MAPPING["plaintext"].format(  # as bfcl-eval's formulate_system_prompt joins it
        persona=style["persona"], task=style["task"],
        tool_call_format=style["tool_call_no_tag"].format(output_format=output,
                                                          param_types=prompts.PARAM_TYPE_MAPPING["python"]),
        multiturn_behavior=style["multiturn_behavior"],
        available_tools=style["available_tools"].format(format="json", functions=json.dumps([DOC], indent=4)))
    assert system_prompt([DOC]) == expected


def test_language_hints_are_bfcl_evals_on_every_single_turn_doc(real_data):
    bfcl = pytest.importorskip("bfcl_eval.utils")
    checked = 0
    for category, language in (("simple_java", "java"), ("simple_javascript", "javascript"),
                               ("simple_python", "python"), ("live_multiple", "python")):
        for line in (real_data / "bfcl" / f"BFCL_v4_{category}.json").read_text().splitlines():
            functions = json.loads(line)["function"]
            assert with_language_hints(functions, language) == \
                bfcl._func_doc_language_specific_pre_processing(json.loads(json.dumps(functions)), category)
            checked += 1
    assert checked > 1000


CATEGORIES = ("simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
              "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_relevance",
              "live_irrelevance", "irrelevance")


def _rows(real_data, category):
    from stages.kinds.function_calling.files import load_items

    columns = load_items(real_data / "bfcl" / f"BFCL_v4_{category}.json", {}).columns
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def test_every_item_is_asked_with_what_bfcl_evals_inference_loads(real_data):
    """Each item's first turn, its docs with their hints — a multi-turn item's from multi_turn_func_doc/, missed
    functions withheld — equal to bfcl-eval's own load_dataset_entry (where bfcl-eval is installed)."""
    bfcl = pytest.importorskip("bfcl_eval.utils")
    from stages.chat.generation import GenerateConfig
    from stages.kinds.function_calling.live import _episode, _single_case

    config, differing, checked = GenerateConfig(protocol="openai", url="http://127.0.0.1:9", models=("m",)), [], 0
    for category in CATEGORIES:
        theirs = {entry["id"]: entry for entry in bfcl.load_dataset_entry(category)}
        for row in _rows(real_data, category):
            case, entry = _single_case(row, config, get_mode("prompt")), theirs[row["id"]]
            if case["messages"] != with_system_prompt(entry["question"][0], entry["function"]):
                differing.append(row["id"])
            checked += 1
    for category in ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"):
        theirs = {entry["id"]: entry for entry in bfcl.load_dataset_entry(category)}
        for row in _rows(real_data, category):
            episode, entry = _episode(row, config), theirs[row["id"]]
            if (episode.turns, episode.functions, episode.missed) != (
                    entry["question"], entry["function"], entry.get("missed_function", {})):
                differing.append(row["id"])
            checked += 1
    assert differing == [] and checked > 4000
