"""A run whose items outgrow report.html's budget, in a real browser from file:// with no network: the page embeds no
more than its budget, the rest are loaded from the files beside it on demand — by a deep link, by a filter — and a
file that cannot be read is said on the page."""
import json
import re
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from stages.report.html import render_html_page
from stages.report.item_files import ITEMS_FOLDER, write_report_page
from tests.pipeline.browser import load_page
from tests.pipeline.workspace import write_jsonl

ITEMS = 150
BUDGET = 20_000  # bytes of item JSON: about 30 of the 150 items
BOX = 'document.querySelector("details.explorer")'


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> Path:
    """A run of 150 questions and two models (model_a wrong on every odd question), its report.html written again
    with a 20 kB budget through the writer a run uses."""
    root = tmp_path_factory.mktemp("big")
    folder = root / "inputs" / "big"
    write_jsonl(folder / "questions.jsonl", [{"id": f"q{i}", "question": f"Question {i}: " + "words " * 60,
                                              "answers": [f"answer {i}"]} for i in range(ITEMS)])
    for model, wrong in (("model_a", lambda i: i % 2), ("model_b", lambda i: i % 3 == 0)):
        write_jsonl(folder / "predictions" / f"{model}.jsonl",
                    [{"id": f"q{i}", "prediction": "no idea" if wrong(i) else f"answer {i}"} for i in range(ITEMS)])
    outputs = root / "outputs"
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(outputs)]) == 0
    report = read_artifact_json(outputs / "big" / "B6_report.json")["report"]
    assert len(report["explorer"]["items"]) == ITEMS  # every item chosen: 100 not right, 50 sampled of the rest
    write_report_page(outputs / "report.html", render_html_page([report], {"title": "big"}, item_budget=BUDGET))
    return outputs


def _probe(outputs: Path, name: str, script: str) -> Path:
    """The report with `script` run after it, beside it (so its files beside the page are found)."""
    page = outputs / name
    page.write_text((outputs / "report.html").read_text(encoding="utf-8").replace(
        "</body>", f"<script>{script}</script></body>"), encoding="utf-8")
    return page


def _body(dom: str) -> dict[str, str]:
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))


def _embedded(outputs: Path) -> list[dict]:
    found = re.search(r'data-items="([^"]*)"', (outputs / "report.html").read_text(encoding="utf-8")).group(1)
    return json.loads(found.replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&"))["items"]


def test_the_page_embeds_its_budget_and_writes_the_rest_beside_it(outputs):
    embedded = _embedded(outputs)
    assert 0 < len(embedded) < ITEMS
    assert sum(len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()) for item in embedded) <= BUDGET
    beside = sorted((outputs / ITEMS_FOLDER).iterdir())
    held = [item["id"] for path in beside for item in json.loads(
        re.fullmatch(r'evalpipeItems\("\w+",(.*)\);\n', path.read_text(encoding="utf-8"), re.S).group(1))]
    assert sorted(held + [item["id"] for item in embedded]) == sorted(f"q{i}" for i in range(ITEMS))


def test_a_deep_link_to_an_item_beside_the_page_loads_it_and_scrolls_to_it(outputs, tmp_path):
    assert "q149" not in {item["id"] for item in _embedded(outputs)}
    page = _probe(outputs, "deep.html", """
function look() {
  const row = document.getElementById("big/model_b/q149");
  if (!row) { setTimeout(look, 50); return; }
  const box = row.closest("details.explorer"), top = row.getBoundingClientRect().top;
  document.body.dataset.opened = String(box.open) + "," + box.querySelector(".model-a").value;
  document.body.dataset.visible = String(top >= 0 && row.getBoundingClientRect().bottom <= window.innerHeight
    && window.scrollY > 0);
  document.body.dataset.linked = String(row.classList.contains("linked"));
  document.body.dataset.loaded = box.dataset.loaded;
}
look();""")
    dom, console = load_page(page, tmp_path / "profile", "big/model_b/q149", wait_ms=5000)
    assert console == []
    body = _body(dom)
    assert body["opened"] == "true,model_b" and body["visible"] == "true" and body["linked"] == "true"
    assert len(_embedded(outputs)) < int(body["loaded"]) <= ITEMS


