"""compare.html draws each run's reply to a flipped item with its kind's view, as report.html does: a math flip's
answers and gold by the embedded KaTeX, a tau2 flip's episodes with their tool calls, in headless Chromium offline; a
page of plain flips embeds neither KaTeX nor highlight.js."""
import html
import json
import re

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page
from tests.pipeline.workspace import write_jsonl

pytest.importorskip("math_verify")

QUESTIONS = [{"id": "p1", "problem": "Half of one?", "answer": "\\frac{1}{2}"},
             {"id": "p2", "problem": "2 + 2?", "answer": "4"}]
PROBE = """<script>
const item = document.getElementById("m/model/p1"), sides = item.querySelectorAll(".side-by-side > div");
document.body.dataset.sides = Array.from(sides).map(function (side) {
  return side.querySelector(".status").textContent + ":" + side.querySelectorAll(".tex .katex").length + ":"
    + side.querySelectorAll(".tex .katex .mfrac").length;
}).join(",");
document.body.dataset.flips = String(document.querySelectorAll("details.flip").length);
</script></body>"""


def _run(inputs, outputs, p1):
    write_jsonl(inputs / "m" / "predictions" / "model.jsonl", [{"id": "p1", "prediction": p1},
                                                               {"id": "p2", "prediction": "\\boxed{4}"}])
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0


def test_a_math_flip_draws_both_replies_with_katex(tmp_path):
    inputs = tmp_path / "inputs"
    write_jsonl(inputs / "m" / "questions.jsonl", QUESTIONS)
    (inputs / "m" / "dataset.toml").write_text('kind = "math"\n')
    _run(inputs, tmp_path / "a", "So \\boxed{\\frac{1}{2}}")
    _run(inputs, tmp_path / "b", "So \\boxed{\\frac{1}{3}}")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) in (0, 3)
    page = tmp_path / "b" / "compare.html"
    text = page.read_text(encoding="utf-8")
    assert "/* KaTeX 0.16.22, embedded under its licence:" in text and "highlight.js" not in text
    assert re.findall(r"url\((?!data:font/woff2;base64,)", text) == []
    probe = tmp_path / "probe.html"
    probe.write_text(text.replace("</body>", PROBE), encoding="utf-8")
    dom, console = load_page(probe, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["flips"] == "1"
    # each side: its status, KaTeX drawing the answer read and the gold, each a fraction
    assert body["sides"] == "correct:2:2,wrong:2:2"


def test_a_page_of_plain_flips_embeds_no_katex_or_highlighter(tmp_path):
    inputs = tmp_path / "inputs"
    write_jsonl(inputs / "q" / "questions.jsonl", [{"id": "q1", "question": "one?", "answers": ["one"]}])
    for run, reply in (("a", "one"), ("b", "two")):
        write_jsonl(inputs / "q" / "predictions" / "m.jsonl", [{"id": "q1", "prediction": reply}])
        assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / run)]) == 0
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) in (0, 3)
    text = (tmp_path / "b" / "compare.html").read_text(encoding="utf-8")
    assert text.count("<script>") == 1 and "embedded under its licence" not in text
    replies = [json.loads(found.replace("&#34;", '"')) for found in re.findall(r'data-replies="([^"]*)"', text)]
    assert [[(r["prediction"], r["status"]) for r in side] for side in replies] == [[("one", "correct")],
                                                                                  [("two", "wrong")]]


def test_a_tau2_flip_draws_both_runs_episodes_with_their_tool_calls(tmp_path):
    import shutil

    from tests.pipeline.kinds.conformance import conformance_folder

    for run, (good, bad) in (("a", ("good", "bad")), ("b", ("bad", "good"))):  # B: the two models trade replies
        folder = tmp_path / f"inputs_{run}" / "t"
        shutil.copytree(conformance_folder("tau2"), folder, ignore=shutil.ignore_patterns("expected.json", "*.jsonl"))
        for model, source in (("good", good), ("bad", bad)):
            shutil.copy(conformance_folder("tau2") / "predictions" / f"{source}.jsonl",
                        folder / "predictions" / f"{model}.jsonl")
        assert main(["run", "--inputs", str(folder.parent), "--outputs", str(tmp_path / run)]) == 0
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) in (0, 3)
    page = tmp_path / "b" / "compare.html"
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", """<script>
document.body.dataset.sides = Array.from(document.querySelectorAll("details.flip")).map(function (flip) {
  return flip.id + ":" + Array.from(flip.querySelectorAll(".side-by-side > div")).map(function (side) {
    return side.querySelectorAll("details.episode").length + "/" + side.querySelectorAll(".transcript .call").length;
  }).join("|");
}).join(",");
document.body.dataset.replies = Array.from(document.getElementById("t/good/create").querySelectorAll(".reply"))
  .map(function (reply) { return reply.textContent; }).join("|");
</script></body>"""), encoding="utf-8")
    dom, console = load_page(probe, tmp_path / "profile")
    assert console == []
    sides = dict(entry.split(":") for entry in re.search(r'data-sides="([^"]*)"', dom).group(1).split(","))
    # each run's two trials of the flipped task, folded, each with its one create_task call drawn
    assert sides == {"t/bad/create": "2/2|2/2", "t/good/create": "2/2|2/2"}
    # each run's reply read as its trials' terminations and rewards, not its trials' JSON
    assert html.unescape(re.search(r'data-replies="([^"]*)"', dom).group(1)) == (
        "trial 0: agent_stop, reward 1, 4 turns; trial 1: agent_stop, reward 1, 4 turns|"
        "trial 0: agent_stop, reward 0, 4 turns; trial 1: max_steps, reward 0, 4 turns")
