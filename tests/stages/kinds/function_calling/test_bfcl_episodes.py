"""Multi-turn episodes verdict for verdict with bfcl-eval's multi_turn_checker: results to the first five items of
each multi-turn category (the ground truth replayed, in one step or a call per step, with chatter between, a turn
left empty, a call dropped or repeated, an argument changed, the episode cut short, a function-calling model's
calls), each with bfcl-eval's verdict (make_bfcl_reference.py). The episodes run on bfcl-eval's mock APIs, so the
test needs bfcl-eval installed (`pip install --no-deps bfcl-eval==2026.3.23 mpmath`)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from stages.kinds.function_calling.files import load_items
from stages.kinds.function_calling.verdicts import FUNCTION_CALLS, TEXT, category_of, item_verdict

pytest.importorskip("bfcl_eval.eval_checker.multi_turn_eval.func_source_code.gorilla_file_system")
EPISODES = Path(__file__).parent / "bfcl_reference" / "episodes.jsonl"


def test_every_episode_verdict_is_bfcl_evals(real_data):
    cases = [json.loads(line) for line in EPISODES.read_text().splitlines()]
    assert len(cases) > 150 and {True, False} == {case["valid"] for case in cases}
    items = {}
    for category in sorted({category_of(case["id"]) for case in cases}):
        loaded = load_items(real_data / "bfcl" / f"BFCL_v4_{category}.json", {}).columns
        items.update({item_id: (loaded["answer"][i], loaded["episode"][i]) for i, item_id in enumerate(loaded["id"])})
    differing = []
    for case in cases:
        answer, episode = items[case["id"]]
        reply_format = FUNCTION_CALLS if isinstance(case["result"], list) else TEXT
        verdict, _ = item_verdict(category_of(case["id"]), [], json.loads(answer), case["result"], reply_format,
                                  json.loads(episode))
        if (verdict.valid, verdict.error_type) != (case["valid"], case["error_type"]):
            differing.append((case["id"], case["case"], verdict, case["error_type"]))
    assert differing == []
    assert Counter(case["error_type"] for case in cases)["multi_turn:instance_state_mismatch"] > 10


def test_an_episodes_verdict_keeps_each_turns_calls_results_and_verdict():
    """MathAPI (stateless): turn 0 right (its text step, "done", kept as said), turn 1 wrong (add(1, 3) answers 4;
    10 is among no result of the model's),
    turn 2 not checked."""
    episode = {"category": "multi_turn_base", "involved_classes": ["MathAPI"], "initial_config": {}}
    truth = [["add(a=1, b=2)"], ["add(a=5, b=5)"], ["add(a=2, b=2)"]]
    verdict, _ = item_verdict("multi_turn_base", [], truth,
                              [["[add(a=1, b=2)]", "done"], ["[add(a=1, b=3)]"], ["[add(a=2, b=2)]"]], TEXT, episode)
    assert (verdict.valid, verdict.error_type) == (False, "multi_turn:execution_response_mismatch")
    assert verdict.turns == [
        {"steps": [[{"call": "add(a=1, b=2)", "result": '{"result": 3}'}]], "expected": ["add(a=1, b=2)"],
         "verdict": "right", "said": ["done"]},
        {"steps": [[{"call": "add(a=1, b=3)", "result": '{"result": 4}'}]], "expected": ["add(a=5, b=5)"],
         "verdict": "multi_turn:execution_response_mismatch: turn 1: 1 expected result(s) not among the model's",
         "said": []},
        {"steps": [[{"call": "add(a=2, b=2)", "result": None}]], "expected": ["add(a=2, b=2)"],
         "verdict": "not checked (an earlier turn failed)", "said": []}]
    short, _ = item_verdict("multi_turn_base", [], truth, [["[add(a=1, b=2)]"]], TEXT, episode)
    assert short.error_type == "multi_turn:force_terminated" and short.turns == [
        {"steps": [[{"call": "add(a=1, b=2)", "result": None}]], "expected": expected,
         "verdict": "not checked (1 turns, expected 3)", "said": []} for expected in truth[:1]] + [
        {"steps": [], "expected": expected, "verdict": "not checked (1 turns, expected 3)", "said": []}
        for expected in truth[1:]]
