"""A night's judging costs only what changed: verdicts reused across runs and nights through the store, what a run
cost (calls, reuse, tokens, money) on the console, in B6 and the history, a budget that holds, and a store that two
runs at once and a killed run leave whole — against a scripted judge on 127.0.0.1."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from stages.chat.journal import AnswerStore
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, write_jsonl

REPO = REPO


def _dataset(inputs: Path, server: ChatServer, judge: str = "", items: int = 20, changed: int = 0) -> Path:
    folder = inputs / "judged"
    write_jsonl(folder / "questions.jsonl", [{"id": f"q{i}", "question": f"Question {i}?", "answers": [f"a{i}"]}
                                             for i in range(items)])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": f"q{i}", "prediction": f"a{i}" if i >= changed else
                                                      f"changed {i}"} for i in range(items)])
    (folder / "dataset.toml").write_text(f'kind = "qa"\n[judge]\nurl = "{server.url}"\nmodel = "j"\n'
                                         f'criteria = ["correct"]\nconcurrency = 2\n{judge}')
    return folder


@pytest.fixture
def server(chat_server):
    chat_server.replies.update({"Answer to grade: changed": "Verdict: INCORRECT", "Answer to grade: a": "Verdict: CORRECT"})
    return chat_server


def test_the_second_night_asks_only_what_changed_and_says_what_it_cost(tmp_path, server, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    _dataset(inputs, server, "price = { input = 2.5, output = 10.0 }\n")
    night = ["nightly", "--inputs", str(inputs), "--outputs", str(outputs)]
    assert main([*night, "--date", "2026-11-01"]) == 0
    assert len(server.chats()) == 20
    first = capsys.readouterr().out
    _dataset(inputs, server, "price = { input = 2.5, output = 10.0 }\n", changed=2)  # a tenth of the answers changed
    assert main([*night, "--date", "2026-11-02"]) == 0
    assert len(server.chats()) == 22  # only the two changed answers were asked
    out = capsys.readouterr().out
    journal = outputs / "nightly/2026-11-02/judged/m/B5_judge_calls.jsonl"
    asked = [json.loads(line) for line in journal.read_bytes().splitlines() if b'"reused"' not in line]
    tokens_in, tokens_out = sum(r["tokens_in"] for r in asked), sum(r["tokens_out"] for r in asked)
    dollars = (tokens_in * 2.5 + tokens_out * 10.0) / 1e6
    assert len(asked) == 2 and tokens_in > 0
    assert f"judged: judge: 2 asked, 18 reused, {tokens_in:,} tokens in / {tokens_out:,} out, ${dollars:,.2f}" in out, out
    assert "judged: judge: 20 asked, 0 reused" in first
    report = read_artifact_json(outputs / "nightly/2026-11-02/judged/B6_report.json")["report"]
    assert report["judge_cost"]["total"] == {"asked": 2, "reused": 18, "failed": 0, "not_judged": 0,
                                             "tokens_in": tokens_in, "tokens_out": tokens_out,
                                             "cost": pytest.approx(dollars)}
    assert report["judge"]["models"]["m"]["correct"]["mean"] == pytest.approx(18 / 20)
    history = pq.read_table(outputs / "nightly/history.parquet").to_pylist()
    spent = {(r["date"], r["metric"]): r["value"] for r in history if r["metric"].startswith("judge_cost:")}
    assert spent[("2026-11-02", "judge_cost:asked")] == 2 and spent[("2026-11-01", "judge_cost:asked")] == 20
    assert spent[("2026-11-02", "judge_cost:cost")] == pytest.approx(dollars)
    assert "judge: 2 asked, 18 reused" in (outputs / "nightly/2026-11-02/judged/B6_report.txt").read_text()
    page = (outputs / "nightly/2026-11-02/report.html").read_text()
    assert "What the judging took" in page and f"${dollars:.2f}" in page
    store = outputs / "judge_store/verdicts.jsonl"
    assert len(store.read_bytes().splitlines()) == 22  # every verdict asked, once


def test_a_budget_stops_the_calls_leaves_the_rest_unjudged_and_the_next_run_asks_them_first(tmp_path, server,
                                                                                               capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    folder = _dataset(inputs, server, "max_calls = 6\n", items=10, changed=10)
    run = ["run", "--inputs", str(inputs), "--outputs", str(outputs)]
    assert main(run) == 0  # the usual exit code
    assert len(server.chats()) == 6
    captured = capsys.readouterr()
    assert "judged: the judge's budget was reached: 4 call(s) not judged" in captured.err
    summary = read_artifact_json(outputs / "judged/m/B5_judge.json")["summary"]["correct"]
    assert summary["not_judged"] == 4 and summary["n"] == 6 and summary["failed_calls"] == 0
    assert summary["mean"] == 0.0  # over the judged items only, never counting the others as 0 or wrong
    asked_first = {c["body"]["messages"][-1]["content"].split("Answer to grade: ")[1].split("\n")[0]
                   for c in server.chats()}
    (folder / "dataset.toml").write_text((folder / "dataset.toml").read_text().replace("max_calls = 6", "max_calls = 2"))
    assert main(run) == 0
    again = [c["body"]["messages"][-1]["content"].split("Answer to grade: ")[1].split("\n")[0]
             for c in server.chats()[6:]]
    assert len(again) == 2 and not set(again) & asked_first  # the calls left last time come first
    (folder / "dataset.toml").write_text((folder / "dataset.toml").read_text().replace("max_calls = 2\n", ""))
    assert main(run) == 0 and len(server.chats()) == 10
    assert read_artifact_json(outputs / "judged/m/B5_judge.json")["summary"]["correct"]["n"] == 10


def test_a_money_budget_counts_the_tokens_at_the_price(tmp_path, server):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    _dataset(inputs, server, "price = { input = 1000000.0, output = 0.0 }\nmax_cost = 100.0\n", items=10)
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    prompt_words = server.chats()[0]["body"]["messages"][-1]["content"].split()
    assert len(prompt_words) > 50  # each call costs more than $50 at $1 a token: the second one passes $100
    assert len(server.chats()) == 2
    assert read_artifact_json(outputs / "judged/m/B5_judge.json")["summary"]["correct"]["not_judged"] == 8


def _command(inputs: Path, outputs: Path) -> list[str]:
    return [sys.executable, "-m", "pipeline", "run", "--inputs", str(inputs), "--outputs", str(outputs)]


def test_two_runs_writing_one_store_at_once_lose_nothing_and_a_killed_one_leaves_it_readable(tmp_path, server):
    store = tmp_path / "shared-store.jsonl"
    server.faults = [("delay", 0.02)] * 400
    runs = []
    for name, shift in (("a", 0), ("b", 1000)):
        inputs = tmp_path / name / "inputs"
        folder = _dataset(inputs, server, f'store = "{store}"\nmin_parse_rate = 0\n', items=60)  # the store, not parsing
        write_jsonl(folder / "predictions" / "m.jsonl", [{"id": f"q{i}", "prediction": f"a{i + shift}"}
                                                         for i in range(60)])
        runs.append(subprocess.Popen(_command(inputs, tmp_path / name / "outputs"), cwd=REPO,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for run in runs:
        assert run.wait(timeout=120) == 0, run.stderr.read().decode()[-2000:]
    lines = store.read_bytes().splitlines()
    assert len(lines) == 120 and all(json.loads(line)["prediction"] for line in lines)  # every verdict, whole
    killed = subprocess.Popen(_command(tmp_path / "b" / "inputs", tmp_path / "c" / "outputs"), cwd=REPO,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert killed.wait(timeout=120) == 0  # another outputs folder: every verdict comes from the store
    with open(store, "ab") as handle:
        handle.write(b'{"id": "torn", "key": "torn", "predic')  # a run SIGKILLed mid-line
    asked = len(server.chats())
    inputs = tmp_path / "a" / "inputs"
    write_jsonl(inputs / "judged/predictions/m.jsonl", [{"id": f"q{i}", "prediction": f"new {i}"} for i in range(60)])
    victim = subprocess.Popen(_command(inputs, tmp_path / "d" / "outputs"), cwd=REPO,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(store.read_bytes().splitlines()) < 131 and time.monotonic() < deadline:  # 120, the torn one, 10 new
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    kept = AnswerStore(store).load()  # the torn line set aside, every whole record read
    assert "torn" not in kept and len(kept) >= 130
    before = len(server.chats())
    assert subprocess.run(_command(inputs, tmp_path / "e" / "outputs"), cwd=REPO, capture_output=True).returncode == 0
    assert len(server.chats()) - before == 60 - (len(kept) - 120)  # only what the store did not have
    assert asked == 120 and len(AnswerStore(store).load()) == 180


def test_the_cost_line_counts_what_this_run_asked(tmp_path, server, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    folder = _dataset(inputs, server)
    command = ["run", "--inputs", str(inputs), "--outputs", str(outputs)]
    assert main(command) == 0
    assert "judged: judge: 20 asked, 0 reused" in capsys.readouterr().out
    (folder / "labels").mkdir()
    (folder / "labels" / "ann.csv").write_text("id,model,correct\nq0,m,CORRECT\nq1,m,INCORRECT\n")
    assert main(command) == 0  # only B6 reruns, to read the new labels: nothing is asked
    out = capsys.readouterr().out
    assert "judged: judge: nothing asked (every verdict was on hand)" in out and "20 asked" not in out
    assert len(server.chats()) == 20
    report = read_artifact_json(outputs / "judged" / "B6_report.json")["report"]
    assert report["judge_cost"]["total"]["asked"] == 20  # the report still says what the stage took when it ran


def test_a_judge_changed_behind_its_name_is_noticed_and_its_stored_verdicts_are_asked_again(tmp_path, server,
                                                                                            capsys):
    """Night 1 fills the verdict store (system_fingerprint fp_1); night 2, unchanged, asks only the recheck share
    and says nothing; night 3 the server answers as fp_2 and marks everything INCORRECT: one line names the judge and
    both fingerprints, every verdict of that judge is asked again, and the scores are the new judge's."""
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    _dataset(inputs, server, "recheck = 0.25\n")
    night = ["nightly", "--inputs", str(inputs), "--outputs", str(outputs)]
    server.fingerprint = "fp_1"
    assert main([*night, "--date", "2026-11-01"]) == 0
    assert len(server.chats()) == 20
    capsys.readouterr()
    assert main([*night, "--date", "2026-11-02"]) == 0
    captured = capsys.readouterr()
    assert len(server.chats()) == 25  # 5 of the 20 stored verdicts asked again, none flipped
    assert "judge j:" not in captured.err
    usage = read_artifact_json(outputs / "nightly/2026-11-02/judged/m/B5_judge.json")["header"]["judge_usage"]
    assert (usage["asked"], usage["reused"], usage["rechecked"], usage["flips"]) == (5, 15, 5, 0)
    server.fingerprint = "fp_2"
    server.replies.clear()
    server.answer = lambda message: "Verdict: INCORRECT"
    assert main([*night, "--date", "2026-11-03"]) == 3  # the judge's score fell: a regression
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("evalpipe: judge j:")]
    assert lines == ["evalpipe: judge j: its server now answers as j / fp_2 where its stored verdicts came from "
                     "j / fp_1; none of its stored verdicts are used this run (asked again)"]
    assert len(server.chats()) == 25 + 20  # the recheck share, then the other 15 stored ones
    judged = read_artifact_json(outputs / "nightly/2026-11-03/judged/m/B5_judge.json")
    assert judged["header"]["judge_usage"]["reused"] == 0 and judged["summary"]["correct"]["mean"] == 0.0
