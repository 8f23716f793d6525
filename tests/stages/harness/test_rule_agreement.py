"""The harness's verdicts against evalpipe's row by row, and the gold an lm-eval math target holds."""
import pytest

from stages.harness.lm_eval_math import is_math_task, math_gold, raw_replies
from stages.harness.rule_agreement import read_verdicts, rule_disagreements


def test_disagreements_each_way_with_the_first_example():
    verdicts, set_aside = read_verdicts(
        b'{"id": "a", "verdicts": {"em": 1, "mv": 1}}\n{"id": "b", "verdicts": {"em": 0, "mv": 1}}\n'
        b'{"id": "c", "verdicts": {"em": 1, "mv": 0.5}, "answers": {}}\n\n{"id": "d"}\n[1\n', "v.jsonl")
    assert set_aside[0] == "v.jsonl:5: KeyError: 'verdicts'" and set_aside[1].startswith("v.jsonl:6: JSONDecodeError")
    rows = [{"id": "a", "correct": False, "gold": "1", "extracted": "2", "reason": "boxed; 2 not equal to the gold 1"},
            {"id": "b", "correct": True, "gold": "3", "extracted": "3", "reason": "boxed"},
            {"id": "c", "correct": None, "gold": "4", "extracted": "4", "reason": "not compared"},
            {"id": "e", "correct": True, "gold": "5", "extracted": "5", "reason": "boxed"}]
    found = rule_disagreements(verdicts, rows)
    assert found["em"]["rows"] == 2 and found["em"]["disagree"] == 2  # c not compared by evalpipe, e not by the harness
    assert found["em"]["right_by_harness_only"]["rows"] == 1
    assert found["em"]["right_by_harness_only"]["example"] == {
        "id": "a", "gold": "1", "evalpipe_answer": "2", "reason": "boxed; 2 not equal to the gold 1"}
    assert found["em"]["right_by_evalpipe_only"]["example"]["id"] == "b"
    assert found["mv"] == {"rows": 2, "disagree": 1, "right_by_harness_only": found["mv"]["right_by_harness_only"],
                           "right_by_evalpipe_only": {"rows": 0}}  # 0.5 is not a verdict


@pytest.mark.parametrize("record, gold", [
    ({"target": "#### 1,234"}, "1,234"),
    ({"target": "Natalia sold 48/2 = 24 clips.\n#### 72"}, "72"),
    ({"target": "so it is $\\boxed{\\frac{1}{2}}$."}, "\\frac{1}{2}"),
    ({"target": "\\left(3,\\frac{\\pi}{2}\\right)"}, "\\left(3,\\frac{\\pi}{2}\\right)"),
    ({"target": " ", "doc": {"Expected_Answer": 204}}, "204"),
])
def test_the_gold_is_the_targets_final_answer(record, gold):
    assert math_gold(record) == gold


def test_no_gold_is_refused_and_repeats_are_read():
    with pytest.raises(ValueError, match="no gold answer"):
        math_gold({"target": "", "doc": {"problem": "x"}})
    with pytest.raises(TypeError, match="a reply is a int"):
        raw_replies({"resps": [["a", 3]]})
    assert raw_replies({"resps": [["<think>x</think> 4"]]}) == ["<think>x</think> 4"]
    assert raw_replies({"resps": [["a", "b"]]}) == ["a", "b"]


def test_math_tasks_by_lm_evals_names():
    assert all(map(is_math_task, ["minerva_math_algebra", "hendrycks_math500", "leaderboard_math_algebra_hard",
                                  "gsm8k", "gsm8k_cot", "gsm8k_cot_zeroshot", "aime", "aime24", "aime25"]))
    assert not any(map(is_math_task, ["squad_local", "mathqa", "cmmlu_agronomy", "triviaqa"]))
