"""Live generation in B2 against a local server that injects delays, 500s and malformed bodies."""
import json
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import run

CASES = {"test_cases_by_scene": {
    "泥坑": [{"context": "佩奇，你想做什么？", "expected_response": "跳泥坑！", "dialogue_index": 0},
             {"context": "乔治呢？", "expected_response": "乔治也跳。", "dialogue_index": 1}],
    "party": [{"context": "Whose birthday?", "expected_response": "Mine!", "dialogue_index": 0},
              {"context": "ALWAYS500 cake?", "expected_response": "Yes please.", "dialogue_index": 1}],
}}


def _dataset(tmp_path: Path, server: ChatServer, protocol: str, unscored: float = 0.25, **extra) -> Path:
    """The dialogue dataset asked of `server`; its party#1 always fails (ALWAYS500): 1 item of 4 not scored, which
    max_unscored_share = `unscored` lets publish by default."""
    folder = tmp_path / "inputs" / "chat"
    folder.mkdir(parents=True)
    (folder / "questions.json").write_text(json.dumps(CASES, ensure_ascii=False), encoding="utf-8")
    settings = {"protocol": protocol, "url": server.url, "models": ["alpha"], "timeout": 0.5, "retries": 2,
                "backoff": 0.01, **extra}
    lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in settings.items())
    (folder / "dataset.toml").write_text(
        f'kind = "dialogue"\nmax_unscored_share = {unscored}\n[params]\nsemantic_model = "none"\n[generate]\n{lines}\n', encoding="utf-8")
    return tmp_path


def _b2(workspace: Path) -> dict:
    return read_artifact_json(workspace / "outputs/chat/alpha/B2_predictions.json")


def test_peppa_protocol_resets_per_scene_retries_and_resumes(tmp_path):
    with ChatServer() as server:
        workspace = _dataset(tmp_path, server, "peppa")
        # 泥坑#0: a 500, a malformed body, then an answer; 泥坑#1: a timeout, then an answer
        server.faults = [500, "malformed", None, ("delay", 1.0)]
        assert run(workspace) == 0  # party#1 never answered: 1 of 4 items not scored, within max_unscored_share
        paths = [r["path"] for r in server.requests]
        assert paths.count("/reset") == 2 and paths[0] == "/reset"
        b2 = _b2(workspace)
        assert b2["header"]["counts"] == {"input_rows": 4, "accepted": 3, "rejected": 1}
        (reject,) = b2["rejects"]
        assert reject["location"] == "party#1" and reject["reason"] == (
            "generation failed after 3 attempt(s): HTTP 500 Internal Server Error")
        answers = {r["id"]: r["prediction"] for r in b2["rows"]}
        assert answers["泥坑#0"] == "alpha says: 佩奇，你想做什么？"
        assert server.chats()[0]["body"] == {"message": "佩奇，你想做什么？", "model_config_name": "alpha"}
        b5 = read_artifact_json(workspace / "outputs/chat/alpha/B5_component_scores.json")["metrics"]
        assert b5["missing"] == 0 and b5["rows"] == 3  # the failed answer is not scored: out of the denominator
        unscored = read_artifact_json(workspace / "outputs/chat/B6_report.json")["report"]["unscored"]["alpha"]
        assert unscored["line"] == ("1 of 4 items not scored: the model server did not answer "
                                    "(HTTP 500 Internal Server Error) × 1") and unscored["published"]
        csv_text = (workspace / "outputs/chat/B6_human_annotation.csv").read_bytes().decode("utf-8-sig")
        assert "evalpipe: no prediction (missing or failed)" in csv_text  # people still see the item

        before = len(server.chats())
        assert run(workspace) == 0  # the failure makes B2 incomplete: only party#1 is asked again
        asked = [r["body"]["message"] for r in server.chats()[before:]]
        assert asked == ["ALWAYS500 cake?"] * 3


def test_a_rerun_after_a_kill_asks_only_what_is_missing(tmp_path):
    with ChatServer() as server:
        workspace = _dataset(tmp_path, server, "peppa")
        assert run(workspace) == 0
        store = workspace / "outputs/chat/alpha/B2_generated.jsonl"
        lines = store.read_bytes().splitlines(keepends=True)
        store.write_bytes(lines[0] + lines[1][: len(lines[1]) // 2])  # killed while writing the second answer
        (workspace / "outputs/chat/alpha/B2_predictions.json").unlink()
        before = len(server.chats())
        assert run(workspace) == 0
        asked = [r["body"]["message"] for r in server.chats()[before:]]
        assert "佩奇，你想做什么？" not in asked and "乔治呢？" in asked
        assert {r["id"]: r["prediction"] for r in _b2(workspace)["rows"]}["泥坑#0"] == "alpha says: 佩奇，你想做什么？"


def test_openai_protocol_carries_the_conversation_and_keeps_the_key_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALPIPE_TEST_KEY", "sk-secret-123")
    with ChatServer() as server:
        workspace = _dataset(tmp_path, server, "openai", api_key_env="EVALPIPE_TEST_KEY", concurrency=2,
                             system_prompt="You are Peppa Pig.")
        assert run(workspace) == 0
        second = next(r for r in server.chats() if r["body"]["messages"][-1]["content"] == "乔治呢？")
        assert [m["role"] for m in second["body"]["messages"]] == ["system", "user", "assistant", "user"]
        assert second["body"]["messages"][2]["content"] == "alpha says: 佩奇，你想做什么？ [turn 1]"
        assert {r["authorization"] for r in server.chats()} == {"Bearer sk-secret-123"}
        assert {r["id"]: r["prediction"] for r in _b2(workspace)["rows"]}["泥坑#1"] == "alpha says: 乔治呢？ [turn 2]"
    for path in (workspace / "outputs").rglob("*"):
        if path.is_file():
            assert b"sk-secret-123" not in path.read_bytes()


def test_a_broken_generate_table_is_a_usage_error(tmp_path, capsys):
    with ChatServer() as server:
        workspace = _dataset(tmp_path, server, "carrier-pigeon")
    assert run(workspace) == 1
    assert "protocol must be one of peppa, openai" in capsys.readouterr().err


def test_generate_without_a_protocol_speaks_openai(tmp_path):
    with ChatServer() as server:
        workspace = _dataset(tmp_path, server, "openai")
        toml = workspace / "inputs" / "chat" / "dataset.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace('protocol = "openai"\n', ""), encoding="utf-8")
        assert "protocol" not in toml.read_text(encoding="utf-8")
        assert run(workspace) == 0
        assert server.chats() and all(r["path"] == "/v1/chat/completions" for r in server.chats())


@pytest.mark.parametrize("protocol", ["peppa", "openai"])
def test_a_server_that_is_down_fails_every_case_and_the_run_says_so(tmp_path, protocol, capsys):
    """Every stage still completes (B6 is written), but a model with nothing to score fails the run, by name."""
    with ChatServer() as server:
        url = server.url
    workspace = _dataset(tmp_path, server, protocol, retries=1)
    assert url and run(workspace) == 1
    err = capsys.readouterr().err
    assert "model alpha: not published: 4 of 4 items not scored: the model server did not answer" in err
    assert "no prediction to score" not in err
    assert (workspace / "outputs" / "chat" / "B6_report.json").exists()
    b2 = _b2(workspace)
    assert b2["header"]["counts"]["accepted"] == 0 and len(b2["rejects"]) == 4
    assert all("connection failed" in r["reason"] or "reset failed" in r["reason"] for r in b2["rejects"])
