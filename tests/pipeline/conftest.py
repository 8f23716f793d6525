"""Fixtures every pipeline test may ask for: a small workspace of two datasets, a chat server on 127.0.0.1 and one
killed (an outage); every test here is marked end_to_end."""
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import write_jsonl


@pytest.fixture
def workspace(tmp_path):
    """inputs/ with one QA dataset (two models) and one fact-verification dataset; outputs/ empty."""
    inputs = tmp_path / "inputs"
    qa = inputs / "qa_small"
    write_jsonl(qa / "questions.jsonl", [
        {"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
        {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]},
        {"id": "3", "question": "首都？", "answers": ["北京"]},
        {"id": "4", "question": "Author?", "answers": ["Jane Austen"]},
    ])
    write_jsonl(qa / "predictions" / "alpha.jsonl", [
        {"id": "1", "prediction": "Paris"}, {"id": "2", "prediction": "Saturn"},
        {"id": "3", "prediction": "北京。"}, {"id": "4", "prediction": "Austen"},
    ])
    write_jsonl(qa / "predictions" / "beta.jsonl", [
        {"id": "1", "prediction": "paris"}, {"id": "2", "prediction": "Jupiter"}, {"id": "9", "prediction": "x"},
    ])
    fv = inputs / "claims"
    write_jsonl(fv / "questions.jsonl", [
        {"id": i, "claim": c, "label": l} for i, (c, l) in enumerate(
            [("a", "SUPPORTS"), ("b", "REFUTES"), ("c", "NOT ENOUGH INFO"), ("d", "SUPPORTS")], start=1)
    ])
    write_jsonl(fv / "predictions" / "alpha.jsonl", [
        {"id": 1, "prediction": "成立"}, {"id": 2, "prediction": "不成立"}, {"id": 3, "prediction": "maybe?"},
        {"id": 4, "prediction": "The claim is true."},
    ])
    (fv / "dataset.toml").write_text('kind = "fact_verification"\n')
    return tmp_path


@pytest.fixture
def chat_server():
    """A chat server on 127.0.0.1 (OpenAI's and seed 003's protocols), stopped after the test."""
    with ChatServer() as chat:
        yield chat


@pytest.fixture
def killed_server():
    """An outage: `killed_server(answers, **settings)` starts a chat server on 127.0.0.1 (its `answer`, `tool_calls`,
    `agent`… set) that dies — its port closed, every later call refused — as it sends its `answers`-th answer;
    `killed_server()` one already down. Every one is stopped after the test."""
    with ExitStack() as servers:
        def start(answers: int = 0, **settings) -> ChatServer:
            server = ChatServer()
            for name, value in settings.items():
                setattr(server, name, value)
            if answers:
                server.dies_after = answers
                return servers.enter_context(server)
            with server:
                pass  # started and stopped: its port is closed
            return server

        yield start


def pytest_collection_modifyitems(items):
    """Every test under tests/pipeline runs evalpipe end to end: marked `end_to_end`."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.end_to_end)
