"""The item explorer in report.html, in a real browser: filters by status and by "A right, B wrong", shows the right
counts, and renders injected markup as text."""
import json
import re
import shutil
from pathlib import Path

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from stages.kinds import get_kind
from stages.report.explorer import NOT_RIGHT_CAP, SAMPLE_CAP, choose_items, explorer_items, item_views
from tests.pipeline.browser import load_page
from tests.pipeline.workspace import DEMO_INPUTS, write_jsonl

DEMO = DEMO_INPUTS
PAYLOADS = ("<script>alert(1)</script>", '"><img onerror=alert(2)>')


def _probe(report: Path, page: Path, script: str) -> str:
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", f"<script>{script}</script></body>"),
                    encoding="utf-8")
    return script


def _set(box: str, selector: str, value: str) -> str:
    return (f'{box}.querySelector("{selector}").value={json.dumps(value)};'
            f'{box}.querySelector("{selector}").dispatchEvent(new Event("change"));')


def test_the_explorer_filters_to_wrong_items_and_compares_two_models(tmp_path):
    outputs = tmp_path / "outputs"
    shutil.copytree(DEMO / "qa_mixed", tmp_path / "inputs" / "qa_mixed")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    b4 = {m: {r["id"]: r["label"] for r in read_artifact_json(outputs / "qa_mixed" / m / "B4_matches.json")["rows"]}
          for m in ("model_a", "model_b")}
    wrong_a = sum(label == "wrong" for label in b4["model_a"].values())
    a_right_b_not = sum(b4["model_a"][i] == "correct" and b4["model_b"].get(i) != "correct" for i in b4["model_a"])
    box = 'document.querySelector("details.explorer")'
    script = (f"{_set(box, '.filter', 'status:wrong')}document.body.dataset.wrong={box}.dataset.shown;"
              f"{_set(box, '.model-b', 'model_b')}{_set(box, '.filter', 'a-right-b-wrong')}"
              f"document.body.dataset.pair={box}.dataset.shown;"
              f"document.body.dataset.columns={box}.querySelectorAll('thead th').length;")
    page = tmp_path / "probe.html"
    _probe(outputs / "report.html", page, script)
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert int(body["wrong"]) == wrong_a == 3
    assert int(body["pair"]) == a_right_b_not and a_right_b_not > 0
    assert body["columns"] == "10"  # id, question, gold, and both models' prediction / score / status
    assert "北京" in dom  # Chinese travels as text


def test_a_closed_explorer_draws_its_rows_when_first_opened(tmp_path):
    """No rows are drawn while an explorer is closed (its page loads without that work); a click on its summary
    draws them at once, and so does opening it otherwise (the toggle that follows)."""
    outputs = tmp_path / "outputs"
    shutil.copytree(DEMO / "qa_mixed", tmp_path / "inputs" / "qa_mixed")
    shutil.copytree(DEMO / "mc_mixed", tmp_path / "inputs" / "mc_mixed")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    chosen = {name: len(read_artifact_json(outputs / name / "B6_report.json")["report"]["explorer"]["items"])
              for name in ("mc_mixed", "qa_mixed")}
    script = """
const boxes = {}; document.querySelectorAll("details.explorer").forEach(b => { boxes[b.dataset.dataset] = b; });
const rows = b => String(b.querySelectorAll("tbody tr").length);
document.body.dataset.closed = rows(boxes.qa_mixed) + "," + rows(boxes.mc_mixed);
boxes.qa_mixed.querySelector("summary").click();
document.body.dataset.clicked = rows(boxes.qa_mixed) + "," + String(boxes.qa_mixed.open);
boxes.mc_mixed.open = true;
setTimeout(function () { document.body.dataset.toggled = rows(boxes.mc_mixed); }, 100);"""
    page = tmp_path / "probe.html"
    _probe(outputs / "report.html", page, script)
    dom, console = load_page(page, tmp_path / "profile", wait_ms=2000)
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["closed"] == "0,0"
    assert body["clicked"] == f"{chosen['qa_mixed']},true" and chosen["qa_mixed"] > 0
    assert body["toggled"] == str(chosen["mc_mixed"]) and chosen["mc_mixed"] > 0


