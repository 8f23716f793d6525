"""Make docs/images/report-*.png, the pictures of docs/report.md: run the demo over a copy of inputs/ with three
datasets of the kinds it lacks beside it (a math and a code dataset written here, tau2's conformance episodes), run it
again with some replies changed, compare the two runs, and photograph report.html and compare.html in headless
Chromium (`python3 docs/report_pictures.py`; needs `chromium` and, for the code items, `bwrap` on PATH)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
IMAGES = REPO / "docs" / "images"
TAU2 = REPO / "tests" / "stages" / "kinds" / "tau2" / "conformance"

ALGEBRA = [{"id": "a1", "problem": "What is $\\frac{1}{2} + \\frac{1}{3}$?", "answer": "\\frac{5}{6}"},
           {"id": "a2", "problem": "Simplify $\\sqrt{8}$.", "answer": "2\\sqrt{2}"},
           {"id": "a3", "problem": "Solve $x^2 = 9$ for $x > 0$.", "answer": "3"},
           {"id": "a4", "problem": "What is $\\binom{5}{2}$?", "answer": "10"}]
ALGEBRA_REPLIES = {
    "model_a": {"a1": "<think>Common denominator 6: 3/6 + 2/6 = 5/6.</think> The sum is $\\boxed{\\frac{5}{6}}$.",
                "a2": "$\\sqrt{8} = \\sqrt{4 \\cdot 2} = \\boxed{2\\sqrt{2}}$", "a3": "$x = \\boxed{3}$",
                "a4": "$\\binom{5}{2} = \\frac{5 \\cdot 4 \\cdot 3}{2} = \\boxed{30}$"},
    "model_b": {"a1": "Adding tops and bottoms: $\\boxed{\\frac{2}{5}}$", "a2": "$\\boxed{\\sqrt{8}}$",
                "a3": "<think>x squared is 9 so x is plus or minus 3", "a4": "$\\boxed{10}$"}}
ALGEBRA_LATER = {"model_a": {"a1": "<think>1/2 + 1/3 = 2/5?</think> $\\boxed{\\frac{2}{5}}$",
                             "a4": "$\\binom{5}{2} = \\frac{5 \\cdot 4}{2} = \\boxed{10}$"}}
ADD_TEST = ("def check(candidate):\n    assert candidate(1, 2) == 3\n    for i in range(5):\n"
            "        assert candidate(i, i) == 2 * i\n    assert candidate(-1, 1) == 0\n")
PROGRAMS = [{"id": "add", "prompt": "def add(a, b):\n    \"\"\"The sum of a and b.\"\"\"\n", "entry_point": "add",
             "test": ADD_TEST},
            {"id": "evens", "prompt": "def evens(numbers):\n    \"\"\"The even numbers of a list, in order.\"\"\"\n",
             "entry_point": "evens",
             "test": "def check(candidate):\n    assert candidate([1, 2, 3, 4]) == [2, 4]\n"
                     "    assert candidate([]) == []\n    assert candidate([-2, 5]) == [-2]\n"}]
PROGRAM_REPLIES = {
    "model_a": {"add": "```python\ndef add(a, b):\n    return a + b\n```",
                "evens": "```python\ndef evens(numbers):\n    return [n for n in numbers if n % 2 == 0]\n```"},
    "model_b": {"add": "```python\ndef add(a, b):\n    # sizes are never negative\n    return abs(a) + abs(b)\n```",
                "evens": "```python\nimport sys\n\ndef evens(numbers):\n    found = []\n    for n in numbers:\n"
                         "        if n > 0 and n % 2 == 0:\n            found.append(n)\n    return found\n```"}}


def browser() -> str | None:
    """Chromium's binary on PATH, else None."""
    return next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def inputs(folder: Path, later: bool) -> None:
    """The demo's inputs, the algebra and programs datasets and tau2's episodes; `later`: the second run's, where
    model_a answers two algebra items otherwise and qa_mixed's two models trade replies."""
    shutil.copytree(REPO / "inputs", folder)
    shutil.copytree(TAU2, folder / "tau2_tasks", ignore=shutil.ignore_patterns("expected.json"))
    for name, kind, questions, replies in (("algebra", "math", ALGEBRA, ALGEBRA_REPLIES),
                                           ("programs", "code", PROGRAMS, PROGRAM_REPLIES)):
        (folder / name).mkdir()
        (folder / name / "dataset.toml").write_text(f'kind = "{kind}"\n')
        write_jsonl(folder / name / "questions.jsonl", questions)
        for model, texts in replies.items():
            texts = {**texts, **(ALGEBRA_LATER.get(model, {}) if later and name == "algebra" else {})}
            write_jsonl(folder / name / "predictions" / f"{model}.jsonl",
                        [{"id": item, "prediction": text} for item, text in texts.items()])
    if later:
        qa = folder / "qa_mixed" / "predictions"
        (qa / "model_a.jsonl").rename(qa / "swap.jsonl")
        (qa / "model_b.jsonl").rename(qa / "model_a.jsonl")
        (qa / "swap.jsonl").rename(qa / "model_b.jsonl")


