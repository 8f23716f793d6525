"""Asking the judge: every call (item × criterion × judge model × sample) is journaled as its reply arrives, keyed
by what decides the verdict — the rendered prompt, the judge model and the sampling settings — so a rerun asks
nothing, a changed rubric asks only its criterion again, and a killed run resumes where it stopped."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import product
from pathlib import Path
from typing import Any, Protocol

from ..chat.call_pool import run_calls
from ..chat.client import ChatClient, CircuitBreaker, ask_with_breaker
from ..chat.journal import AnswerStore, answered, request_digest
from ..chat.summary import asking_summary
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
    return request_digest(described)


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
    budget, or with no [judge] url — {"budget": true, …}), what getting them took this time (calls asked, verdicts
    reused from the store, failed calls, calls not asked, tokens in and out, verdicts rechecked and how many flipped)
    and, per judge whose stored verdicts were not trusted this time, why."""

    records: dict[str, dict[str, Any]]
    usage: dict[str, int]
    asking: dict[str, Any]  # chat.summary's asking_summary of the calls asked now (failures by kind, latency, …)
    distrusted: dict[str, str] = field(default_factory=dict)


def ask_judges(calls: Sequence[AskedCall], config: JudgeConfig, journal: Path, store: Path | None = None,
               budget: Budget | None = None, recheck_seed: str = "",
               verdict_of: Callable[[AskedCall, str], Any] | None = None) -> JudgeReplies:
    """Every call's reply: those in the journal read back, those the verdict store has (asked the same way by any
    earlier run or night) copied into the journal, the rest asked — calls the budget left last time first — up to
    `concurrency` at once, retried with backoff and Retry-After, until the circuit breaker opens or the budget ends.
    A `recheck` share of the stored verdicts (drawn by `recheck_seed`) is asked again; a judge whose fresh replies
    come from another model or system fingerprint than its stored ones, or whose rechecked verdicts (as `verdict_of`
    reads them) flipped beyond `recheck_max_flips`, has none of its stored verdicts used: they are asked again."""
    log = AnswerStore(journal)
    known = log.load()
    waiting = [call for call in calls if not answered(known.get(call.key), call.key)]
    shared = AnswerStore(store) if store is not None else None
    stored = shared.load({call.key for call in waiting}) if shared is not None and waiting else {}
    reused = {call.key: stored[call.key] for call in waiting if answered(stored.get(call.key), call.key)}
    recheck = set(recheck_sample(sorted(reused), config.recheck, recheck_seed)) if config.url else set()
    todo = sorted((call for call in waiting if call.key not in reused or call.key in recheck),
                  key=lambda call: not known.get(call.key, {}).get("budget"))
    breakers = {judge: CircuitBreaker(config.circuit_breaker) for judge in config.models}
    clients: dict[tuple[str, int, str | None], ChatClient] = {}
    made: dict[str, dict[str, Any]] = {}  # key → its latest record made now
    records_made: list[dict[str, Any]] = []  # every call's, counted once each

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
            reply, error, attempts = ask_with_breaker(config, breaker, lambda: client.ask(call.prompt, []))
            record = {"attempts": attempts, **({"error": error} if error is not None else {
                "prediction": reply.text, "latency": round(reply.latency, 4), "tokens_in": reply.tokens_in,
                "tokens_out": reply.tokens_out, **_served(reply)})}
            if budget is not None:
                budget.spend(record)
            if error is None and shared is not None:
                shared.append({"id": call.key, "key": call.key, "prediction": reply.text, "judge": call.judge,
                               **_served(reply)})
        log.append({"id": call.key, "key": call.key, **record})
        made[call.key] = record
        records_made.append(record)
        progress.advance()

    def ask_all(batch: list[AskedCall], what: str) -> None:
        nonlocal progress
        clients.update({(c.judge, c.sample, _system(c)): ChatClient(_asked_with(config, c), c.judge) for c in batch
                        if (c.judge, c.sample, _system(c)) not in clients})
        with Progress(f"{what} ({', '.join(config.models)})", len(batch)) as progress:
            run_calls([partial(ask, call) for call in batch], config.concurrency)

    progress: Progress
    ask_all(todo, "asking the judge")
    by_key = {call.key: call for call in waiting}
    distrusted, flips = distrusted_judges(by_key, reused, made, recheck, config, verdict_of)
    again = [by_key[key] for key in reused if by_key[key].judge in distrusted and key not in made]
    if again:
        ask_all(again, "asking the judge again")
    kept = {key: record for key, record in reused.items() if key not in made}
    log.extend([{"id": key, "key": key, "prediction": record["prediction"], "attempts": 0, "reused": True,
                 **{name: record[name] for name in SERVED if name in record}} for key, record in kept.items()])
    asking = asking_summary([record for record in records_made if not record.get("budget")], config.price)
    usage = {"asked": sum(bool(record["attempts"]) for record in records_made), "reused": len(kept),
             "failed": sum(asking["failures"].values()),
             "not_judged": sum(bool(record.get("budget")) for record in records_made),
             "tokens_in": asking["tokens_in"], "tokens_out": asking["tokens_out"],
             **({"rechecked": sum(1 for key in recheck if "prediction" in made.get(key, {})), "flips": flips}
                if recheck else {})}
    return JudgeReplies(log.load(), usage, asking, distrusted)