def test_a_filter_says_it_covers_the_loaded_items_then_loads_them_all(outputs, tmp_path):
    page = _probe(outputs, "filter.html", f"""
const box = {BOX}, filter = box.querySelector(".filter");
filter.value = "status:wrong"; filter.dispatchEvent(new Event("change"));
document.body.dataset.first = box.querySelector(".count").textContent;
function look() {{
  if (box.dataset.loaded !== "{ITEMS}") {{ setTimeout(look, 50); return; }}
  document.body.dataset.shown = box.dataset.shown;
  document.body.dataset.last = box.querySelector(".count").textContent;
  document.body.dataset.button = String(box.querySelector(".load-items").hidden);
}}
look();""")
    dom, console = load_page(page, tmp_path / "profile", wait_ms=5000)
    assert console == []
    body = _body(dom)
    loaded = len(_embedded(outputs))
    assert f"this filter covers only the {loaded} loaded items" in body["first"]
    assert body["shown"] == str(ITEMS // 2)  # model_a is wrong on every odd question
    assert "beside the page" not in body["last"] and body["button"] == "true"


def test_an_item_file_that_cannot_be_read_is_said_on_the_page(outputs, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "report.html").write_bytes((outputs / "report.html").read_bytes())
    (copy / ITEMS_FOLDER).mkdir()
    files = sorted((outputs / ITEMS_FOLDER).iterdir())
    for path in files[1:]:  # the first file is lost
        (copy / ITEMS_FOLDER / path.name).write_bytes(path.read_bytes())
    page = _probe(copy, "lost.html", f"""
const box = {BOX};
box.querySelector(".load-items").click();
setTimeout(function () {{
  document.body.dataset.count = box.querySelector(".count").textContent;
  document.body.dataset.loaded = box.dataset.loaded;
}}, 1000);""")
    dom, _ = load_page(page, tmp_path / "profile", wait_ms=3000)
    body = _body(dom)
    assert f"{files[0].name} could not be read" in body["count"]
    assert int(body["loaded"]) < ITEMS


def test_a_rerun_writes_again_the_item_files_or_the_page_it_finds_missing(tmp_path, monkeypatch):
    """The summary is complete only with report.html and every item file it wrote beside it (B6_summary.json lists
    them): a deleted report_items/ folder, or one file of it, or the page, is written again by a rerun, which
    otherwise leaves them alone."""
    import functools
    import shutil

    from pipeline import summary_task
    from stages.report import item_files
    from tests.pipeline.workspace import changed, run, snapshot

    monkeypatch.setattr(summary_task, "render_html_page", functools.partial(render_html_page, item_budget=BUDGET))
    monkeypatch.setattr(item_files, "CHUNK_BYTES", BUDGET)  # several files beside the page
    folder = tmp_path / "inputs" / "big"
    write_jsonl(folder / "questions.jsonl", [{"id": f"q{i}", "question": f"Question {i}: " + "words " * 60,
                                              "answers": [f"answer {i}"]} for i in range(ITEMS)])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": f"q{i}", "prediction": "no idea"} for i in range(ITEMS)])
    assert run(tmp_path) == 0
    outputs = tmp_path / "outputs"
    written = {path.name: path.read_bytes() for path in (outputs / ITEMS_FOLDER).iterdir()}
    listed = read_artifact_json(outputs / "B6_summary.json")["report_files"]
    assert len(written) > 1 and listed == sorted(f"{ITEMS_FOLDER}/{name}" for name in written)
    before = snapshot(outputs)
    assert run(tmp_path) == 0 and changed(before, snapshot(outputs)) == set()  # all there: nothing written again
    for lose in (lambda: shutil.rmtree(outputs / ITEMS_FOLDER), lambda: (outputs / ITEMS_FOLDER / min(written)).unlink(),
                 lambda: (outputs / "report.html").unlink()):
        lose()
        assert run(tmp_path) == 0
        assert {path.name: path.read_bytes() for path in (outputs / ITEMS_FOLDER).iterdir()} == written
        assert (outputs / "report.html").is_file()
