"""compare.html: the paired differences `evalpipe compare` prints, with intervals, and exactly the items that
flipped between two constructed runs, filterable, each reachable by its deep link; in headless Chromium offline."""
import html as html_text
import json
import re
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page
from tests.pipeline.workspace import write_jsonl

CLAIMS, QUESTIONS = 60, 40
ANSWERS = {"SUPPORTS": "true", "REFUTES": "false", "NOT ENOUGH INFO": "not enough information"}
WRONG = {"SUPPORTS": "false", "REFUTES": "true", "NOT ENOUGH INFO": "true"}
LABELS = tuple(ANSWERS)


def _run(inputs: Path, outputs: Path, wrong_claims: range, wrong_questions: range) -> None:
    """One run of model m: the claims and questions in the ranges answered wrong (a wrong claim after some
    reasoning), the others right."""
    write_jsonl(inputs / "claims" / "predictions" / "m.jsonl", [
        {"id": i, "prediction": f"<think>checking</think> {WRONG[LABELS[i % 3]]}" if i in wrong_claims
         else ANSWERS[LABELS[i % 3]]} for i in range(CLAIMS)])
    write_jsonl(inputs / "capitals" / "predictions" / "m.jsonl", [
        {"id": f"q{i}", "prediction": "no idea" if i in wrong_questions else f"answer number {i}"}
        for i in range(QUESTIONS)])
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """Runs A and B of the same model; B/compare.html and `compare --json`'s comparisons."""
    root = tmp_path_factory.mktemp("compare")
    inputs = root / "inputs"
    write_jsonl(inputs / "claims" / "questions.jsonl",
                [{"id": i, "claim": f"claim {i}", "label": LABELS[i % 3]} for i in range(CLAIMS)])
    (inputs / "claims" / "dataset.toml").write_text('kind = "fact_verification"\n')
    write_jsonl(inputs / "capitals" / "questions.jsonl",
                [{"id": f"q{i}", "question": f"question {i}?", "answers": [f"answer number {i}"]}
                 for i in range(QUESTIONS)])
    _run(inputs, root / "a", range(0, 10), range(0, 4))
    _run(inputs, root / "b", range(5, 20), range(2, 6))
    code = main(["compare", str(root / "a"), str(root / "b"), "--json", "--html", str(root / "b" / "compare.html")])
    assert code in (0, 3)
    return root / "b" / "compare.html", root


# claims 0–4 wrong in A only, 10–19 in B only; questions q0, q1 wrong in A only, q4, q5 in B only
FLIPPED = {**{f"claims/m/{i}": "wrong → right" for i in range(0, 5)},
           **{f"claims/m/{i}": "right → wrong" for i in range(10, 20)},
           "capitals/m/q0": "wrong → right", "capitals/m/q1": "wrong → right",
           "capitals/m/q4": "right → wrong", "capitals/m/q5": "right → wrong"}


def test_compare_html_lists_exactly_the_flipped_items(compared):
    page, _ = compared
    html = page.read_text(encoding="utf-8")
    found = dict(re.findall(r'<details class="flip" id="([^"]+)" data-dataset="[^"]+" data-direction="([^"]+)"',
                            html))
    assert found == FLIPPED
    item = re.search(r'<details class="flip" id="claims/m/12".*?</details>', html, re.DOTALL).group(0)
    a, b = (json.loads(html_text.unescape(found)) for found in re.findall(r'data-replies="([^"]*)"', item))
    assert "claim 12" in item and [r["prediction"] for r in a + b] == ["true", "false"]  # A right, B wrong: SUPPORTS
    assert [r["status"] for r in a + b] == ["correct", "wrong"]
    assert "reasoning" not in a[0] and b[0]["reasoning_chars"] == len("<think>checking</think> ")  # B's, folded
    assert 'data-view="plain"' in item
    assert not re.search(r"""\bsrc\s*=|url\(|@import|<link\b|https?:""", html, re.IGNORECASE)


