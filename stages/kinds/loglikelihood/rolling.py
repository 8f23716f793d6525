"""Rolling loglikelihoods of whole texts asked of a completions endpoint, as lm-eval 0.4.13's loglikelihood_rolling
asks them: the text's tokens cut into windows of the max length (the first after the prefix token, each later one
with the tokens before it as context), each window's echoed log-probs summed, the windows' sums added per text;
every text's sum journaled as it arrives (a rerun asks nothing)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...chat.call_pool import run_calls
from ...chat.client import CircuitBreaker, ask_with_breaker
from ...chat.completions import Asked, CompletionsClient, continuation_logprob
from ...chat.journal import AnswerStore, failure_record, request_digest
from ...chat.summary import asking_summary
from ...core.progress import Progress
from .loglikelihoods import Tokenizer, start_asking

Window = tuple[list[int], list[int]]


def rolling_windows(tokens: list[int], prefix: int, max_length: int) -> list[Window]:
    """(context, continuation) windows covering every token once, each prompt at most max_length − 1 tokens (one is
    left for the generated token): lm-eval's API models' get_rolling_token_windows with max_seq_len = max_length − 2
    (their self.max_length − 1) and context_len = 1, each made disjoint (make_disjoint_window)."""
    span = max_length - 2
    if span < 1:
        raise ValueError(f"max_length {max_length} leaves no token to predict")
    if not tokens:
        return []
    first = min(span, len(tokens))
    windows = [([prefix], tokens[:first])]
    predicted = first
    while predicted < len(tokens):
        length = min(len(tokens) - predicted, span)
        end = predicted + length
        context = tokens[end - span - 1:end - 1]
        windows.append((context[:len(context) - (length - 1)], tokens[end - length:end]))
        predicted = end
    return windows


@dataclass
class RollingLoglikelihoods:
    """Per text its summed loglikelihood, the texts that failed with why, and how many windows were asked."""

    found: dict[str, float] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    windows: int = 0
    asked: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)

    def summary(self, texts: int) -> dict[str, Any]:
        """B6's generation summary: texts, windows asked, tokens sent."""
        return asking_summary(self.records, tokens_out=0, texts=texts, distinct_texts=len(self.records),
                              asked=self.asked, windows=sum(r.get("windows") or 0 for r in self.records
                                                            if "prediction" in r), truncated=0)


def text_key(model: str, max_length: int, text: str, tokenizer: str | None = None) -> str:
    """What a journaled rolling answer was asked with: the model, the max length, the text and a local tokenizer's
    fingerprint."""
    asked = {"model": model, "max_length": max_length, "rolling": text, **({"tokenizer": tokenizer} if tokenizer else {})}
    return request_digest(asked)


def _ask_text(client: CompletionsClient, source: Tokenizer, prefix: list[int | None], text: str, key: str,
              max_length: int, size: int) -> dict:
    """One text's journal record: its windows (tokenized by `source`) asked `size` to a request, their sums added (the
    prefix token asked once, kept in `prefix`)."""
    if prefix[0] is None:
        prefix[0] = source.prefix_token()
    windows = rolling_windows(source.tokenize(text), prefix[0], max_length)
    asked = [Asked(context + continuation, len(context), False) for context, continuation in windows]
    started, total = time.monotonic(), 0.0
    for start in range(0, len(asked), size):
        chunk = asked[start:start + size]
        for one, choice in zip(chunk, client.complete([a.prompt for a in chunk])):
            total += continuation_logprob(choice, one)[0]
    return {"id": key, "key": key, "prediction": total, "windows": len(windows),
            "tokens_in": sum(len(a.prompt) for a in asked), "latency": round(time.monotonic() - started, 4)}


def _run_text(client: CompletionsClient, source: Tokenizer, prefix: list[int | None], text: str, key: str,
              max_length: int, size: int, store: AnswerStore, breaker: CircuitBreaker, progress: Progress) -> None:
    record, error, attempts = ask_with_breaker(client.config, breaker,
                                               lambda: _ask_text(client, source, prefix, text, key, max_length, size))
    store.append(record if error is None else failure_record({"id": key, "key": key}, error, attempts))
    progress.advance(1)


def ask_rolling(texts: list[str], config: Any, model: str, store_path: Path) -> RollingLoglikelihoods:
    """Each distinct text's rolling loglikelihood: those journaled with the same request kept, the rest asked, up to
    `concurrency` texts at once. Raises EchoRefused when the server does not return the prompt's log-probs."""
    asking = start_asking(texts, config, model, store_path, text_key)
    prefix: list[int | None] = [None]
    with Progress(f"asking {model} for rolling loglikelihoods", len(asking.todo)) as progress:
        run_calls([partial(_run_text, asking.client, asking.source, prefix, text, asking.keys[text], asking.max_length,
                           asking.size, asking.store, asking.breaker, progress) for text in asking.todo],
                  config.concurrency)
    result = RollingLoglikelihoods(asked=len(asking.todo))
    for text, record, failure in asking.journaled():
        result.records.append(record)
        if failure is None:
            result.found[text] = record["prediction"]
            result.windows += record.get("windows") or 0
        else:
            result.failed[text] = failure
    return result
