"""The [judge] handed to a kind whose B4 asks it as it matches (tau2's NL assertions): the kind builds its prompts and
reads the replies; asking — journal, verdict store, budget, breaker, retries and `recheck` — stays the judge's. A call
may say how its reply reads as a verdict (`verdict(text)`), so a rechecked verdict flips only when that changes."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .asking import AskedCall, ask_judges, call_key
from .budget import Budget
from .config import JudgeConfig


@dataclass(frozen=True)
class JudgeAsker:
    """One B4's judge: its models and samples, each call's journal key, and the calls asked through its journal;
    `recheck_seed` draws the stored verdicts asked again (the run's outputs, as B5J's), `tell` hears of a judge whose
    stored verdicts the recheck distrusted (its name and why)."""

    config: JudgeConfig
    journal: Path
    store: Path | None = None
    budget: Budget | None = None
    recheck_seed: str = ""
    tell: Callable[[str, str], None] | None = None

    @property
    def models(self) -> list[str]:
        return list(self.config.models)

    @property
    def samples(self) -> int:
        return self.config.samples

    def key(self, prompt: str, judge: str, sample: int) -> str:
        """The journal key of `prompt` asked of `judge` as sample `sample`."""
        return call_key(prompt, judge, sample, self.config)

    def ask(self, calls: Sequence[AskedCall]) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
        """Each call's journal record by key (a rerun asks nothing answered before) and what asking took."""
        replies = ask_judges(calls, self.config, self.journal, self.store, self.budget, self.recheck_seed,
                             _verdict_of)
        for judge, why in replies.distrusted.items():
            if self.tell is not None:
                self.tell(judge, why)
        return replies.records, replies.usage


def _verdict_of(call: Any, text: str) -> Any:
    """A reply's verdict as the call reads it (its `verdict`), else its text."""
    read = getattr(call, "verdict", None)
    return read(text) if callable(read) else text


def judge_asker(judge: dict[str, Any], concurrency: int, journal: str, store: str | None = None,
                ledger: str | None = None, recheck_seed: str = "",
                tell: Callable[[str, str], None] | None = None) -> JudgeAsker:
    """The asker for a [judge] described as B4's parameters carry it, with the run's budget ledger when it has one."""
    config = JudgeConfig.from_described(judge, concurrency)
    budget = Budget(Path(ledger), config.max_calls, config.max_cost, config.price) if ledger else None
    return JudgeAsker(config, Path(journal), Path(store) if store else None, budget, recheck_seed, tell)
