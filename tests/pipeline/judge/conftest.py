"""The scripted judge the judge tests ask: a chat server on 127.0.0.1 replying as capitals.JUDGE_REPLIES says, with
its API key in the environment."""
import pytest

from tests.pipeline.judge.capitals import JUDGE_REPLIES, SECRET


@pytest.fixture
def judge_server(chat_server, monkeypatch):
    monkeypatch.setenv("EVALPIPE_TEST_JUDGE_KEY", SECRET)
    chat_server.replies.update(JUDGE_REPLIES)
    return chat_server
