"""A completions endpoint asked for loglikelihoods as lm-eval 0.4.13's local-completions asks it: text tokenized by the
server's /tokenize (vLLM, llama.cpp's server), token-id prompts sent with echo, logprobs = 1, max_tokens = 1, the
continuation's echoed token log-probs summed, greedy when each is its position's top log-prob."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .client import CallFailed, ChatClient

SEED = 1234  # the seed lm-eval sends with every request


class EchoRefused(Exception):
    """The server answered without the prompt's log-probs (echo ignored, or too few): no figure can come from it."""


@dataclass(frozen=True)
class Asked:
    """One (context, continuation) as token ids: the prompt sent (cut from the left to the max length) and how many
    of its first tokens are context."""

    prompt: list[int]
    context_length: int
    truncated: bool


def pair_tokens(context: list[int], continuation: list[int], max_length: int) -> Asked:
    """lm-eval's batch_loglikelihood_requests: the tokens cut from the left to max_length − 1 (one is left for the
    generated token), the context length reduced by what was cut."""
    limit = max_length - 1
    whole = context + continuation
    cut = max(0, len(whole) - limit)
    return Asked(whole[-limit:], len(context) - cut, cut > 0)


def continuation_logprob(choice: Any, asked: Asked) -> tuple[float, bool]:
    """(sum of the continuation's token log-probs, whether each was its position's top one), from one echoed choice:
    lm-eval's token_logprobs[ctxlen:-1]. Raises EchoRefused when the choice lacks the prompt's log-probs."""
    try:
        logprobs = choice["logprobs"]
        tokens, tops = logprobs["token_logprobs"], logprobs["top_logprobs"]
    except (KeyError, TypeError):
        raise EchoRefused("a reply has no logprobs (token_logprobs, top_logprobs)") from None
    if not isinstance(tokens, list) or not isinstance(tops, list) or len(tokens) < len(asked.prompt) + 1 \
            or len(tops) < len(tokens):
        count = len(tokens) if isinstance(tokens, list) else 0
        raise EchoRefused(f"a reply has {count} token log-probs for a prompt of {len(asked.prompt)} tokens and one "
                          "generated (echo ignored?)")
    if asked.context_length < 1:
        raise EchoRefused("a prompt without context tokens cannot be scored (lm-eval asserts ctxlen > 0)")
    wanted, top = tokens[asked.context_length:-1], tops[asked.context_length:-1]
    if not all(isinstance(v, (int, float)) for v in wanted) or not all(isinstance(t, dict) and t for t in top):
        raise EchoRefused("a reply's continuation log-probs are missing or not numbers")
    greedy = all(value == max(alternatives.values()) for value, alternatives in zip(wanted, top))
    return sum(wanted), greedy


class CompletionsClient(ChatClient):
    """One model on a completions server: /tokenize, /tokenizer_info and /v1/completions."""

    def server_root(self) -> str:
        url = self.config.url.rstrip("/")
        return url.removesuffix("/v1/completions").removesuffix("/v1")

    def tokenize(self, text: str) -> list[int]:
        """The server's tokens of `text`, without special tokens (as lm-eval's remote tokenizer asks)."""
        body = self._post("/tokenize", {"prompt": text, "add_special_tokens": False}, self.server_root())
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
            raise CallFailed(f"malformed /tokenize response: {str(body)[:200]!r}", retryable=False)
        return tokens

    def prefix_token(self) -> int:
        """The token an empty context stands for: the BOS token, else EOS (lm-eval's prefix_token_id)."""
        import json
        import urllib.request

        try:
            with urllib.request.urlopen(self.server_root() + "/tokenizer_info", timeout=self.config.timeout) as reply:
                info = json.loads(reply.read())
        except (OSError, ValueError) as exc:
            raise CallFailed(f"/tokenizer_info: {exc}") from None
        if not isinstance(info, dict):
            raise CallFailed(f"malformed /tokenizer_info response: {str(info)[:200]!r}", retryable=False)
        for name in ("bos_token", "eos_token"):
            if isinstance(info.get(name), str):
                found = self.tokenize(info[name])
                if found and found[0]:
                    return found[0]
        raise CallFailed("the server's /tokenizer_info names no BOS or EOS token for an empty context",
                         retryable=False)

    def complete(self, prompts: list[list[int]]) -> list[Any]:
        """One request for several token-id prompts; the choices in prompt order."""
        path = "" if self.config.url.rstrip("/").endswith("/completions") else "/v1/completions"
        body = self._post(path, {"model": self.model, "prompt": prompts, "temperature": 0, "max_tokens": 1,
                                 "logprobs": 1, "seed": SEED, "echo": True})
        choices = body.get("choices") if isinstance(body, dict) else None
        if not isinstance(choices, list) or len(choices) != len(prompts) or not all(
                isinstance(c, dict) and isinstance(c.get("index"), int) for c in choices):
            raise CallFailed(f"malformed response body: {str(body)[:200]!r}")
        return sorted(choices, key=lambda c: c["index"])
