"""A chat server and how to ask it: the settings [generate] and [judge] share, checked the same way (the key itself is
never stored, only the name of its environment variable)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import UsageError

CLIENT_NUMBERS = {"timeout": ((int, float), 0), "retries": (int, 0), "concurrency": (int, 1),
                  "backoff": ((int, float), 0), "temperature": ((int, float), 0), "max_tokens": (int, 1),
                  "seed": (int, 0), "circuit_breaker": (int, 1)}  # a chat client's settings: types and lower bounds
CLIENT_TEXTS = ("url", "api_key_env", "system_prompt")


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    """Where to ask (protocol, url, key variable), what to send besides the messages (system prompt and sampling
    options), how patiently (timeout, retries with backoff, the circuit breaker), how many at once, and the price."""

    protocol: str
    url: str
    timeout: float = 60.0
    retries: int = 3
    concurrency: int = 1
    backoff: float = 0.5
    circuit_breaker: int = 10
    api_key_env: str | None = None
    system_prompt: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    stop: str | list[str] | None = None
    seed: int | None = None
    top_logprobs: int | None = None  # ask for the first token's most likely alternatives and their logprobs
    price: dict[str, float] | None = None  # $ per million tokens in and out (changes no answer)


def settings_problems(table: dict[str, Any], numbers: dict[str, tuple[Any, int]], texts: tuple[str, ...]) -> list[str]:
    """What is wrong with a [generate] / [judge] table's numbers (of their type — an int one a whole number — and
    within their lower bounds) and texts: one entry per bad key."""
    problems = []
    for name, (types, low) in numbers.items():
        value = table.get(name)
        if value is not None and (not isinstance(value, types) or isinstance(value, bool) or value < low):
            problems.append(f"{name} = {value!r} must be {'a whole number' if types is int else 'a number'} ≥ {low}")
    problems += [f"{name} must be text" for name in texts if table.get(name) is not None
                 and not isinstance(table[name], str)]
    return problems


def check_settings(table: dict[str, Any], numbers: dict[str, tuple[Any, int]], texts: tuple[str, ...], origin: str,
                   section: str) -> None:
    """The numbers of a [generate] / [judge] table within their lower bounds and its texts as text; every bad key
    said at once, in one line, otherwise."""
    problems = settings_problems(table, numbers, texts)
    if problems:
        raise UsageError(f"{origin}: " + "; ".join(f"[{section}] {problem}" for problem in problems))
