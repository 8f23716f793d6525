"""kind = "instruction": prompts with no reference, judged by a scripted judge on 127.0.0.1 — criteria that need no
reference, pairwise against a baseline (N − 1 pairs), the Bradley–Terry leaderboard in B6, the console and the page;
refused up front without [judge] or with a criterion that needs a reference the items lack."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, run, write_jsonl

REPO = REPO
PROMPTS = ["Write a haiku about autumn.", "Explain recursion to a child.", "Give three tips for sleeping well.",
           "用一句话介绍长城。", "Suggest a name for a cat."]
ANSWERS = {"best": "a careful answer", "good": "an answer", "weak": "meh"}
REPLIES = {  # best beats everyone in both orders, good beats weak but on the Chinese item; the 1–5 score follows
    "Response A: a careful answer": "[[A]]", "Response B: a careful answer": "[[B]]",
    "Response A: an answer\n\nResponse B: meh": "[[A]]", "Response A: meh\n\nResponse B: an answer": "[[B]]",
    "回复 A：a careful answer": "[[A]]", "回复 B：a careful answer": "[[B]]",
    "回复 A：an answer\n\n回复 B：meh": "[[B]]", "回复 A：meh\n\n回复 B：an answer": "[[A]]",
    "Response to grade: a careful answer": "Rating: 5", "Response to grade: an answer": "Rating: 3",
    "Response to grade: meh": "Rating: 1", "待评回复：a careful answer": "[[5]]", "待评回复：an answer": "[[3]]",
    "待评回复：meh": "[[1]]",
}


def _dataset(root: Path, judge: str | None, server: ChatServer | None = None) -> Path:
    folder = root / "inputs" / "open"
    write_jsonl(folder / "questions.jsonl", [{"id": f"p{i}", "instruction": p} for i, p in enumerate(PROMPTS)])
    for model, answer in ANSWERS.items():
        write_jsonl(folder / "predictions" / f"{model}.jsonl",
                    [{"id": f"p{i}", "output": answer} for i in range(len(PROMPTS))])
    table = "" if judge is None else f'[judge]\nurl = "{server.url}"\nmodel = "j"\n{judge}'
    (folder / "dataset.toml").write_text(f'kind = "instruction"\n{table}', encoding="utf-8")
    return root


@pytest.fixture
def server(chat_server):
    chat_server.replies.update(REPLIES)
    return chat_server


def test_instructions_are_judged_without_a_reference_and_ranked_against_a_baseline(tmp_path, server, capsys):
    root = _dataset(tmp_path, 'criteria = ["score_1_5"]\npairwise = true\nbaseline = "weak"\n', server)
    assert run(root) == 0
    out = capsys.readouterr().out
    asked = [r["body"]["messages"][-1]["content"] for r in server.chats()]
    pairwise = [text for text in asked if "Response A" in text or "回复 A" in text]
    assert len(pairwise) == 2 * 5 * 2  # best and good, each against the baseline only, in both orders
    assert not any("an answer\n\nResponse B: a careful" in text for text in pairwise)  # never best against good
    assert all("Reference:" not in text and "参考答案：" not in text for text in asked)  # no reference shown
    b1 = read_artifact_json(root / "outputs/open/B1_questions.json")
    assert b1["header"]["counts"]["accepted"] == 5 and b1["rejects"] == []
    assert b1["rows"][0]["question"] == PROMPTS[0]
    b5 = read_artifact_json(root / "outputs/open/best/B5_component_scores.json")
    assert b5["metrics"]["mean_characters"] == len("a careful answer") and b5["metrics"]["mean_words"] == 3
    report = read_artifact_json(root / "outputs/open/B6_report.json")["report"]
    assert report["judge"]["models"]["best"]["score_1_5"]["mean"] == 5.0
    assert report["judge"]["models"]["weak"]["score_1_5"]["mean"] == 1.0
    pairs = {(p["first"], p["second"]): p for p in report["pairwise"]["pairs"]}
    assert set(pairs) == {("best", "weak"), ("good", "weak")}
    assert pairs[("best", "weak")]["win_ties_half_rate"] == 1.0
    board = report["bradley_terry"]
    assert [row["model"] for row in board["models"]] == ["best", "good", "weak"]
    assert board["anchor"] == "weak" and board["models"][-1]["rating"] == pytest.approx(1000.0)
    # good won 4 of 5 against weak: odds 4:1, 400·log10(4) points above it; best never lost: at the bound
    assert board["models"][1]["rating"] == pytest.approx(1000 + 400 * math.log10(4), abs=0.01)
    assert board["models"][0]["rating"] == pytest.approx(3000.0)
    assert "open: leaderboard (Bradley–Terry, Elo scale, weak at 1000, 5 items)" in out
    assert "Leaderboard" in (root / "outputs/report.html").read_text()


@pytest.mark.parametrize(("judge", "message"), [
    (None, "kind 'instruction' is scored by a judge: add [judge]"),
    ('criteria = ["correct"]\n', "correct compare(s) with a reference ({expected}), and 5 item(s) have none"),
    ('pairwise = true\nbaseline = "nobody"\n', "[judge] baseline 'nobody' is not one of the dataset's models"),
    ('criteria = ["score_1_5"]\nbaseline = "weak"\n', "[judge] baseline is the model every other is compared with"),
])
def test_an_instruction_dataset_that_cannot_be_judged_is_refused_in_one_line(tmp_path, server, capsys, judge,
                                                                              message):
    root = _dataset(tmp_path, judge, server)
    assert run(root) == 1
    err = capsys.readouterr().err
    assert len([line for line in err.splitlines() if line.startswith("PROBLEM ")]) == 1 and message in err, err
    assert server.requests == []


def test_the_judges_concurrency_needs_no_luigi_cfg(tmp_path, server):
    root = _dataset(tmp_path, 'criteria = ["score_1_5"]\nconcurrency = 4\n', server)
    command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(root / "inputs"), "--outputs",
               str(root / "outputs")]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, env=env)  # no luigi.cfg here
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    summary = read_artifact_json(root / "outputs/open/best/B5_judge.json")["summary"]["score_1_5"]
    assert summary["mean"] == 5.0 and json.loads(json.dumps(summary))["n"] == 5


def test_instruction_answers_are_generated_then_judged(tmp_path, server):
    folder = tmp_path / "inputs" / "asked"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "prompt": "Write a haiku about autumn."},
                                             {"id": "2", "prompt": "用一句话介绍长城。"}])
    server.replies.update({"Write a haiku": "a careful answer", "介绍长城": "meh"})
    (folder / "dataset.toml").write_text(
        f'kind = "instruction"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
        f'[judge]\nurl = "{server.url}"\nmodel = "j"\ncriteria = ["score_1_5"]\n', encoding="utf-8")
    assert run(tmp_path) == 0
    asked = [r["body"]["messages"][-1]["content"] for r in server.chats()]
    assert sorted(asked[:2]) == sorted(["Write a haiku about autumn.", "用一句话介绍长城。"])  # each prompt as given
    judged = read_artifact_json(tmp_path / "outputs/asked/m/B5_judge.json")["summary"]["score_1_5"]
    assert judged["mean"] == 3.0 and judged["n"] == 2  # 5 for the haiku, 1 for "meh"


def test_an_empty_instruction_is_set_aside_and_never_sent_to_the_judge(tmp_path, server, capsys):
    root = _dataset(tmp_path, 'criteria = ["score_1_5"]\n', server)
    folder = root / "inputs" / "open"
    rows = [{"id": "p0", "instruction": ""}] + [{"id": f"p{i}", "instruction": p} for i, p in enumerate(PROMPTS)][1:]
    rows.append({"id": "p9", "instruction": "   "})
    write_jsonl(folder / "questions.jsonl", rows)
    assert run(root) == 0
    capsys.readouterr()
    b1 = read_artifact_json(root / "outputs/open/B1_questions.json")
    assert {(r["line"], r["reason"]) for r in b1["rejects"]} == {
        (1, "empty instruction (nothing to answer or judge)"), (6, "empty instruction (nothing to answer or judge)")}
    assert b1["header"]["counts"]["accepted"] == 4
    asked = [r["body"]["messages"][-1]["content"] for r in server.chats()]
    assert len(asked) == 4 * 3  # four instructions, three models, one criterion
    assert all(any(prompt in text for prompt in PROMPTS[1:]) for text in asked)  # each shows its instruction


def test_a_judge_whose_replies_mostly_cannot_be_read_fails_the_dataset_in_one_line(tmp_path, capsys):
    with ChatServer() as chat:
        chat.answer = lambda message: "Rating: [[4]]" if "Suggest a name" in message else "I like this answer a lot."
        root = _dataset(tmp_path, 'criteria = ["score_1_5"]\n', chat)
        assert run(root) == 1
    err = capsys.readouterr().err
    problems = [line for line in err.splitlines() if line.startswith("PROBLEM open")]
    assert len(problems) == 3  # one per model: 1 of 5 replies parsed
    assert ("judge criterion score_1_5 of model best: 20% of 5 replies parsed (below 50%); expected a rating 1–5 "
            '({"score": 4}, [[4]] or "Rating: 4"); got e.g. \'I like this answer a lot.\'') in problems[0]
    report = read_artifact_json(root / "outputs/open/B6_report.json")["report"]
    assert len(report["problems"]) == 3
    config = root / "inputs/open/dataset.toml"
    config.write_text(config.read_text() + "min_parse_rate = 0.2\n")
    assert run(root) == 0  # the verdicts are reused: only the threshold changed
    capsys.readouterr()


def test_the_headline_of_a_judged_instruction_dataset_is_the_judges_score_not_the_answer_rate(tmp_path, server,
                                                                                               capsys):
    root = _dataset(tmp_path, 'criteria = ["score_1_5"]\npairwise = true\nbaseline = "weak"\n', server)
    assert run(root) == 0
    console = capsys.readouterr().out
    rows = [line.split() for line in console.splitlines() if line.startswith("open ")]
    assert {(r[1], r[2], r[3]) for r in rows} == {("best", "judge:score_1_5", "5.0000"),
                                                  ("good", "judge:score_1_5", "3.0000"),
                                                  ("weak", "judge:score_1_5", "1.0000")}
    summary = json.loads((root / "outputs/B6_summary.json").read_text())
    assert {r["metric"] for r in summary["rows"]} == {"judge:score_1_5"}
    page = (root / "outputs/report.html").read_text()
    summary_table = page[page.index("<h2>Summary</h2>"):page.index("</table>", page.index("<h2>Summary</h2>"))]
    assert "answer_rate" not in summary_table and "judge:score_1_5" in summary_table
    assert 'data-value="5.0">5</td>' in summary_table  # a 1–5 mean shown as itself, not as 500%
