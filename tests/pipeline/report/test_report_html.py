"""report.html: self-contained, renders in a real browser without console errors, shows its charts, sorts."""
import re
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page, screenshot
from tests.pipeline.workspace import DEMO_INPUTS

INPUTS = DEMO_INPUTS


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
    loader = "tag.src = part.src;"  # the script's one reference: an item file beside the page, when there are any
    assert html.count(loader) == 1
    assert not re.search(r"""\b(src|href)\s*=|url\(|@import|<link\b""", html.replace(loader, ""), re.IGNORECASE)
    assert '<script src' not in html and html.count("<script>") == 1
    assert not (report.parent / "report_items").exists()  # the demo's items all fit in the page


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
    assert len(ascending) == 14  # qa_mixed shows exact match and F1 for each of its two models


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


FIFTY_MODELS = ("model_a", "model_b", "qwen2.5-72b-instruct", "llama-3.1-8b-instruct", "deepseek-r1-distill-qwen-32b")
GEOMETRY_PROBE = """<script>
const overlaps = [], thin = [], outside = [];
for (const svg of document.querySelectorAll("svg.chart[data-bars]")) {
  const title = svg.getAttribute("aria-label"), box = svg.viewBox.baseVal;
  const labels = Array.from(svg.querySelectorAll("text.tick")).filter(t => !/^[0-9.]+%?$/.test(t.textContent))
    .map(t => t.getBBox());
  labels.forEach((a, i) => labels.slice(i + 1).forEach(b => {
    if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) overlaps.push(title);
  }));
  const legends = Array.from(svg.querySelectorAll("text.legend")).map(t => t.getBBox());
  [...labels, ...legends].forEach(a => {
    if (a.x < 0 || a.x + a.width > box.width || a.y + a.height > box.height) outside.push(title);
  });
  for (const bar of svg.querySelectorAll("rect.bar")) {
    const b = bar.getBBox(), thickness = svg.dataset.bars === "upright" ? b.width : b.height;
    if (thickness < 6) thin.push(title + ": " + thickness);
  }
}
document.body.dataset.overlaps = overlaps.join("|");
document.body.dataset.thin = thin.join("|");
document.body.dataset.outside = outside.join("|");
document.body.dataset.sideways = document.querySelectorAll("svg.chart[data-bars=sideways]").length;
document.body.dataset.upright = document.querySelectorAll("svg.chart[data-bars=upright]").length;
</script></body>"""


def _fifty_datasets(outputs: Path) -> list[dict]:
    """Fifty datasets × five models from the demo's own B6 reports: each report taken again under a longer name,
    its two models' figures given to five models."""
    import copy

    from stages.io.artifacts import read_artifact_json

    demo = [read_artifact_json(path)["report"] for path in sorted(outputs.glob("*/B6_report.json"))]
    reports = []
    for i in range(50):
        report = copy.deepcopy(demo[i % len(demo)])
        report["dataset"] = f"{report['dataset']}_{('zh', 'en', 'nightly_long_variant')[i % 3]}_{i:02d}"
        originals = list(report["models"])
        for key in ("models", "set_aside", "intervals"):
            found = report.get(key) or {}
            report[key] = {model: copy.deepcopy(found.get(originals[j % len(originals)], {}))
                           for j, model in enumerate(FIFTY_MODELS)}
        reports.append(report)
    return reports


def test_fifty_datasets_by_five_models_stay_readable(report, tmp_path):
    """The summary at 50 datasets × 5 models, drawn by Chromium: no two labels of a chart overlap, no label or legend
    entry is cut off by its chart's edge, no bar is a sliver; a screenshot of the page is taken (kept in pytest's tmp
    folder)."""
    from stages.report.html import render_html_report

    page = tmp_path / "fifty.html"
    page.write_text(render_html_report(_fifty_datasets(report.parent), {"title": "fifty datasets"}), encoding="utf-8")
    picture = screenshot(page, tmp_path / "fifty.png", tmp_path / "shot-profile")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 50_000
    probe = tmp_path / "fifty-probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", GEOMETRY_PROBE), encoding="utf-8")
    dom, console = load_page(probe, tmp_path / "profile")
    assert console == []
    attributes = _body_attributes(dom)
    assert attributes["overlaps"] == "" and attributes["thin"] == "" and attributes["outside"] == ""
    assert int(attributes["sideways"]) >= 3  # the summary's three charts, each a band per dataset
    assert int(attributes["upright"]) >= 50  # each dataset's own charts still upright
    assert attributes["charts-drawn"] == attributes["charts"]


def test_a_deep_link_opens_the_explorer_at_its_item(report, tmp_path):
    """report.html#qa_mixed/model_b/q11: qa_mixed's explorer opened with model_b chosen and q11's row scrolled to."""
    probe = """<script>
const row = document.getElementById("qa_mixed/model_b/q11"), box = row.closest("details.explorer");
document.body.dataset.opened = String(box.open) + "," + box.dataset.dataset + "," + box.querySelector(".model-a").value;
document.body.dataset.visible = String(row.getBoundingClientRect().top >= 0
  && row.getBoundingClientRect().bottom <= window.innerHeight && window.scrollY > 0);
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile", "qa_mixed/model_b/q11")
    assert console == []
    attributes = _body_attributes(dom)
    assert attributes["opened"] == "true,qa_mixed,model_b" and attributes["visible"] == "true"
    assert len(re.findall(r'<tr id="[^"]*" class="linked"', dom)) == 1
