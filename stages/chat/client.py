"""Asking a chat server: seed 003's peppa protocol (/chat + /reset) or OpenAI chat completions (what vLLM, llama.cpp's
server, TGI, SGLang and OpenAI serve); retries with exponential backoff and full jitter that honour Retry-After."""
from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.stopping import check_stop, wait_unless_stopped
from .endpoint import Endpoint

ANSWER_FIELDS = ("response", "reply", "answer", "content", "message", "text")
OPTION_NAMES = ("temperature", "max_tokens", "top_p", "stop", "seed")
RETRY_STATUSES = (429, 500, 502, 503, 504)


@dataclass(frozen=True)
class Reply:
    """One answer with what it cost: seconds waited and tokens in / out when the server says."""

    text: str
    latency: float
    tokens_in: int | None = None
    tokens_out: int | None = None
    top_logprobs: dict[str, float] | None = None  # the first token's alternatives → logprob, when asked for
    served_model: str | None = None  # what the server says answered (its "model")
    system_fingerprint: str | None = None  # the server's system_fingerprint, when it gives one
    finish_reason: str | None = None  # why the server stopped: "stop", "length" (cut at max_tokens), …
    reasoning: str | None = None  # the reasoning a reasoning server returns apart (message.reasoning_content)
    tool_calls: list | None = None  # the calls of a request that offered `tools` (message.tool_calls)


class CallFailed(Exception):
    """A call that did not give an answer; `retry_after` is the server's requested wait, in seconds."""

    def __init__(self, reason: str, retry_after: float | None = None, retryable: bool = True) -> None:
        super().__init__(reason)
        self.reason, self.retry_after, self.retryable = reason, retry_after, retryable


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to the backoff


