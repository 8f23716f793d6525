"""report.html: self-contained, renders in a real browser without console errors, shows its charts, sorts."""
import re
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page

INPUTS = Path(__file__).resolve().parent.parent.parent / "inputs"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    outputs = tmp_path_factory.mktemp("html") / "outputs"
    assert main(["run", "--inputs", str(INPUTS), "--outputs", str(outputs)]) == 0
    return outputs / "report.html"


def _body_attributes(dom: str) -> dict[str, str]:
    body = re.search(r"<body([^>]*)>", dom).group(1)
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', body))


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    assert not re.search(r"""\b(src|href)\s*=|url\(|@import|<link\b""", html, re.IGNORECASE)
    assert '<script src' not in html and html.count("<script>") == 1


def test_report_has_the_charts_the_issue_names(report):
    html = report.read_text(encoding="utf-8")
    labels = re.findall(r'<svg class="chart"[^>]*aria-label="([^"]*)"', html)
    assert "Primary metric per dataset" in labels and "Extraction / parse rate" in labels
    assert {"model_a: confusion matrix", "model_b: confusion matrix"} <= set(labels)
    assert "peppa_dialogue: combined_score per item (count)" in labels
    assert "numeric_finance: mean_overall per item (count)" in labels
    for dataset in ("fact_check", "mc_mixed", "numeric_finance", "peppa_dialogue", "qa_mixed", "story_annotation"):
        assert f"{dataset}: metrics" in labels


def test_report_renders_in_a_browser_without_console_errors(report, tmp_path):
    dom, console = load_page(report, tmp_path / "profile")
    assert console == []
    attributes = _body_attributes(dom)
    assert int(attributes["charts"]) >= 15
    assert attributes["charts-drawn"] == attributes["charts"]


def test_tables_sort_when_a_header_is_clicked(report, tmp_path):
    """Click the summary table's score header twice in the browser and read back the row order."""
    probe = """<script>
const table = document.querySelector("table.sortable"), header = table.tHead.rows[0].cells[4];
const scores = () => Array.from(table.tBodies[0].rows).map(r => r.cells[4].dataset.value).join(",");
header.click(); document.body.dataset.ascending = scores();
header.click(); document.body.dataset.descending = scores();
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    attributes = _body_attributes(dom)
    ascending = [float(v) for v in attributes["ascending"].split(",")]
    descending = [float(v) for v in attributes["descending"].split(",")]
    assert ascending == sorted(ascending) and descending == sorted(ascending, reverse=True)
    assert len(ascending) == 12


def test_headline_metrics_carry_intervals_and_model_pairs_their_differences(report):
    from stages.io.artifacts import read_artifact_json

    qa = read_artifact_json(report.parent / "qa_mixed" / "B6_report.json")["report"]
    interval = qa["intervals"]["model_a"]["exact_match"]
    assert interval["method"] == "Wilson score" and interval["n"] == 12
    assert interval["low"] < qa["models"]["model_a"]["exact_match"] < interval["high"]
    (difference,) = qa["differences"]
    assert (difference["first"], difference["second"], difference["metric"]) == ("model_a", "model_b", "f1")
    html = report.read_text(encoding="utf-8")
    assert html.count('title="Wilson score, n = ') >= 6 and "Model against model (paired, same items)" in html
    assert 'title="95% interval, Wilson score, n = 12"' in html  # per-dataset headline cells too
