"""The demo datasets shipped in inputs/ run end to end with the numbers worked out for them."""
from pathlib import Path

import pytest

from pipeline.artifacts import read_artifact
from pipeline.cli import main

INPUTS = Path(__file__).resolve().parent.parent.parent / "inputs"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    outputs = tmp_path_factory.mktemp("demo") / "outputs"
    assert main(["run", "--inputs", str(INPUTS), "--outputs", str(outputs)]) == 0
    return outputs


def _metrics(outputs, dataset, model):
    return read_artifact(outputs / dataset / model / "B5_component_scores.json")["metrics"]


def test_every_demo_dataset_is_in_the_summary(outputs):
    summary = read_artifact(outputs / "B6_summary.json")
    assert sorted(summary["datasets"]) == ["fact_check", "mc_mixed", "numeric_finance", "qa_mixed"]
    assert {row["kind"] for row in summary["rows"]} == {"qa", "fact_verification", "multiple_choice", "numeric"}


def test_multiple_choice_demo(outputs):
    assert _metrics(outputs, "mc_mixed", "model_a")["accuracy"] == 1.0
    b = _metrics(outputs, "mc_mixed", "model_b")
    # model_b: m2 c), m4 Mars, m5 土地, m7 北京 right; m1 and m6 wrong letters; m3 ambiguous; m8 unparsed
    assert b["accuracy"] == pytest.approx(4 / 8) and b["extraction_rate"] == pytest.approx(6 / 8)
    rejects = read_artifact(outputs / "mc_mixed/B1_questions.json")["rejects"]
    assert [(r["line"], r["reason"].split(" (")[0]) for r in rejects] == [(9, "no options found")]


def test_numeric_demo(outputs):
    a = _metrics(outputs, "numeric_finance", "model_a")
    assert (a["scorable"], a["unscorable"], a["accuracy"]) == (8, 1, 1.0)
    b = _metrics(outputs, "numeric_finance", "model_b")
    # model_b right on n3 (0.125 = 12.5%), n5 (3400 = 3.4k), n6 (三百万); n1 near miss and n4 一亿 partial
    assert b["accuracy"] == pytest.approx(3 / 8) and b["labels"]["partial"] == 2
    report = read_artifact(outputs / "numeric_finance/B6_report.json")["report"]
    assert report["comparison"]["vs_baseline"]["model_a"]["accuracy"] == pytest.approx(5 / 8)


def test_fact_check_demo(outputs):
    assert _metrics(outputs, "fact_check", "model_a")["accuracy"] == pytest.approx(0.9)
    assert _metrics(outputs, "fact_check", "model_b")["accuracy"] == pytest.approx(0.7)
