"""The chat client against a real HTTP server on 127.0.0.1: both protocols, usage split over n replies, the
reasoning kept apart, retries that honour Retry-After, a 400 never retried, and the circuit breaker."""
import pytest

from stages.chat.client import CallFailed, ChatClient, CircuitBreaker, call_with_retries, first_token_logprobs
from stages.chat.endpoint import Endpoint
from tests.pipeline.chat_server import ChatServer


@pytest.fixture
def server():
    with ChatServer() as chat:
        yield chat


def test_openai_conversation_with_system_prompt_history_options_and_key(server, monkeypatch):
    monkeypatch.setenv("TEST_CHAT_KEY", "sk-test")
    client = ChatClient(Endpoint(protocol="openai", url=server.url, system_prompt="Be brief.", temperature=0.0,
                                 seed=7, api_key_env="TEST_CHAT_KEY"), "m1")
    reply = client.ask("and then?", [("hello", "hi there")])
    assert reply.text == "m1 says: and then? [turn 2]" and reply.served_model == "m1"
    assert (reply.tokens_in, reply.tokens_out) == (2 + 1 + 2 + 2, 6)  # words in the four messages; of the answer
    (request,) = server.chats()
    assert request["path"] == "/v1/chat/completions" and request["authorization"] == "Bearer sk-test"
    assert [m["role"] for m in request["body"]["messages"]] == ["system", "user", "assistant", "user"]
    assert (request["body"]["temperature"], request["body"]["seed"]) == (0.0, 7) and "n" not in request["body"]


def test_peppa_protocol_reads_the_answer_field(server):
    client = ChatClient(Endpoint(protocol="peppa", url=server.url), "peppa_cfg")
    client.reset()
    assert client.ask("你好", []).text == "peppa_cfg says: 你好"
    assert [r["path"] for r in server.requests] == ["/reset", "/chat"]


def test_several_replies_in_one_request_split_the_completion_tokens(server):
    server.honours_n = True
    server.answer = lambda message: "one two three"
    replies = ChatClient(Endpoint(protocol="openai", url=server.url), "m").ask_several("q", 3)
    assert [r.text for r in replies] == ["one two three"] * 3
    assert [r.tokens_in for r in replies] == [1, 0, 0]
    assert [r.tokens_out for r in replies] == [1, 1, 1]  # the request's 3 completion tokens shared out
    assert server.chats()[0]["body"]["n"] == 3


def test_a_reply_that_ends_inside_its_reasoning_is_an_empty_answer_with_the_reasoning_kept(server):
    server.replies["think"] = ""
    server.reasoning = lambda message: ("Let me see…", "length")
    reply = ChatClient(Endpoint(protocol="openai", url=server.url), "r1").ask("think hard", [])
    assert (reply.text, reply.reasoning, reply.finish_reason) == ("", "Let me see…", "length")


def test_faults_become_call_failed_with_what_the_server_said(server):
    client = ChatClient(Endpoint(protocol="openai", url=server.url), "m")
    server.faults = [("429", 3), 400, "malformed"]
    with pytest.raises(CallFailed) as slow:
        client.ask("q", [])
    assert (slow.value.reason, slow.value.retry_after, slow.value.retryable) == ("HTTP 429 Too Many Requests", 3.0, True)
    with pytest.raises(CallFailed) as bad:
        client.ask("q", [])
    assert bad.value.reason == "HTTP 400 Bad Request" and not bad.value.retryable
    with pytest.raises(CallFailed, match="malformed response body"):
        client.ask("q", [])


def test_retries_wait_as_the_server_asks_else_with_jittered_backoff():
    waits, outcomes = [], [CallFailed("HTTP 503", retry_after=2.0), CallFailed("HTTP 500"), "answer"]

    def call():
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    config = Endpoint(protocol="openai", url="http://127.0.0.1:1", retries=3, backoff=0.5)
    assert call_with_retries(config, call, sleep=waits.append) == ("answer", None, 3)
    assert waits[0] == 2.0 and 0 <= waits[1] <= 0.5 * 2  # the second attempt's full jitter: up to backoff · 2¹
    never = [CallFailed("HTTP 400", retryable=False)]
    assert call_with_retries(config, lambda: (_ for _ in ()).throw(never[0]), sleep=waits.append) == \
        (None, "HTTP 400", 1)
    assert call_with_retries(Endpoint(protocol="openai", url="x", retries=1),
                             lambda: (_ for _ in ()).throw(CallFailed("down")), sleep=lambda s: None) == \
        (None, "down", 2)


def test_the_circuit_opens_after_consecutive_failures_only():
    breaker = CircuitBreaker(2)
    breaker.record("HTTP 500")
    breaker.record(None)
    breaker.record("HTTP 500")
    assert not breaker.open
    breaker.record("timeout")
    assert breaker.open and breaker.reason() == "circuit open after 2 consecutive failures (last: timeout)"


def test_first_token_logprobs_or_none():
    body = {"choices": [{"logprobs": {"content": [{"token": "A", "top_logprobs": [
        {"token": "A", "logprob": -0.1}, {"token": "B", "logprob": -2.5}]}]}}]}
    assert first_token_logprobs(body) == {"A": -0.1, "B": -2.5}
    assert first_token_logprobs({"choices": [{}]}) is None
