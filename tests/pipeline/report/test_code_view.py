"""report.html's code items in Chromium, offline: the program as run highlighted by the embedded highlight.js, each
test's outcome line by line (how often a check in a loop held), the sandbox's outcome line and tampering signs."""
import json
import re

import pytest

from stages.io.artifacts import read_columns
from tests.pipeline.browser import load_page
from tests.pipeline.workspace import run

TEST = ("def check(candidate):\n    assert candidate(1) == 2\n    for i in range(4):\n        assert candidate(i) == i + 1\n"
        "    assert candidate(10) == 11, 'ten'\n")
QUESTIONS = [{"id": "right", "prompt": "def add_one(x):\n", "entry_point": "add_one", "test": TEST},
             {"id": "wrong", "prompt": "def add_one(x):\n", "entry_point": "add_one", "test": TEST}]
REPLIES = [{"id": "right", "prediction": "```python\ndef add_one(x):\n    return x + 1\n```"},
           {"id": "wrong", "prediction": "```python\nimport sys\ndef add_one(x):\n    sys._getframe(0)\n    return x + 1 if x < 5 else 0\n```"}]
PROBE = """<script>
document.querySelector("details.explorer summary").click();
const rows = Array.from(document.querySelectorAll("details.explorer tbody tr"));
const wrong = rows.find(r => r.cells[0].textContent === "wrong"), right = rows.find(r => r.cells[0].textContent === "right");
document.body.dataset.checks = JSON.stringify(Array.from(wrong.querySelectorAll("ul.checks li"))
  .map(li => li.className + " | " + li.textContent));
document.body.dataset.rightChecks = String(right.querySelectorAll("ul.checks li.held").length);
document.body.dataset.keywords = JSON.stringify(Array.from(wrong.querySelectorAll("pre.program code.hljs .hljs-keyword"))
  .map(k => k.textContent));
document.body.dataset.outcome = wrong.querySelector(".outcome").textContent;
document.body.dataset.tampering = wrong.querySelector(".tampering") ? wrong.querySelector(".tampering").textContent : "";
</script></body>"""


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def test_a_code_item_shows_each_tests_outcome_and_its_program_highlighted(tmp_path):
    folder = tmp_path / "inputs" / "he"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "code"\n')
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    (folder / "predictions" / "model.jsonl").write_text("".join(json.dumps(r) + "\n" for r in REPLIES))
    assert run(tmp_path) == 0
    b4 = read_columns(tmp_path / "outputs" / "he" / "model" / "B4_matches.json")
    assert b4["checks"][b4["id"].index("right")] == [
        {"test": "line 2: assert candidate(1) == 2", "held": 1, "failed": 0, "error": ""},
        {"test": "line 4: assert candidate(i) == i + 1", "held": 4, "failed": 0, "error": ""},
        {"test": "line 5: assert candidate(10) == 11, 'ten'", "held": 1, "failed": 0, "error": ""}]
    report = tmp_path / "outputs" / "report.html"
    text = report.read_text(encoding="utf-8")
    assert "/* highlight.js 11.12.0, embedded under its licence:\nBSD 3-Clause License" in text
    assert not re.search(r"""\b(src|href)\s*=|@import|<link\b""", re.sub(r"<script>.*?</script>", "", text,
                                                                       flags=re.DOTALL), re.IGNORECASE)
    page = tmp_path / "probe.html"
    page.write_text(text.replace("</body>", PROBE), encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    checks = json.loads(body["checks"].replace("&quot;", '"').replace("&#39;", "'"))
    assert checks == ["held | ✓ line 2: assert candidate(1) == 2",
                      "held | ✓ line 4: assert candidate(i) == i + 1 (held 4 of 4 times)",
                      "failed | ✗ line 5: assert candidate(10) == 11, 'ten' — AssertionError: ten"]
    assert body["right-checks"] == "3"
    assert {"import", "def", "return", "if", "else"} <= set(json.loads(body["keywords"].replace("&quot;", '"')))
    assert body["outcome"].startswith("failed · AssertionError: ten · ") and "sandbox bwrap" in body["outcome"]
    assert body["tampering"].startswith("tampering signs: line 3: ") and "_getframe" in body["tampering"]


SUM = {"id": "sum", "question": "Print 10 + 20.", "inputs": ["\n"], "outputs": ["30\n"]}
PROGRAMS = {"py": ("python", "x = 10\ny = 20\nz = x + y\n"),  # highlight.js's guess finds no language for it
            "js": ("javascript", "const x = 10, y = 20;\nconsole.log(x + y);\n")}
LANGUAGE_PROBE = """<script>
const shown = {};
document.querySelectorAll("details.explorer").forEach(function (box) {
  box.querySelector("summary").click();
  const code = box.querySelector("pre.program code");
  shown[box.dataset.dataset] = [code.className, Array.from(code.querySelectorAll("[class^=hljs-]"))
    .map(s => s.className + " " + s.textContent)];
});
document.querySelectorAll("details.flip").forEach(function (flip) {
  shown["compare " + flip.id] = Array.from(flip.querySelectorAll("pre.program code")).map(c => c.className);
});
document.body.dataset.shown = JSON.stringify(shown);
</script></body>"""


def test_a_program_is_highlighted_with_the_grammar_of_its_datasets_language(tmp_path):
    """B4 records the dataset's `language` (its parameters): a JavaScript dataset's program is highlighted as
    JavaScript and a Python one's as Python, on report.html and compare.html, whatever highlight.js would guess."""
    from pipeline.cli import main
    from tests.pipeline.browser import probe_page
    from tests.pipeline.workspace import write_jsonl

    for name, (language, _) in PROGRAMS.items():
        write_jsonl(tmp_path / "inputs" / name / "questions.jsonl", [SUM])
        (tmp_path / "inputs" / name / "dataset.toml").write_text(
            f'kind = "code"\n[params]\nlanguage = "{language}"\ntimeout_seconds = 5.0\n')
    for run_name, twenty in (("a", "20"), ("b", "2")):  # the second run's programs add 2: the JavaScript one flips
        for name, (language, program) in PROGRAMS.items():
            write_jsonl(tmp_path / "inputs" / name / "predictions" / "m.jsonl",
                        [{"id": "sum", "prediction": f"```{language}\n{program.replace('20', twenty)}```"}])
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / run_name)]) == 0
    body, console = probe_page(tmp_path / "a" / "report.html", LANGUAGE_PROBE, tmp_path)
    assert console == []
    shown = json.loads(body["shown"].replace("&quot;", '"'))
    assert shown["py"] == ["language-python hljs", ["hljs-number 10", "hljs-number 20"]]
    assert shown["js"][0] == "language-javascript hljs"
    assert {"hljs-keyword const", "hljs-variable language_ console", "hljs-title function_ log"} <= set(shown["js"][1])
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) in (0, 3)
    (tmp_path / "profile").rename(tmp_path / "profile-report")
    body, console = probe_page(tmp_path / "b" / "compare.html", LANGUAGE_PROBE, tmp_path)
    assert console == []
    assert json.loads(body["shown"].replace("&quot;", '"')) == {
        "compare js/m/sum": ["language-javascript hljs", "language-javascript hljs"]}
