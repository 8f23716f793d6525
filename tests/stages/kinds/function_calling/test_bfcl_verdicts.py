"""The checker verdict for verdict with bfcl-eval: replies to the first items of every single-turn BFCL v4 category
(the possible answer and its perturbations, as a prompting and a function-calling model write them), each with the
verdict bfcl-eval's own evaluation gave (make_bfcl_reference.py wrote them, running bfcl-eval 2026.3.23)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from stages.kinds.function_calling.files import load_items
from stages.kinds.function_calling.verdicts import FUNCTION_CALLS, TEXT, category_of, item_verdict

CASES = Path(__file__).parent / "bfcl_reference" / "cases.jsonl"


@pytest.fixture(scope="module")
def items(real_data):
    """Every item the cases answer, read from BFCL's published data with its possible answer."""
    found = {}
    for category in sorted({category_of(case["id"]) for case in _cases()}):
        loaded = load_items(real_data / "bfcl" / f"BFCL_v4_{category}.json", {}).columns
        for index, item_id in enumerate(loaded["id"]):
            found[item_id] = {name: loaded[name][index] for name in ("category", "functions", "answer")}
    return found


def _cases() -> list[dict]:
    return [json.loads(line) for line in CASES.read_text().splitlines()]


def _evalpipe(case: dict, item: dict):
    reply_format = TEXT if isinstance(case["result"], str) or case["model"] == "prompting-model" else FUNCTION_CALLS
    if case["model"] == "fc-model" and isinstance(case["result"], str):
        reply_format = FUNCTION_CALLS  # a function-calling model's text reply decodes as its calls, and fails
    answer = None if item["answer"] is None else json.loads(item["answer"])
    verdict, _ = item_verdict(item["category"], json.loads(item["functions"]), answer, case["result"], reply_format)
    return verdict


def test_every_verdict_and_error_type_is_bfcl_evals(items):
    cases = _cases()
    assert len(cases) > 2000 and Counter(case["valid"] for case in cases)[True] > 500
    assert {category_of(case["id"]) for case in cases} >= {"simple_python", "simple_java", "simple_javascript",
                                                           "multiple", "parallel", "parallel_multiple",
                                                           "irrelevance", "live_simple", "live_multiple",
                                                           "live_parallel", "live_parallel_multiple",
                                                           "live_irrelevance", "live_relevance"}
    differing = []
    for case in cases:
        verdict = _evalpipe(case, items[case["id"]])
        if (verdict.valid, verdict.error_type) != (case["valid"], case["error_type"]):
            differing.append((case["model"], case["id"], case["case"], case["result"], verdict, case["error_type"]))
    assert differing == []


def test_the_cases_cover_each_perturbation_with_both_verdicts():
    """Each perturbation is somewhere valid or invalid as bfcl-eval says — the cases are not all one verdict."""
    by_case: dict[str, set] = {}
    for case in _cases():
        by_case.setdefault(case["case"], set()).add(case["valid"])
    assert by_case["exact"] == {True, False}  # live_relevance's exact call is valid; some answers' dicts are not
    assert by_case["wrong_name"] == {False, True}  # irrelevance: any call is wrong, relevance: any call is right
    for case in ("extra_param", "missing_required", "other_string", "string_as_number", "broken_syntax"):
        assert False in by_case[case]
    assert True in by_case["string_case_and_spacing"] and True in by_case["reversed"]
