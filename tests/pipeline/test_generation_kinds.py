"""Generation for every question kind against a local OpenAI-compatible server: each question its own conversation,
prompts from the kind's template (or the dataset's), options passed through, Retry-After honoured, a circuit breaker,
usage and latency reported, a changed prompt regenerating and a killed run resuming with only what is missing."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.conftest import write_jsonl

REPO = Path(__file__).resolve().parents[2]

KINDS = {
    "qa": ([{"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
            {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]},
            {"id": "3", "question": "中国的首都是哪里？", "answers": ["北京"]}],
           {"Capital of France": "Paris", "Largest planet": "Saturn", "中国的首都": "北京"}, "exact_match", 2 / 3),
    "fact_verification": ([{"id": "1", "claim": "Water is wet.", "label": "SUPPORTS"},
                           {"id": "2", "claim": "The moon is cheese.", "label": "REFUTES"},
                           {"id": "3", "claim": "地球是平的。", "label": "REFUTES"}],
                          {"Water is wet": "SUPPORTS", "moon is cheese": "SUPPORTS", "地球是平的": "不成立"},
                          "accuracy", 2 / 3),
    "multiple_choice": ([{"id": "1", "question": "2 + 2 = ?", "options": ["3", "4", "5"], "answer": "B"},
                         {"id": "2", "question": "Colour of the sky?", "options": ["blue", "green"], "answer": "A"},
                         {"id": "3", "question": "哪个是水果？", "options": ["苹果", "石头"], "answer": "A"}],
                        {"2 + 2": "B", "Colour of the sky": "B", "哪个是水果": "A"}, "accuracy", 2 / 3),
    "numeric": ([{"id": "1", "question": "How many legs has a spider?", "answer": "8"},
                 {"id": "2", "question": "Days in a week?", "answer": "7"},
                 {"id": "3", "question": "一打是多少个？", "answer": "12"}],
                {"spider": "8", "Days in a week": "5", "一打": "12个"}, "accuracy", 2 / 3),
}


def _dataset(root: Path, kind: str, server: ChatServer, **generate) -> Path:
    questions, _, _, _ = KINDS[kind]
    folder = root / "inputs" / kind
    write_jsonl(folder / "questions.jsonl", questions)
    settings = {"protocol": "openai", "url": server.url, "models": ["m"], "timeout": 2, "retries": 1,
                "backoff": 0.01, **generate}
    lines = "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in settings.items())
    (folder / "dataset.toml").write_text(f'kind = "{kind}"\n[generate]\n{lines}\n', encoding="utf-8")
    return root


def _run(root: Path) -> int:
    return main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")])


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_question_is_its_own_conversation_with_the_kinds_prompt(tmp_path, kind):
    questions, replies, metric, value = KINDS[kind]
    with ChatServer() as server:
        server.replies = replies
        root = _dataset(tmp_path, kind, server, temperature=0, max_tokens=32, seed=7, stop=["\n\n"],
                        system_prompt="Be brief.", concurrency=2)
        assert _run(root) == 0
        chats = server.chats()
    assert len(chats) == 3
    for chat in chats:
        body = chat["body"]
        assert [m["role"] for m in body["messages"]] == ["system", "user"]  # no earlier question rides along
        assert (body["temperature"], body["max_tokens"], body["seed"], body["stop"]) == (0, 32, 7, ["\n\n"])
    prompts = {m["body"]["messages"][-1]["content"] for m in chats}
    english = next(p for p in prompts if questions[0].get("question", questions[0].get("claim")) in p)
    chinese = next(p for p in prompts if questions[2].get("question", questions[2].get("claim")) in p)
    assert chinese != english and ("答" in chinese or "结论" in chinese)
    assert "Answer" in english or "Verdict" in english
    if kind == "multiple_choice":
        assert "A. 3\nB. 4\nC. 5" in english
    metrics = read_artifact_json(tmp_path / "outputs" / kind / "m" / "B5_component_scores.json")["metrics"]
    assert metrics[metric] == pytest.approx(value)
    generation = read_artifact_json(tmp_path / "outputs" / kind / "B6_report.json")["report"]["generation"]["m"]
    assert generation["answers"] == 3 and generation["failures"] == {}
    assert generation["tokens_in"] > 0 and generation["tokens_out"] >= 3 and generation["latency_p50"] > 0


def test_a_dataset_template_and_retry_after(tmp_path):
    with ChatServer() as server:
        server.replies = KINDS["qa"][1]
        server.faults = [("429", 0.4)]
        root = _dataset(tmp_path, "qa", server, prompt_template="Q: {question}\nA:", concurrency=1)
        assert _run(root) == 0
        chats, times = server.chats(), server.times
    assert {c["body"]["messages"][-1]["content"] for c in chats} == {
        "Q: Capital of France?\nA:", "Q: Largest planet?\nA:", "Q: 中国的首都是哪里？\nA:"}
    assert len(chats) == 4 and times[1] - times[0] >= 0.39  # the 429's Retry-After was waited for


def test_changing_the_prompt_regenerates_and_a_threshold_does_not(tmp_path):
    with ChatServer() as server:
        server.replies = KINDS["qa"][1]
        root = _dataset(tmp_path, "qa", server, temperature=0)
        assert _run(root) == 0 and len(server.chats()) == 3
        toml = root / "inputs" / "qa" / "dataset.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + "\n[params]\npartial_f1_threshold = 0.9\n",
                        encoding="utf-8")
        assert _run(root) == 0 and len(server.chats()) == 3  # scoring changed, answers reused
        toml.write_text(toml.read_text(encoding="utf-8").replace("temperature = 0", "temperature = 0.7"),
                        encoding="utf-8")
        assert _run(root) == 0 and len(server.chats()) == 6  # another temperature: asked again


def test_a_dead_endpoint_opens_the_circuit_and_the_night_goes_on(tmp_path, capsys):
    with ChatServer() as server:
        url = server.url
    root = _dataset(tmp_path, "qa", server, circuit_breaker=2)
    write_jsonl(root / "inputs" / "other" / "questions.jsonl", [{"id": "1", "question": "q", "answers": ["a"]}])
    write_jsonl(root / "inputs" / "other" / "predictions" / "m.jsonl", [{"id": "1", "prediction": "a"}])
    assert url and _run(root) == 1
    rejects = read_artifact_json(root / "outputs" / "qa" / "m" / "B2_predictions.json")["rejects"]
    assert [r["reason"].split(": ", 1)[1].startswith("circuit open") for r in rejects] == [False, False, True]
    generation = read_artifact_json(root / "outputs" / "qa" / "B6_report.json")["report"]["generation"]["m"]
    assert generation["failures"] == {"connection failed": 2, "circuit open after 2 consecutive failures": 1}
    assert read_artifact_json(root / "outputs" / "other" / "B6_report.json")["report"]["problems"] == []


def test_a_killed_generation_resumes_asking_only_what_is_missing(tmp_path):
    with ChatServer() as server:
        server.faults = [("delay", 0.3)] * 40
        folder = tmp_path / "inputs" / "qa"
        write_jsonl(folder / "questions.jsonl",
                    [{"id": str(i), "question": f"question {i}?", "answers": ["x"]} for i in range(40)])
        (folder / "dataset.toml").write_text(
            f'kind = "qa"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\nconcurrency = 1\n')
        command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(tmp_path / "inputs"), "--outputs",
                   str(tmp_path / "outputs")]
        run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
        store = tmp_path / "outputs" / "qa" / "m" / "B2_generated.jsonl"
        deadline = time.monotonic() + 60
        while (not store.exists() or store.read_bytes().count(b"\n") < 5) and time.monotonic() < deadline:
            time.sleep(0.05)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        kept = store.read_bytes().count(b"\n")
        asked_before = len(server.chats())
        server.faults = []
        assert subprocess.run(command, cwd=REPO, capture_output=True).returncode == 0
        asked_again = [c["body"]["messages"][-1]["content"] for c in server.chats()[asked_before:]]
    assert 5 <= kept < 40 and len(asked_again) == 40 - kept  # at most the call in flight is lost
    rows = read_artifact_json(tmp_path / "outputs" / "qa" / "m" / "B2_predictions.json")["header"]["counts"]
    assert rows["accepted"] == 40
