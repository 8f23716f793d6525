"""report.html's item explorer shows what the model did, drawn by its kind's renderer: a math answer and its gold
drawn by the embedded KaTeX, reasoning folded behind the answer with its length and an unfinished flag; offline."""
import html
import json
import re
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page

pytest.importorskip("math_verify")

CONFORMANCE = Path(__file__).parents[2] / "stages" / "kinds"

QUESTIONS = [{"id": "p1", "problem": "Half of one?", "answer": "\\frac{1}{2}"},
             {"id": "p2", "problem": "2 + 2?", "answer": "4"},
             {"id": "p3", "problem": "3 + 4?", "answer": "7"}]
REPLIES = [{"id": "p1", "prediction": "<think>one over two</think> So \\boxed{\\frac{1}{2}}"},
           {"id": "p2", "prediction": "<think>two and two make"},
           {"id": "p3", "prediction": "\\boxed{8}"}]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("views")
    folder = root / "inputs" / "m"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "math"\n')
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    (folder / "predictions" / "model.jsonl").write_text("".join(json.dumps(r) + "\n" for r in REPLIES))
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")]) == 0
    return root / "outputs" / "report.html"


def test_the_page_embeds_katex_with_its_licence_and_fetches_nothing(report):
    text = report.read_text(encoding="utf-8")
    markup = re.sub(r"<script>.*?</script>", "<script></script>", text, flags=re.DOTALL)
    assert not re.search(r"""\b(src|href)\s*=|@import|<link\b""", markup, re.IGNORECASE)
    assert re.findall(r"url\((?!data:font/woff2;base64,)", text) == []
    assert text.count("data:font/woff2;base64,") == 20 and text.count("<script>") == 2
    assert "/* KaTeX 0.16.22, embedded under its licence:\nThe MIT License (MIT)\n\nCopyright (c) 2013-2020 Khan " \
           "Academy and other contributors" in text


def test_katex_draws_the_answer_and_the_gold_and_reasoning_opens_on_click(report, tmp_path):
    probe = """<script>
const box = document.querySelector("details.explorer"), rows = box.querySelectorAll("tbody tr");
const p1 = Array.from(rows).find(r => r.cells[0].textContent === "p1");
const p2 = Array.from(rows).find(r => r.cells[0].textContent === "p2");
document.body.dataset.katex = String(p1.querySelectorAll(".tex .katex").length);
document.body.dataset.fraction = String(p1.querySelectorAll(".tex .katex .mfrac").length);
const fold = p1.querySelector("details.reasoning");
document.body.dataset.before = String(fold.open);
fold.querySelector("summary").click();
document.body.dataset.after = String(fold.open);
document.body.dataset.fold = fold.querySelector("summary").textContent;
document.body.dataset.unfinished = p2.querySelector("details.reasoning summary").textContent;
document.body.dataset.answer = p2.cells[3].querySelector(".reply").textContent;
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["katex"] == "2" and body["fraction"] == "2"  # the answer read, 1/2, and the gold \frac{1}{2}
    assert (body["before"], body["after"]) == ("false", "true")
    assert body["fold"] == f"reasoning ({len('<think>one over two</think> '):,} characters)"
    assert body["unfinished"] == f"reasoning ({len('<think>two and two make')} characters, unfinished)"
    assert body["answer"] == "(no answer: the reply ends inside its reasoning)"


def test_ifeval_items_list_each_instructions_strict_and_loose_verdict(tmp_path):
    folder = tmp_path / "inputs" / "ife"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "ifeval"\n')
    (folder / "questions.jsonl").write_text(json.dumps(
        {"key": 1, "prompt": "Say hello in lowercase without commas.",
         "instruction_id_list": ["punctuation:no_comma", "change_case:english_lowercase"], "kwargs": [{}, {}]}) + "\n")
    (folder / "predictions" / "m.jsonl").write_text(json.dumps({"key": 1, "response": "hello, there"}) + "\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
document.body.dataset.verdicts = Array.from(document.querySelectorAll("details.explorer ul.instructions li"))
  .map(li => li.className + "=" + li.textContent).join("|");
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text((tmp_path / "outputs" / "report.html").read_text(encoding="utf-8").replace("</body>", probe),
                    encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == [] and "katex" not in page.read_text(encoding="utf-8").split("<script>")[0]
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["verdicts"] == ("not-followed=punctuation:no_comma: strict ✗, loose ✗ — comma at 5|"
                                "followed=change_case:english_lowercase: strict ✓, loose ✓")


def test_function_calling_items_show_the_calls_beside_the_possible_answers(tmp_path):
    shutil.copytree(CONFORMANCE / "function_calling" / "conformance", tmp_path / "inputs" / "fc")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
const box = document.querySelector("details.explorer"), a = box.querySelector(".model-a");
a.value = "function-calling"; a.dispatchEvent(new Event("change"));
const row = Array.from(box.querySelectorAll("tbody tr")).find(r => r.cells[0].textContent === "simple_python_0");
document.body.dataset.calls = Array.from(row.querySelectorAll(".calls > div")).map(d => d.textContent).join("|");
document.body.dataset.verdict = row.querySelector(".verdict").textContent;
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text((tmp_path / "outputs" / "report.html").read_text(encoding="utf-8").replace("</body>", probe),
                    encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert html.unescape(body["calls"]) == ("calls: [{'weather_current': {'city': 'Lyon'}}]|possible answers: "
                                            'weather.current(city ∈ {"Paris" | "Paris, France"}, unit ∈ '
                                            '{"celsius" | (left out)})')
    assert html.unescape(body["verdict"]) == ("simple_python: value_error:string: 'city' = 'Lyon', expected one of "
                                              "['Paris', 'Paris, France']")


def test_loglikelihood_items_show_each_choice_and_what_each_figure_picked(tmp_path):
    shutil.copytree(CONFORMANCE / "loglikelihood" / "conformance", tmp_path / "inputs" / "ll")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
const row = Array.from(document.querySelectorAll("details.explorer tbody tr")).find(r => r.cells[0].textContent === "1");
document.body.dataset.choices = Array.from(row.querySelectorAll("table.choices tbody tr"))
  .map(r => Array.from(r.cells).map(c => c.textContent).join(";")).join("|");
</script></body>"""
    page = tmp_path / "probe.html"
    page.write_text((tmp_path / "outputs" / "report.html").read_text(encoding="utf-8").replace("</body>", probe),
                    encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    # item 1: "four" −3 (−0.75 per character, the gold), "x" −2 (−2 per character): acc picks x, acc_norm four
    assert body["choices"] == "four (gold);-3.000;-0.7500;acc_norm|x;-2.000;-2.0000;acc"
