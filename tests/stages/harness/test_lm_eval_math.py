"""lm-eval's math tasks (files lm-eval 0.4.13 wrote): which tasks are math, the gold's final answer as the tasks state
it (GSM8K's ####, MATH's last \\boxed{}), the whole replies before lm-eval's filters, repeats as samples, and the
harness's own verdict per row."""
import json
from pathlib import Path

import pytest

from stages.harness.lm_eval import read_lm_eval
from stages.harness.lm_eval_math import is_math_task, math_gold, raw_replies

REASONER = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files" / "lm_eval_math" / "reasoner"


def test_math_tasks_by_name():
    assert all(is_math_task(t) for t in ("minerva_math500", "hendrycks_math_algebra", "gsm8k_cot", "aime24", "amc23",
                                         "leaderboard_math_hard"))
    assert not any(is_math_task(t) for t in ("squad_local", "mmlu", "ifeval"))


def test_the_gold_is_the_final_answer_of_the_target():
    assert math_gold({"target": "She has 5 + 3 = 8 left.\n#### 8"}) == "8"
    assert math_gold({"target": "so \\boxed{\\frac{1}{2}} is it, not \\boxed{3}? no: \\boxed{\\frac{1}{2}}"}) == \
        "\\frac{1}{2}"
    assert math_gold({"target": ["70"]}) == "70"
    assert math_gold({"target": "", "doc": {"Answer": "73"}}) == "73"
    with pytest.raises(ValueError, match="no gold answer"):
        math_gold({"target": " ", "doc": {}})


def test_replies_are_taken_whole_and_repeats_kept_apart():
    assert raw_replies({"resps": [["<think>x</think> 42"]]}) == ["<think>x</think> 42"]
    assert raw_replies({"resps": [["a", "b", "c"]]}) == ["a", "b", "c"]
    with pytest.raises(TypeError):
        raw_replies({"resps": [[None]]})


def test_aime24_rows_carry_the_golds_replies_and_verdicts_lm_eval_wrote():
    runs = {run.task: run for run in read_lm_eval([REASONER])}
    samples = [json.loads(line) for line in next(REASONER.glob("samples_aime24_2026*.jsonl")).read_text().splitlines()]
    aime = runs["aime24"]
    assert aime.kind == "math" and len(aime.questions) == len(samples) == 30
    assert [q["answer"] for q in aime.questions] == [math_gold(s) for s in samples]
    assert [p["prediction"] for p in aime.predictions] == [s["resps"][0][0] for s in samples]
    assert [v["verdicts"]["exact_match"] for v in aime.verdicts] == [s["exact_match"] for s in samples]
    repeats = runs["aime24_repeats"]
    assert all(len(p["samples"]) > 1 for p in repeats.predictions)
    gsm8k = runs["gsm8k"]
    assert set(gsm8k.metrics) == {"exact_match,strict-match", "exact_match,flexible-extract"}