def test_injected_markup_in_every_place_renders_as_text(tmp_path, capsys):
    inputs = tmp_path / "inputs"
    dataset = inputs / "injected"
    write_jsonl(dataset / "questions.jsonl", [{"id": "1", "question": PAYLOADS[0], "answers": [PAYLOADS[1]]},
                                              {"id": "2", "question": "plain?", "answers": ["a"]},
                                              {"id": "<svg onload=alert(3)>", "question": "q?", "answers": ["b"]}])
    write_jsonl(dataset / "predictions" / "m.jsonl",
                [{"id": "1", "prediction": PAYLOADS[1]}, {"id": "2", "prediction": PAYLOADS[0]},
                 {"id": "<svg onload=alert(3)>", "prediction": "c"}])
    named = inputs / "x<svg onload=alert(4)>"  # markup in a dataset or model name: no name, refused, never shown
    write_jsonl(named / "questions.jsonl", [{"id": "1", "question": "q?", "answers": ["a"]}])
    write_jsonl(named / "predictions" / '"><img onerror=alert(5)>.jsonl', [{"id": "1", "prediction": "a"}])
    outputs = tmp_path / "outputs"
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 1
    assert "PROBLEM x<svg onload=alert(4)>: the dataset name" in capsys.readouterr().err
    box = 'document.querySelector("details.explorer")'
    page = tmp_path / "probe.html"
    _probe(outputs / "report.html", page, f"{box}.querySelector('summary').click();document.body.dataset.imgs="
                                          "document.querySelectorAll('img').length;document.body.dataset.text="
                                          f"{box}.querySelector('tbody').textContent.includes('alert(1)')&&"
                                          f"{box}.querySelector('tbody').textContent.includes('onerror=alert(2)');")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []  # no alert ran, nothing failed
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["imgs"] == "0" and body["text"] == "true"
    html = (outputs / "report.html").read_text(encoding="utf-8")
    assert "<img" not in html and "<svg onload" not in html and html.count("<script>") == 1


def test_the_selection_stays_bounded_on_a_large_dataset():
    kind = get_kind("qa")
    n = 200_000
    ids = [f"q{i}" for i in range(n)]
    labels = ["wrong" if i % 3 == 0 else "correct" for i in range(n)]
    matched = {"m": {"id": ids, "label": labels, "f1": [0.0 if label == "wrong" else 1.0 for label in labels],
                     "best_gold": [0] * n}}
    chosen, not_right = choose_items(kind, matched)
    views = {"m": item_views(kind, matched["m"], chosen)}
    assert not_right == labels.count("wrong") and len(chosen) == NOT_RIGHT_CAP + SAMPLE_CAP
    assert sum(status == "wrong" for status, *_ in views["m"]) == NOT_RIGHT_CAP
    picked = [ids[i] for i in chosen]
    data = explorer_items(picked, ["q?"] * len(picked), [["a"]] * len(picked), {"m": ["a"] * len(picked)}, views,
                          {"m": [matched["m"]["f1"][i] for i in chosen]}, n, not_right, [])
    assert data["total"] == n and len(data["items"]) == len(chosen)
    assert len(json.dumps(data)) < 200_000  # a million-row dataset adds kilobytes, not megabytes, to the page


def test_a_million_row_dataset_gives_a_small_report_that_opens_fast(tmp_path):
    import time

    folder = tmp_path / "inputs" / "million"
    (folder / "predictions").mkdir(parents=True)
    with open(folder / "questions.jsonl", "w") as questions, open(folder / "predictions" / "m.jsonl", "w") as answers:
        for i in range(1_000_000):
            questions.write(f'{{"id": "q{i}", "question": "What is {i % 977}?", "answers": ["{i % 977}"]}}\n')
            answers.write(f'{{"id": "q{i}", "prediction": "{i % 977 if i % 4 else i % 13}"}}\n')
    outputs = tmp_path / "outputs"
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    report = outputs / "report.html"
    assert report.stat().st_size < 10 * 2 ** 20
    page = tmp_path / "opened.html"  # the page as a reader opens its explorer: its rows are drawn then
    _probe(report, page, 'document.querySelector("details.explorer summary").click();')
    started = time.monotonic()
    dom, console = load_page(page, tmp_path / "profile")
    assert time.monotonic() - started < 10 and console == []
    assert "items shown (1,000,000 in the dataset" in dom


def test_explorer_items_show_their_own_b4_rows_across_shards(tmp_path):
    """A columnar kind's explorer chooses from the B4 status column and reads only the chosen rows whole, shard by
    shard: every item's status and reading are item_view's of the B4 row with its id."""
    from stages.io.artifacts import artifact_path, read_columns

    folder = tmp_path / "inputs" / "claims"
    labels = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
    write_jsonl(folder / "questions.jsonl", [{"id": f"c{i}", "claim": f"claim {i}", "label": labels[i % 3]}
                                             for i in range(90)])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": f"c{i}", "predicted_label": labels[(i * i) % 3]}
                                                     for i in range(90) if i % 11])
    (folder / "dataset.toml").write_text('kind = "fact_verification"\n[params]\nshard_rows = 40\n')
    outputs = tmp_path / "outputs"
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]) == 0
    kind = get_kind("fact_verification")
    rows = {}
    for shard in range(3):
        b4 = read_columns(artifact_path(outputs, "B4", "claims", "m", shard))
        rows.update({row_id: {name: b4[name][i] for name in b4} for i, row_id in enumerate(b4["id"])})
    explorer = read_artifact_json(outputs / "claims" / "B6_report.json")["report"]["explorer"]
    shown = {item["id"]: item["cells"]["m"] for item in explorer["items"]}
    assert explorer["total"] == 90 and len(shown) == 90 and len(rows) == 90
    for row_id, cell in shown.items():
        if cell["prediction"]:
            assert (cell["status"], cell["reading"]) == kind.item_view(rows[row_id]), row_id
        else:
            assert cell["status"] == "missing" and int(row_id[1:]) % 11 == 0
    assert {cell["status"] for cell in shown.values()} >= {"correct", "wrong", "missing"}
