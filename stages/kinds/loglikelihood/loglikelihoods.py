"""Loglikelihoods asked of a completions endpoint: each distinct (context, continuation) asked once, several prompts
per request, `concurrency` requests in flight, every answer journaled as it arrives (a rerun asks nothing, a killed
run resumes); tokenized as lm-eval 0.4.13 tokenizes a pair."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from ...chat.call_pool import run_calls
from ...chat.client import CircuitBreaker, ask_with_breaker
from ...chat.completions import CompletionsClient, continuation_logprob, pair_tokens
from ...chat.journal import AnswerStore, answered, failure_record, request_digest
from ...chat.local_tokenizer import LocalTokenizer, load_tokenizer
from ...chat.summary import asking_summary
from ...core.progress import Progress

DEFAULT_MAX_LENGTH = 2048  # lm-eval's API models' max_length
DEFAULT_BATCH = 16  # prompts per request

Pair = tuple[str, str]


class Tokenizer(Protocol):
    """What tokenizes a pair's texts: the server's /tokenize or a local tokenizer folder."""

    def tokenize(self, text: str) -> list[int]: ...

    def prefix_token(self) -> int: ...


@dataclass
class Loglikelihoods:
    """Per asked pair its (loglikelihood, greedy), the pairs that failed with why, and how many were cut to fit."""

    found: dict[Pair, tuple[float, bool]] = field(default_factory=dict)
    failed: dict[Pair, str] = field(default_factory=dict)
    truncated: int = 0
    distinct: int = 0
    asked: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)  # the journal's record of each distinct pair

    def summary(self, pairs: int) -> dict[str, Any]:
        """B6's generation summary (the shape live generation's has) and the pairs: all, distinct, asked this run,
        cut from the left to the max length."""
        return asking_summary(self.records, tokens_out=sum("prediction" in r for r in self.records), pairs=pairs,
                              distinct_pairs=self.distinct, asked=self.asked, truncated=self.truncated)


def pair_key(model: str, max_length: int, pair: Pair, tokenizer: str | None = None) -> str:
    """What a journaled answer was asked with: the model, the max length, the pair's texts and a local tokenizer's
    fingerprint (none: the server's /tokenize)."""
    asked = {"model": model, "max_length": max_length, "context": pair[0], "continuation": pair[1],
             **({"tokenizer": tokenizer} if tokenizer else {})}
    return request_digest(asked)


def text_tokenizer(config: Any, client: CompletionsClient) -> Tokenizer:
    """What tokenizes: the local folder [generate] tokenizer names, else the server (/tokenize)."""
    return load_tokenizer(config.tokenizer) if config.tokenizer else client


def tokenizer_fingerprint(source: Tokenizer) -> str | None:
    """A local tokenizer's fingerprint for the journal's keys (None: the server's, keyed by the model's name)."""
    return source.fingerprint if isinstance(source, LocalTokenizer) else None


class PairTokenizer:
    """A pair's token ids as lm-eval's TemplateLM makes them: the context's trailing whitespace moved to the
    continuation, the whole tokenized and the context's tokens split off; an empty context stands as the prefix
    token (BOS, else EOS) unless the continuation starts with it. `source` tokenizes (the server or a local
    folder)."""

    def __init__(self, client: CompletionsClient, source: Tokenizer) -> None:
        self.client, self.source, self._contexts, self._prefix = client, source, {}, None
        self._lock = threading.Lock()

    def _tokens(self, text: str) -> list[int]:
        found = self._contexts.get(text)
        if found is None:
            found = self._contexts[text] = self.source.tokenize(text)
        return found

    def prefix(self) -> int:
        with self._lock:
            if self._prefix is None:
                self._prefix = self.source.prefix_token()
            return self._prefix

    def encode(self, context: str, continuation: str) -> tuple[list[int], list[int]]:
        if context == "":
            tokens = self.source.tokenize(continuation)
            prefix = self.prefix()
            return ([prefix], tokens) if not tokens or prefix != tokens[0] else (tokens[:1], tokens[1:])
        spaces = len(context) - len(context.rstrip())
        if spaces:
            context, continuation = context[:-spaces], context[-spaces:] + continuation
        context_tokens = self._tokens(context)
        return context_tokens, self.source.tokenize(context + continuation)[len(context_tokens):]


def _ask_batch(tokenizer: PairTokenizer, pairs: list[Pair], keys: dict[Pair, str], max_length: int) -> list[dict]:
    """One request for a batch of pairs: their journal records (EchoRefused and CallFailed go up)."""
    asked = [pair_tokens(*tokenizer.encode(*pair), max_length) for pair in pairs]
    started = time.monotonic()
    choices = tokenizer.client.complete([a.prompt for a in asked])
    latency = round(time.monotonic() - started, 4)
    records = []
    for pair, one, choice in zip(pairs, asked, choices):
        loglikelihood, greedy = continuation_logprob(choice, one)
        records.append({"id": keys[pair], "key": keys[pair], "prediction": loglikelihood, "greedy": greedy,
                        "truncated": one.truncated, "tokens_in": len(one.prompt), "latency": latency})
    return records


def _run_batch(tokenizer: PairTokenizer, pairs: list[Pair], keys: dict[Pair, str], max_length: int,
               store: AnswerStore, breaker: CircuitBreaker, progress: Progress) -> None:
    records, error, attempts = ask_with_breaker(tokenizer.client.config, breaker,
                                                lambda: _ask_batch(tokenizer, pairs, keys, max_length))
    store.extend(records if error is None else [failure_record({"id": keys[p], "key": keys[p]}, error, attempts)
                                                for p in pairs])
    progress.advance(len(pairs))


def unanswered(keys: dict[Any, str], store: AnswerStore) -> list[Any]:
    """The items of `keys` (item → journal key), in order, whose answer the journal does not hold yet."""
    known = store.load(set(keys.values()))
    return [item for item, key in keys.items() if not answered(known.get(key), key)]


@dataclass
class Asking:
    """What both loglikelihood loops ask with: the max length, the client of the served model, what tokenizes, each
    distinct item's journal key, the journal, the items it does not answer yet, the breaker and prompts per request."""

    max_length: int
    client: CompletionsClient
    source: Tokenizer
    keys: dict[Any, str]
    store: AnswerStore
    todo: list[Any]
    breaker: CircuitBreaker
    size: int

    def journaled(self) -> list[tuple[Any, dict[str, Any], str | None]]:
        """Each distinct item, in order, with its journal record and why it has no answer (None: it has one)."""
        records = self.store.load(set(self.keys.values()))
        found = [(item, records.get(key, {}), key) for item, key in self.keys.items()]
        return [(item, record, None if answered(record, key) else
                 f"failed after {record.get('attempts', 0)} attempt(s): {record.get('error')}")
                for item, record, key in found]


def start_asking(items: list[Any], config: Any, model: str, store_path: Path,
                 key: Callable[[str, int, Any, str | None], str]) -> Asking:
    """The set-up of asking `items` of [generate]'s completions endpoint: each distinct item keyed by `key(served
    model, max length, item, local tokenizer's fingerprint)`, those journaled with that key left out of `todo`."""
    max_length = config.max_length or DEFAULT_MAX_LENGTH
    served = config.served(model)
    client = CompletionsClient(config, served)
    source = text_tokenizer(config, client)
    keys = {item: key(served, max_length, item, tokenizer_fingerprint(source)) for item in dict.fromkeys(items)}
    store = AnswerStore(store_path)
    return Asking(max_length, client, source, keys, store, unanswered(keys, store),
                  CircuitBreaker(config.circuit_breaker), config.batch_size or DEFAULT_BATCH)


def ask_loglikelihoods(pairs: list[Pair], config: Any, model: str, store_path: Path) -> Loglikelihoods:
    """Each distinct pair's loglikelihood and greedy flag: those journaled with the same request kept, the rest
    asked `batch_size` to a request, `concurrency` requests at once. Raises EchoRefused when the server does not
    return the prompt's log-probs."""
    asking = start_asking(pairs, config, model, store_path, pair_key)
    todo, size = asking.todo, asking.size
    tokenizer = PairTokenizer(asking.client, asking.source)
    with Progress(f"asking {model} for loglikelihoods", len(todo)) as progress:
        run_calls([partial(_run_batch, tokenizer, todo[start:start + size], asking.keys, asking.max_length,
                           asking.store, asking.breaker, progress) for start in range(0, len(todo), size)],
                  config.concurrency)
    result = Loglikelihoods(distinct=len(asking.keys), asked=len(todo))
    for pair, record, failure in asking.journaled():
        result.records.append(record)
        if failure is None:
            result.found[pair] = (record["prediction"], record["greedy"])
            result.truncated += bool(record.get("truncated"))
        else:
            result.failed[pair] = failure
    return result
