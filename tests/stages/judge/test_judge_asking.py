"""Asking the judge through the one journaled-request helper: the circuit breaker stops asking, and what asking took
comes back in the one asking summary every asker returns, failures counted by outage.error_kind."""
import socket

import orjson

from stages.judge import JudgeCall, ask_judges, read_judge_config


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _calls(n: int) -> list[JudgeCall]:
    return [JudgeCall(f"q{i}", "correct", "j", 0, f"prompt {i}", f"key{i}") for i in range(n)]


def test_a_judge_that_refuses_connections_opens_the_breaker_and_the_summary_counts_each_failure_by_kind(tmp_path):
    config = read_judge_config({"url": f"http://127.0.0.1:{_closed_port()}", "model": "j", "criteria": ["correct"],
                                "retries": 0, "circuit_breaker": 2, "concurrency": 1}, "t")
    journal = tmp_path / "calls.jsonl"
    journal.write_bytes(orjson.dumps({"id": "key3", "key": "key3", "prediction": "Verdict: CORRECT",
                                      "attempts": 1}) + b"\n")  # a verdict journaled before: found, not asked
    replies = ask_judges(_calls(4), config, journal)
    assert replies.asking["answers"] == 0
    assert replies.asking["failures"] == {"connection refused": 2, "circuit open after 2 consecutive failures": 1}
    assert replies.usage == {"asked": 2, "reused": 0, "failed": 3, "not_judged": 0, "tokens_in": 0, "tokens_out": 0}
    assert replies.records["key3"]["prediction"] == "Verdict: CORRECT"
    assert [replies.records[f"key{i}"]["attempts"] for i in range(3)] == [1, 1, 0]
