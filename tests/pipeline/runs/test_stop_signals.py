"""SIGINT and SIGTERM while asking a chat server (generation, the judge): no request after the signal, the process
exits within seconds with one line and 130 / 143, and the rerun asks only what is missing."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, write_jsonl

REPO = REPO
QUESTIONS = 200
CONCURRENCY = 4


def _dataset(root: Path, server: ChatServer, asking: str) -> Path:
    folder = root / "inputs" / "qa"
    write_jsonl(folder / "questions.jsonl",
                [{"id": str(i), "question": f"question {i}?", "answers": ["x"]} for i in range(QUESTIONS)])
    if asking == "judge":
        write_jsonl(folder / "predictions" / "m.jsonl", [{"id": str(i), "prediction": "x"} for i in range(QUESTIONS)])
        table = (f'[judge]\nurl = "{server.url}"\nmodel = "j"\ncriteria = ["correct"]\nconcurrency = {CONCURRENCY}\n'
                 "min_parse_rate = 0\n")  # the server echoes: this is about stopping, not parsing
        journal = root / "outputs" / "qa" / "m" / "B5_judge_calls.jsonl"
    else:
        table = (f'[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
                 f'concurrency = {CONCURRENCY}\n')
        journal = root / "outputs" / "qa" / "m" / "B2_generated.jsonl"
    (folder / "dataset.toml").write_text(f'kind = "qa"\n{table}')
    (root / "luigi.cfg").write_text(f"[resources]\nendpoint.openai = {CONCURRENCY}\n")
    return journal


def _answered(path: Path) -> set[str]:
    """The keys answered in a journal or the judge's verdict store (a kill may fall between writing the two)."""
    from stages.chat.journal import AnswerStore

    return {key for key, record in AnswerStore(path).load().items() if "prediction" in record}


@pytest.mark.parametrize(("asking", "signum"), [("generate", signal.SIGINT), ("judge", signal.SIGTERM),
                                                ("generate", signal.SIGTERM)])
def test_a_signal_stops_asking_at_once_and_the_rerun_asks_only_what_is_missing(tmp_path, asking, signum):
    with ChatServer() as server:
        server.faults = [("delay", 0.2)] * (3 * QUESTIONS)
        journal = _dataset(tmp_path, server, asking)
        command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(tmp_path / "inputs"), "--outputs",
                   str(tmp_path / "outputs")]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "LUIGI_CONFIG_PATH": str(tmp_path / "luigi.cfg")}
        run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 60
        while (not journal.exists() or journal.read_bytes().count(b"\n") < 10) and time.monotonic() < deadline:
            time.sleep(0.02)
        signalled = time.monotonic()
        run.send_signal(signum)
        _, err = run.communicate(timeout=30)
        took = time.monotonic() - signalled
        assert run.returncode == 128 + signum and took < 5, (run.returncode, took, err.decode()[-2000:])
        text = err.decode()
        assert "Traceback" not in text and f"evalpipe: stopped by {signal.Signals(signum).name}" in text, text
        late = [t for t in server.times if t > signalled + 0.5]
        assert not late  # nothing asked after the signal (calls in flight then came in within the delay)
        asked = len(server.chats())
        kept = len(_answered(journal) | _answered(tmp_path / "outputs" / "judge_store" / "verdicts.jsonl"))
        assert kept < QUESTIONS and asked - kept <= CONCURRENCY  # at most the calls in flight were dropped
        server.faults = []
        rerun = subprocess.run(command, cwd=REPO, capture_output=True, env=env)
        assert rerun.returncode == 0, rerun.stderr.decode()[-2000:]
        assert len(server.chats()) - asked == QUESTIONS - kept  # only what was missing
    answered = [json.loads(line) for line in journal.read_bytes().splitlines()]
    assert len({r["id"] for r in answered if "prediction" in r}) == QUESTIONS
