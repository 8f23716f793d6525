"""Asking the judge: every call (item × criterion × judge model × sample) is journaled as its reply arrives, keyed
by what decides the verdict — the rendered prompt, the judge model and the sampling settings — so a rerun asks
nothing, a changed rubric asks only its criterion again, and a killed run resumes where it stopped."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import product
from pathlib import Path
from typing import Any, Protocol

import orjson

from ..chat.call_pool import run_calls
from ..chat.client import ChatClient, CircuitBreaker, call_with_retries
from ..chat.journal import AnswerStore
from ..core.progress import Progress
from ..text.normalize import has_cjk
from .budget import Budget
from .config import JudgeConfig


@dataclass(frozen=True)
class JudgeCall:
    """One question to a judge model about one item and criterion (`sample` counts repeats)."""

    item: str
    criterion: str
    judge: str
    sample: int
    prompt: str
    key: str


def render_fields(question: str | None, golds: list[str] | None, prediction: str | None, options: list[str] | None,
                  persona: str | None, dialogue: bool = False) -> dict[str, str]:
    """The values a rubric's placeholders take for one item; {context} is a choice question's options ("A. …"
    lines) or, in a dialogue, the turn being replied to (the question text); else empty."""
    from string import ascii_uppercase

    options_text = "\n".join(f"{letter}. {text}" for letter, text in zip(ascii_uppercase, options or []))
    return {"question": question or "", "context": (question or "") if dialogue else options_text,
            "expected": " / ".join(golds or []), "prediction": prediction or "", "persona": persona or ""}


def judge_calls(items: list[dict[str, Any]], config: JudgeConfig) -> list[JudgeCall]:
    """Every call for these items (id + render_fields values), in the item's language (Chinese rubric when the
    question, gold or answer holds CJK text), keyed by prompt, judge model and sampling settings."""
    calls = []
    for item in items:
        language = rubric_language(item["question"], item["expected"], item["prediction"])
        for name, criterion in config.criteria.items():
            prompt = criterion.rubric(language).format(**{k: v for k, v in item.items() if k != "id"})
            for judge, sample in product(config.models, range(config.samples)):
                calls.append(JudgeCall(item["id"], name, judge, sample, prompt, call_key(prompt, judge, sample, config)))
    return calls


def rubric_language(*texts: str) -> str:
    """"zh" when any of the item's texts holds CJK characters (its Chinese rubric is asked), else "en"."""
    return "zh" if any(has_cjk(text) for text in texts) else "en"


def call_key(prompt: str, judge: str, sample: int, config: JudgeConfig) -> str:
    """What a journaled verdict was asked with; the sample's seed is the configured one plus its index."""
    described = {"judge": judge, "prompt": prompt, "sample": sample, **_seeded(config, sample).sampling()}
    return hashlib.sha256(orjson.dumps(described, option=orjson.OPT_SORT_KEYS)).hexdigest()[:24]


class AskedCall(Protocol):
    """What asking needs of a call (a JudgeCall, pairwise's PairwiseCall, a leaderboard's call, which may also carry
    its own `system` prompt)."""

    judge: str
    sample: int
    prompt: str
    key: str


@dataclass(frozen=True)
class JudgeReplies:
    """Every call's journal record (key → {"prediction": reply, …}, {"error": …} or, for a call not asked — past the
    budget, or with no [judge] url — {"budget": true, …}) and what getting them took this time: calls asked, verdicts
    reused from the store, failed calls, calls not asked, tokens in and out."""

    records: dict[str, dict[str, Any]]
    usage: dict[str, int]


def ask_judges(calls: Sequence[AskedCall], config: JudgeConfig, journal: Path, store: Path | None = None,
               budget: Budget | None = None) -> JudgeReplies:
    """Every call's reply: those in the journal read back, those the verdict store has (asked the same way by any
    earlier run or night) copied into the journal, the rest asked — calls the budget left last time first — up to
    `concurrency` at once, retried with backoff and Retry-After, until the circuit breaker opens or the budget ends."""
    log = AnswerStore(journal)
    known = log.load()
    waiting = [call for call in calls if "prediction" not in known.get(call.key, {})]
    shared = AnswerStore(store) if store is not None else None
    stored = shared.load({call.key for call in waiting}) if shared is not None and waiting else {}
    reused = {call.key: stored[call.key] for call in waiting if "prediction" in stored.get(call.key, {})}
    log.extend([{"id": key, "key": key, "prediction": record["prediction"], "attempts": 0, "reused": True,
                 **({"top_logprobs": record["top_logprobs"]} if "top_logprobs" in record else {})}
                for key, record in reused.items()])
    todo = sorted((call for call in waiting if call.key not in reused),
                  key=lambda call: not known.get(call.key, {}).get("budget"))
    breakers = {judge: CircuitBreaker(config.circuit_breaker) for judge in config.models}
    clients = {(call.judge, call.sample, _system(call)): ChatClient(_asked_with(config, call), call.judge)
               for call in todo}
    made: list[dict[str, Any]] = []

    def ask(call: AskedCall) -> None:
        breaker = breakers[call.judge]
        if not config.url:
            record = {"error": "not judged: [judge] has no url", "budget": True, "attempts": 0}
        elif breaker.open:
            record = {"error": breaker.reason(), "attempts": 0}
        elif budget is not None and not budget.reserve():
            record = {"error": "not judged (budget)", "budget": True, "attempts": 0}
        else:
            client = clients[(call.judge, call.sample, _system(call))]
            reply, error, attempts = call_with_retries(config, lambda: client.ask(call.prompt, []))
            breaker.record(error)
            record = {"attempts": attempts, **({"error": error} if error is not None else {
                "prediction": reply.text, "latency": round(reply.latency, 4), "tokens_in": reply.tokens_in,
                "tokens_out": reply.tokens_out})}
            if error is None and reply.top_logprobs is not None:
                record["top_logprobs"] = reply.top_logprobs
            if budget is not None:
                budget.spend(record)
            if error is None and shared is not None:
                shared.append({"id": call.key, "key": call.key, "prediction": reply.text, "judge": call.judge,
                               **({"top_logprobs": reply.top_logprobs} if reply.top_logprobs is not None else {})})
        log.append({"id": call.key, "key": call.key, **record})
        made.append(record)
        progress.advance()

    with Progress(f"asking the judge ({', '.join(config.models)})", len(todo)) as progress:
        run_calls([partial(ask, call) for call in todo], config.concurrency)
    asked = [record for record in made if record["attempts"]]
    usage = {"asked": len(asked), "reused": len(reused),
             "failed": sum("error" in record and not record.get("budget") for record in made),
             "not_judged": sum(bool(record.get("budget")) for record in made),
             "tokens_in": sum(record.get("tokens_in") or 0 for record in asked),
             "tokens_out": sum(record.get("tokens_out") or 0 for record in asked)}
    return JudgeReplies(log.load(), usage)


def _seeded(config: JudgeConfig, sample: int) -> JudgeConfig:
    """The settings a sample is asked with: seed + sample (so repeated samples are distinct, reproducible draws)."""
    return config if config.seed is None or sample == 0 else replace(config, seed=config.seed + sample)


def _system(call: AskedCall) -> str | None:
    """A call's own system prompt (a leaderboard's prompts carry one each), or None for the [judge] one."""
    return getattr(call, "system", None)


def _asked_with(config: JudgeConfig, call: AskedCall) -> JudgeConfig:
    """The settings one call is asked with: its sample's seed, and its own system prompt when it has one."""
    seeded = _seeded(config, call.sample)
    return seeded if _system(call) is None else replace(seeded, system_prompt=_system(call))