class ChatClient:
    """One model on one server, in the dataset's protocol; the API key is read from the environment per call."""

    def __init__(self, config: Endpoint, model: str) -> None:
        self.config, self.model = config, model

    def _post(self, path: str, body: dict[str, Any] | None, base: str | None = None) -> Any:
        """POST `body` as JSON to the server's url (or `base`) + path; its JSON answer."""
        import urllib.error
        import urllib.request  # only when asking: discovering datasets reads the config alone

        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.config.api_key_env or "") if self.config.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request((base or self.config.url).rstrip("/") + path, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.config.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise CallFailed(f"HTTP {exc.code} {exc.reason}", _retry_after(exc.headers.get("Retry-After")),
                             retryable=exc.code in RETRY_STATUSES) from None
        except urllib.error.URLError as exc:
            raise CallFailed(f"connection failed: {exc.reason}") from None
        except (TimeoutError, OSError) as exc:
            raise CallFailed(f"{type(exc).__name__}: {exc}") from None
        try:
            return json.loads(raw) if raw.strip() else None
        except (json.JSONDecodeError, RecursionError):
            raise CallFailed(f"malformed response body: {raw[:200]!r}") from None

    def reset(self) -> None:
        if self.config.protocol == "peppa":
            self._post("/reset", None)

    def messages(self, prompt: str, history: list[tuple[str, str]]) -> list[dict[str, str]]:
        """The OpenAI conversation: system prompt, earlier turns of the same conversation, then this prompt."""
        messages = [{"role": "system", "content": self.config.system_prompt}] if self.config.system_prompt else []
        for question, reply in history:
            messages += [{"role": "user", "content": question}, {"role": "assistant", "content": reply}]
        return [*messages, {"role": "user", "content": prompt}]

    def ask(self, prompt: str, history: list[tuple[str, str]], tools: list | None = None) -> Reply:
        if self.config.protocol == "peppa":
            started = time.monotonic()
            body = self._post("/chat", {"message": prompt, "model_config_name": self.model})
            answer = next((body[k] for k in ANSWER_FIELDS if isinstance(body, dict) and isinstance(body.get(k), str)),
                          None)
            if not isinstance(answer, str):
                raise CallFailed(f"malformed response body: {str(body)[:200]!r}")
            return Reply(answer, time.monotonic() - started)
        return self._ask_openai(prompt, history, 1, tools)[0]

    def ask_messages(self, messages: list[dict[str, Any]], tools: list | None = None,
                     null_is_empty: bool = False) -> Reply:
        """One reply to a conversation given whole (OpenAI's protocol): the messages sent as they are; with
        `null_is_empty` a message whose content is null is an empty answer, not a malformed reply."""
        return self._chat(messages, 1, tools, null_is_empty)[0]

    def ask_several(self, prompt: str, n: int) -> list[Reply]:
        """Up to n replies to one prompt in one request (OpenAI's `n`); a server that ignores `n` gives fewer. Token
        usage is the request's: the prompt counted on the first reply, the completions split among the replies."""
        return self._ask_openai(prompt, [], n)

    def _ask_openai(self, prompt: str, history: list[tuple[str, str]], n: int,
                    tools: list | None = None) -> list[Reply]:
        return self._chat(self.messages(prompt, history), n, tools)

    def _chat(self, messages: list[dict[str, Any]], n: int, tools: list | None = None,
              null_is_empty: bool = False) -> list[Reply]:
        started = time.monotonic()
        path = "" if self.config.url.rstrip("/").endswith("/chat/completions") else "/v1/chat/completions"
        options = {name: getattr(self.config, name) for name in OPTION_NAMES if getattr(self.config, name) is not None}
        if self.config.top_logprobs:
            options.update({"logprobs": True, "top_logprobs": self.config.top_logprobs})
        body = self._post(path, {"model": self.model, "messages": messages, **options,
                                 **({"n": n} if n > 1 else {}), **({"tools": tools} if tools else {})})
        choices = body.get("choices") if isinstance(body, dict) else None
        if not isinstance(choices, list) or not choices:
            raise CallFailed(f"malformed response body: {str(body)[:200]!r}")
        usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
        tokens_in, tokens_out = usage.get("prompt_tokens"), usage.get("completion_tokens")
        served = body.get("model") if isinstance(body.get("model"), str) else None
        fingerprint = body.get("system_fingerprint") if isinstance(body.get("system_fingerprint"), str) else None
        latency, replies, kept = time.monotonic() - started, [], choices[:n]
        for index, choice in enumerate(kept):
            answer, reasoning = _answer_of(choice)
            if answer is None and null_is_empty and isinstance(choice.get("message"), dict) \
                    and choice["message"].get("content", "") is None:
                answer = ""
            if answer is None:
                raise CallFailed(f"malformed response body: {str(body)[:200]!r}")
            share = None if tokens_out is None else tokens_out // len(kept) + (tokens_out % len(kept) if index == 0 else 0)
            finish = choice.get("finish_reason")
            replies.append(Reply(answer, latency, tokens_in if index == 0 else (None if tokens_in is None else 0),
                                 share, first_token_logprobs(body) if self.config.top_logprobs and index == 0 else None,
                                 served, fingerprint, finish if isinstance(finish, str) else None, reasoning,
                                 _tool_calls_of(choice)))
        return replies


def _answer_of(choice: Any) -> tuple[str | None, str | None]:
    """A choice's (answer, reasoning): all reasoning and no answer is an empty answer (it ended inside its
    reasoning); no message at all is None."""
    try:
        message = choice["message"]
        answer, reasoning = message["content"], _reasoning_of(message)
    except (KeyError, IndexError, TypeError):
        return None, None
    if answer is None and (reasoning is not None or _tool_calls_of(choice)):
        answer = ""
    return (answer if isinstance(answer, str) else None), reasoning


def _tool_calls_of(choice: Any) -> list | None:
    """A choice's tool calls, when its message holds any."""
    message = choice.get("message") if isinstance(choice, dict) else None
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    return calls if isinstance(calls, list) and calls else None


def _reasoning_of(message: dict[str, Any]) -> str | None:
    """The reasoning a server returns beside the answer: reasoning_content (vLLM, DeepSeek) or reasoning (newer vLLM,
    OpenRouter)."""
    found = message.get("reasoning_content", message.get("reasoning"))
    return found if isinstance(found, str) else None


def first_token_logprobs(body: Any) -> dict[str, float] | None:
    """The first generated token's alternatives and their logprobs (OpenAI's choices[0].logprobs.content[0]
    .top_logprobs), or None when the reply has none."""
    try:
        alternatives = body["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        return {str(a["token"]): float(a["logprob"]) for a in alternatives}
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def call_with_retries(config: Endpoint, call, sleep=wait_unless_stopped) -> tuple[Any, str | None, int]:
    """(result, last error or None, attempts): up to 1 + retries attempts; between them the server's Retry-After
    when it gives one, else a random wait up to backoff · 2^(attempt-1) (full jitter, so clients do not retry in step).
    Raises Stopped, sending nothing more, once a stop is asked for."""
    error = None
    for attempt in range(1, config.retries + 2):
        check_stop()
        try:
            return call(), None, attempt
        except CallFailed as exc:
            error = exc.reason
            if not exc.retryable or attempt > config.retries:
                return None, error, attempt
            wait = exc.retry_after if exc.retry_after is not None else random.uniform(0, config.backoff * 2 ** (attempt - 1))
            sleep(wait)
    return None, error, config.retries + 1


def ask_with_breaker(config: Endpoint, breaker: CircuitBreaker, call: Callable[[], Any]) -> tuple[Any, str | None, int]:
    """One journaled request's asking, as every asker does it: (None, the breaker's reason, 0 attempts) when the
    breaker is open — nothing sent —, else call_with_retries' (result, error, attempts), the outcome recorded on the
    breaker. The asker journals the answer or the error record."""
    if breaker.open:
        return None, breaker.reason(), 0
    result, error, attempts = call_with_retries(config, call)
    breaker.record(error)
    return result, error, attempts


class CircuitBreaker:
    """Stops asking after `limit` consecutive calls that failed (after their retries); says why."""

    def __init__(self, limit: int) -> None:
        self.limit, self.failures, self.last = limit, 0, ""
        self._lock = threading.Lock()

    def record(self, error: str | None) -> None:
        with self._lock:
            self.failures, self.last = (0, self.last) if error is None else (self.failures + 1, error)

    @property
    def open(self) -> bool:
        return self.failures >= self.limit

    def reason(self) -> str:
        return f"circuit open after {self.failures} consecutive failures (last: {self.last})"
