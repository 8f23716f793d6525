"""The one summary every asker returns: failures counted by kind the same way for each."""
import pytest

from stages.chat.summary import asking_summary
from stages.kinds.loglikelihood.loglikelihoods import Loglikelihoods
from stages.kinds.loglikelihood.rolling import RollingLoglikelihoods

RECORDS = [{"id": "a", "prediction": "x", "latency": 0.2, "tokens_in": 5, "tokens_out": 2, "finish_reason": "length"},
           {"id": "b", "prediction": "y", "latency": 0.4, "tokens_in": 3, "tokens_out": 1},
           {"id": "c", "error": "connection failed: [Errno 111] Connection refused", "attempts": 3},
           {"id": "d", "error": "circuit open after 1 consecutive failures (last: connection failed: …)", "attempts": 0}]
FAILURES = {"connection refused": 1, "circuit open after 1 consecutive failures": 1}


def test_the_summary_counts_answers_failures_latency_tokens_and_cost():
    summary = asking_summary(RECORDS, {"input": 1_000_000.0, "output": 2_000_000.0})
    assert summary == {"answers": 2, "failures": FAILURES, "latency_p50": pytest.approx(0.3), "latency_p95": 0.4,
                       "tokens_in": 8, "tokens_out": 3, "cost": pytest.approx(8.0 + 6.0), "cut_at_max_tokens": 1}


def test_the_loglikelihood_loops_count_failures_as_generation_does():
    pairs = Loglikelihoods(records=RECORDS).summary(pairs=4)
    texts = RollingLoglikelihoods(records=RECORDS).summary(texts=4)
    assert pairs["failures"] == texts["failures"] == FAILURES
    assert pairs["tokens_out"] == 2 and pairs["pairs"] == 4  # one token out per answered pair
    assert texts["tokens_out"] == 0 and texts["distinct_texts"] == 4