ONE_ITEM = """<script>
// report.html's deep link to one item (#LINK, followed as a link is) with the item alone, its folds open: the title,
// its dataset's heading and its explorer kept (of a tau2 item, its first trial open), the other rows and sections hidden (a headless screenshot is taken at
// the top of the page, so nothing is scrolled to). The explorer draws the linked row once the link is followed,
// before the page's load event.
history.replaceState(null, "", "#LINK");
window.dispatchEvent(new HashChangeEvent("hashchange"));
window.addEventListener("load", function () {
const row = document.getElementById("LINK"), box = row.closest("details.explorer");
const first = row.querySelector("details.episode");
row.querySelectorAll("details").forEach(function (d) { d.open = !d.classList.contains("episode") || d === first; });
Array.from(row.parentElement.rows).forEach(function (r) { if (r !== row) r.style.display = "none"; });
let section = box;
while (section.parentElement !== document.body) section = section.parentElement;
Array.from(document.body.children).forEach(function (c) {
  const kept = c === section || c.tagName === "H1" || c.tagName === "H2" && c.id === box.dataset.dataset;
  if (!kept && c.tagName !== "SCRIPT") c.style.display = "none";
});
window.scrollTo(0, 0);
});
</script></body>"""
FLIPPED_LIST = """<script>
// compare.html from its flipped items on, the first algebra flip open.
let before = true;
Array.from(document.body.children).forEach(function (child) {
  if (child.tagName === "H2" && child.textContent === "Flipped items") before = false;
  if (before && !/^(H1|SCRIPT|STYLE)$/.test(child.tagName)) child.style.display = "none";
});
document.getElementById("algebra/model_a/a1").open = true;
window.scrollTo(0, 0);
</script></body>"""


def photograph(chromium: str, page: Path, script: str, picture: str, work: Path, size: tuple[int, int]) -> None:
    """A PNG of `page` (with `script` run after its own) as headless Chromium draws it, with no network."""
    shown = page.with_name(f"shown-{picture}.html")
    shown.write_text(page.read_text(encoding="utf-8").replace("</body>", script), encoding="utf-8")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", f"--user-data-dir={work / 'profile'}", "--hide-scrollbars",
                    "--host-resolver-rules=MAP * ~NOTFOUND", f"--window-size={size[0]},{size[1]}",
                    f"--screenshot={IMAGES / picture}", shown.as_uri()],
                   check=True, capture_output=True, timeout=120)


def main() -> int:
    chromium = browser()
    if chromium is None:
        print("report_pictures: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    evalpipe = [sys.executable, "-m", "pipeline"]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        shutil.copy(REPO / "luigi.cfg", work / "luigi.cfg")
        for run, later in (("a", False), ("b", True)):
            inputs(work / f"inputs_{run}", later)
            subprocess.run([*evalpipe, "run", "--inputs", f"inputs_{run}", "--outputs", run], cwd=work, check=True,
                           capture_output=True, env=environment)
        compared = subprocess.run([*evalpipe, "compare", "a", "b"], cwd=work, capture_output=True, env=environment)
        if compared.returncode not in (0, 3):
            print(compared.stderr.decode(errors="replace"), file=sys.stderr)
            return 1
        report = work / "a" / "report.html"
        photograph(chromium, report, "</body>", "report-overview.png", work, (1280, 900))
        for link, picture, height in (("algebra/model_a/a1", "report-math.png", 420),
                                      ("programs/model_b/add", "report-code.png", 560),
                                      ("tau2_tasks/good/create", "report-tau2.png", 720)):
            photograph(chromium, report, ONE_ITEM.replace("LINK", link), picture, work, (1280, height))
        photograph(chromium, work / "b" / "compare.html", FLIPPED_LIST, "compare-flips.png", work, (1280, 900))
    for picture in sorted(IMAGES.glob("*.png")):
        print(f"report_pictures: {picture.relative_to(REPO)} ({picture.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
