"""lm-eval's samples read as runs, in files lm-eval 0.4.13 wrote: SQuAD as open QA with every row's question, golds
and answer as the samples file holds them, and the metrics as its results file reports them."""
import json
from pathlib import Path

from stages.harness.imported import ImportedRun
from stages.harness.lm_eval import read_lm_eval

BERT = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files" / "lm_eval" / "bert"


def _raw() -> tuple[list[dict], dict]:
    samples = [json.loads(line) for line in next(BERT.glob("samples_*.jsonl")).read_text().splitlines()]
    return samples, json.loads(next(BERT.glob("results_*.json")).read_text())


def test_squad_samples_become_a_qa_run_with_the_harness_figures_beside():
    (run,) = read_lm_eval([BERT])
    samples, results = _raw()
    assert isinstance(run, ImportedRun)
    assert (run.tool, run.task, run.model, run.kind) == ("lm-eval", "squad_local", "bert", "qa")
    assert run.tool_version == results["lm_eval_version"]
    assert [q["id"] for q in run.questions] == [s["doc"]["id"] for s in samples]
    assert [q["answers"] for q in run.questions] == [s["doc"]["answers"] for s in samples]
    assert [p["prediction"] for p in run.predictions] == [s["filtered_resps"][0] for s in samples]
    reported = results["results"]["squad_local"]
    assert run.metrics == {"exact_match": reported["exact_match,none"]}
    assert run.provenance()["file"].endswith(".jsonl") and run.set_aside == []