def test_compare_html_shows_the_numbers_compare_prints(compared, capsys):
    page, root = compared
    assert main(["compare", str(root / "a"), str(root / "b"), "--json", "--html", str(root / "again.html")]) in (0, 3)
    comparisons = json.loads(capsys.readouterr().out)["comparisons"]
    claims = next(c for c in comparisons if (c["dataset"], c["metric"]) == ("claims", "accuracy"))
    assert claims["paired_items"] == CLAIMS and claims["delta"] == pytest.approx(-5 / CLAIMS)
    assert claims["low"] < claims["delta"] < claims["high"]
    row = re.search(r"<tr[^>]*><td>claims</td><td>m</td><td>accuracy</td>.*?</tr>", page.read_text(encoding="utf-8"),
                    re.DOTALL).group(0)
    for shown in (f"{claims['delta']:+.4f}", f"[{claims['low']:+.4f}, {claims['high']:+.4f}]",
                  f"{claims['p_value']:.3g}", claims["method"]):
        assert shown in row


def _probe(page: Path, script: str) -> Path:
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<script>{script}</script></body>"),
                     encoding="utf-8")
    return probe


def _body(dom: str) -> dict[str, str]:
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))


def test_flipped_items_filter_in_the_browser_offline(compared, tmp_path):
    page, _ = compared
    dom, console = load_page(_probe(page, """
const pick = document.querySelector.bind(document), change = el => el.dispatchEvent(new Event("input"));
document.body.dataset.all = document.body.dataset.flipsShown;
pick(".flip-direction").value = "right → wrong"; change(pick(".flip-direction"));
document.body.dataset.worse = document.body.dataset.flipsShown;
pick(".flip-dataset").value = "capitals"; change(pick(".flip-dataset"));
document.body.dataset.capitalsWorse = Array.from(document.querySelectorAll("details.flip"))
  .filter(f => !f.hidden).map(f => f.id).join(",");
const twelve = document.getElementById("claims/m/12");
document.body.dataset.replies = Array.from(twelve.querySelectorAll("ol.replies > li"))
  .map(li => li.querySelector(".status").textContent + ":" + li.querySelector(".reply").textContent).join(",");
document.body.dataset.fold = twelve.querySelector("details.reasoning summary").textContent;"""), tmp_path / "profile")
    assert console == []
    body = _body(dom)
    assert (body["all"], body["worse"], body["capitals-worse"]) == ("19", "12", "capitals/m/q4,capitals/m/q5")
    assert body["replies"] == "correct:true,wrong:false"
    assert body["fold"] == f"reasoning ({len('<think>checking</think> ')} characters)"


def test_a_deep_link_opens_and_scrolls_to_its_item(compared, tmp_path):
    page, _ = compared
    dom, console = load_page(_probe(page, """
const item = document.getElementById("claims/m/15"), offset = item.getBoundingClientRect().top;
document.body.dataset.opened = String(item.open);
document.body.dataset.top = String(Math.round(offset));
document.body.dataset.scrolled = String(window.scrollY);"""), tmp_path / "profile", "claims/m/15")
    assert console == []
    body = _body(dom)
    assert body["opened"] == "true" and int(body["scrolled"]) > 0 and abs(int(body["top"])) <= 1
    assert len(re.findall(r'<details[^>]* open=""', dom)) == 1
    assert len(re.findall(r'<details class="flip linked" id="claims/m/15"[^>]* open=""', dom)) == 1


def test_the_console_gives_the_first_flipped_items_links_within_160_columns(compared, capsys):
    _, root = compared
    assert main(["compare", str(root / "a"), str(root / "b")]) in (0, 3)
    page = root / "b" / "compare.html"
    lines = capsys.readouterr().out.splitlines()
    at = lines.index(f"compare: 19 item(s) flipped; each with both runs' replies in {page}:")
    first = [("right → wrong", "capitals/m/q4"), ("right → wrong", "capitals/m/q5"), ("wrong → right", "capitals/m/q0"),
             ("wrong → right", "capitals/m/q1"), *(("right → wrong", f"claims/m/{i}") for i in range(10, 16))]
    assert lines[at + 1:at + 12] == [f"  {way}: {page}#{anchor}" for way, anchor in first] + [
        "  … and 9 more flipped item(s), listed in compare.html"]
    deep = root / ("d" * 150)
    deep.mkdir()
    assert main(["compare", str(root / "a"), str(root / "b"), "--html", str(deep / "flips.html")]) in (0, 3)
    out = capsys.readouterr().out.splitlines()
    assert "  right → wrong: flips.html#capitals/m/q4" in out and max(len(line) for line in out if "#" in line) <= 160
