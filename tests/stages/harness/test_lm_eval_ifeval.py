"""lm-eval's ifeval and leaderboard_ifeval samples (files lm-eval 0.4.13 wrote) read as ifeval runs: each prompt with
its instructions and their arguments, the reply, and lm-eval's four figures."""
import json
from pathlib import Path

from stages.harness.lm_eval import read_lm_eval
from stages.harness.lm_eval_ifeval import is_ifeval_run

GPT4 = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files" / "lm_eval_ifeval" / "gpt4"


def test_ifeval_samples_become_ifeval_runs_with_lm_evals_figures():
    runs = {run.task: run for run in read_lm_eval([GPT4])}
    assert set(runs) == {"ifeval_local", "leaderboard_ifeval_local"}
    samples = [json.loads(line) for line in next(GPT4.glob("samples_ifeval_local_*.jsonl")).read_text().splitlines()]
    results = json.loads(next(GPT4.glob("results_*.json")).read_text())["results"]["ifeval_local"]
    run = runs["ifeval_local"]
    assert run.kind == "ifeval" and len(run.questions) == len(samples)
    assert [q["instruction_id_list"] for q in run.questions] == [s["doc"]["instruction_id_list"] for s in samples]
    assert [q["prompt"] for q in run.questions] == [s["doc"]["prompt"] for s in samples]
    assert run.metrics["prompt_level_strict"] == results["prompt_level_strict_acc,none"]
    assert run.metrics["instruction_level_loose"] == results["inst_level_loose_acc,none"]


def test_a_run_is_ifeval_when_every_document_carries_a_prompt_its_instruction_ids_and_kwargs():
    ifeval = {"doc": {"prompt": "Write without commas.", "instruction_id_list": ["punctuation:no_comma"],
                      "kwargs": [{}]}}
    assert is_ifeval_run([(1, ifeval)])
    assert not is_ifeval_run([(1, ifeval), (2, {"doc": {"question": "q", "answers": ["a"]}})])
    assert not is_ifeval_run([])