SERVED = ("top_logprobs", "served_model", "system_fingerprint")  # what a reply says besides its text, kept with it


def _served(reply: Any) -> dict[str, Any]:
    """What the server said besides the text: the first token's logprobs, the model and system fingerprint."""
    return {name: getattr(reply, name) for name in SERVED if getattr(reply, name, None) is not None}


def recheck_sample(keys: list[str], share: float, seed: str) -> list[str]:
    """`share` of the stored verdicts' keys, drawn reproducibly by `seed` (the night): at least one when share > 0."""
    if not keys or share <= 0:
        return []
    ranked = sorted(keys, key=lambda key: hashlib.sha256(f"{seed}|{key}".encode()).hexdigest())
    return ranked[:max(1, round(share * len(keys)))]


def distrusted_judges(calls: dict[str, AskedCall], reused: dict[str, dict[str, Any]], made: dict[str, dict[str, Any]],
                      recheck: set[str], config: JudgeConfig, verdict_of: Callable[[AskedCall, str], Any] | None,
                      ) -> tuple[dict[str, str], int]:
    """Per judge, why its stored verdicts are not to be trusted this time — its fresh replies name another model or
    system fingerprint than its stored ones, or too many rechecked verdicts flipped — and the flips counted."""
    read = verdict_of or (lambda call, text: text)
    found: dict[str, str] = {}
    flips_total = 0
    for judge in config.models:
        fresh = {_identity(record) for key, record in made.items()
                 if calls.get(key) is not None and calls[key].judge == judge and "prediction" in record} - {None}
        before = {_identity(record) for key, record in reused.items() if calls[key].judge == judge} - {None}
        if fresh and before and not before <= fresh:
            found[judge] = (f"its server now answers as {_named(fresh)} where its stored verdicts came from "
                            f"{_named(before)}")
            continue
        checked = [key for key in recheck if calls[key].judge == judge and "prediction" in made.get(key, {})]
        flipped = sum(read(calls[key], reused[key]["prediction"]) != read(calls[key], made[key]["prediction"])
                      for key in checked)
        flips_total += flipped
        if checked and flipped / len(checked) > config.recheck_max_flips:
            found[judge] = (f"{flipped} of {len(checked)} rechecked verdicts flipped ({flipped / len(checked):.0%}, "
                            f"above recheck_max_flips {config.recheck_max_flips:.0%})")
    return found, flips_total


def _identity(record: dict[str, Any]) -> tuple[str | None, str | None] | None:
    """(model, system fingerprint) a reply came from, or None when the server said neither."""
    if record.get("served_model") is None and record.get("system_fingerprint") is None:
        return None
    return record.get("served_model"), record.get("system_fingerprint")


def _named(identities: set[tuple[str | None, str | None]]) -> str:
    return ", ".join(sorted(f"{model or '?'} / {fingerprint or '?'}" for model, fingerprint in identities))


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
