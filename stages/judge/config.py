"""dataset.toml [judge]: which judge model(s) to ask about which criteria, and how patiently — the same client
settings as [generate] (the key itself is never stored, only the name of its environment variable)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..chat.costs import check_price
from ..chat.endpoint import CLIENT_NUMBERS, CLIENT_TEXTS, Endpoint, check_settings
from ..core.errors import UsageError
from ..core.names import check_name
from .criteria import Criterion, resolve_criteria, resolve_pairwise

PROTOCOLS = ("openai",)
NOT_VERDICTS = ("store", "price", "max_calls", "max_cost", "min_parse_rate", "recheck",
                "recheck_max_flips")  # [judge] settings that change no verdict asked


@dataclass(frozen=True, kw_only=True)
class JudgeConfig(Endpoint):
    """A validated [judge] table: the endpoint, the judge model(s), `criteria` resolved to their scales and rubrics,
    and what else a judge is asked (pairwise, a baseline) and kept (the verdict store, the budget)."""

    models: tuple[str, ...]
    criteria: dict[str, Criterion]
    protocol: str = "openai"
    samples: int = 1
    temperature: float = 0.0
    concurrency: int = 4
    persona: str | None = None
    pairwise: Criterion | None = None  # `pairwise = true`: which of two models' answers is better, asked both ways
    baseline: str | None = None  # pairwise against this model only (N − 1 pairs), else every pair
    store: str | bool = True  # verdicts kept across runs and nights: under the outputs root, at a path, or not (false)
    max_calls: int | None = None  # per run of the dataset: no call beyond it
    max_cost: float | None = None  # per run of the dataset, in $ at `price`
    min_parse_rate: float = 0.5  # a criterion or comparison parsed below it makes the dataset unfit to publish
    recheck: float = 0.0  # the share of stored verdicts asked again each run (drawn by the night)
    recheck_max_flips: float = 0.1  # rechecked verdicts flipping beyond this share distrust the judge's stored ones
    top_p: float | None = field(default=None, init=False)  # what the chat client sends besides: nothing more
    stop: str | None = field(default=None, init=False)

    def sampling(self) -> dict[str, Any]:
        """The settings that decide a verdict besides the prompt and judge model (part of every call's key)."""
        found = {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens,
                 "system_prompt": self.system_prompt}
        return found if self.top_logprobs is None else {**found, "top_logprobs": self.top_logprobs}

    @classmethod
    def from_described(cls, described: dict[str, Any], concurrency: int) -> JudgeConfig:
        """The config again from described() (as a task's spec carries it) and the concurrency it leaves out."""
        criteria = {name: Criterion(name, c["scale"], dict(c["rubrics"])) for name, c in described["criteria"].items()}
        pairwise = described.get("pairwise")
        settings = {k: v for k, v in described.items() if k not in ("criteria", "models", "pairwise")}
        return cls(models=tuple(described["models"]), criteria=criteria, concurrency=concurrency,
                   pairwise=None if pairwise is None else Criterion(**pairwise), **settings)

    def described(self) -> dict[str, Any]:
        """The table as written, for fingerprints and headers (never the key; concurrency changes no verdict)."""
        described = {k: v for k, v in asdict(self).items() if k not in ("criteria", "concurrency", "top_p", "stop")}
        described["criteria"] = {name: {"scale": c.scale, "rubrics": c.rubrics} for name, c in self.criteria.items()}
        return described


def read_judge_config(table: dict[str, Any], origin: str, open_ended: bool = False,
                      leaderboard: bool = False, task: Criterion | None = None, kind_asks: bool = False) -> JudgeConfig:
    """Validate dataset.toml's [judge] table (built-in rubrics without a reference for `open_ended` instructions; for a
    dataset with a [leaderboard], whose rules say what to ask, a judged `task`, whose criterion is asked first, or a
    kind that asks the judge its own question (`kind_asks`), criteria may be left out); every problem is one line
    (exit 2)."""
    known = {"template_file", "url", "model", "models", "protocol", "criteria", "rubrics", "samples", "temperature", "seed",
             "max_tokens", "concurrency", "timeout", "retries", "backoff", "circuit_breaker", "api_key_env",
             "persona", "system_prompt", "pairwise", "baseline", "store", "price", "max_calls", "max_cost",
             "min_parse_rate", "top_logprobs", "recheck", "recheck_max_flips"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise UsageError(f"{origin}: unknown [judge] key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(known))})")
    if table.get("protocol", "openai") not in PROTOCOLS:
        raise UsageError(f"{origin}: [judge] protocol must be one of {', '.join(PROTOCOLS)}")
    if ("model" in table) == ("models" in table):
        raise UsageError(f"{origin}: [judge] needs model = \"…\" or models = [\"…\", …] (a panel), not both")
    models = [table["model"]] if "model" in table else table["models"]
    if not isinstance(models, list) or not models or not all(isinstance(m, str) and m for m in models) or \
            len(set(models)) != len(models):
        raise UsageError(f"{origin}: [judge] model(s) must be distinct non-empty names")
    check_settings(table, {**CLIENT_NUMBERS, "samples": (int, 1), "top_logprobs": (int, 1)}, (*CLIENT_TEXTS, "persona"),
                   origin, "judge")
    if "url" not in table and not leaderboard:
        raise UsageError(f"{origin}: [judge] needs url (the judge's OpenAI-compatible server; url = \"\" asks nothing "
                         "and scores the verdicts on hand)")
    pairwise = table.get("pairwise", False)
    if not isinstance(pairwise, bool):
        raise UsageError(f"{origin}: [judge] pairwise must be true or false")
    criteria = table.get("criteria", [] if pairwise or leaderboard or task or kind_asks else None)
    if not isinstance(criteria, list) or not (criteria or pairwise or leaderboard or task or kind_asks) or not all(
            isinstance(c, str) for c in criteria):
        raise UsageError(f"{origin}: [judge] criteria must be a list of names (non-empty unless pairwise = true)")
    if "baseline" in table:
        if not pairwise:
            raise UsageError(f"{origin}: [judge] baseline is the model every other is compared with: it needs "
                             "pairwise = true")
        check_name(table["baseline"], "[judge] baseline", origin)
    store = table.get("store", True)
    if not (store is True or store is False or (isinstance(store, str) and store)):
        raise UsageError(f"{origin}: [judge] store must be a path (kept across runs and nights) or false")
    price = check_price(table.get("price"), origin, "judge")
    check_settings(table, {"max_calls": (int, 0), "max_cost": ((int, float), 0)}, (), origin, "judge")
    for name, default in (("min_parse_rate", 0.5), ("recheck", 0.0), ("recheck_max_flips", 0.1)):
        rate = table.get(name, default)
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
            raise UsageError(f"{origin}: [judge] {name} = {rate!r} must be a share within [0, 1]")
    if "max_cost" in table and price is None:
        raise UsageError(f"{origin}: [judge] max_cost is in dollars: it needs price = {{ input = …, output = … }}")
    rubrics = table.get("rubrics", {})
    if not isinstance(rubrics, dict):
        raise UsageError(f"{origin}: [judge.rubrics] must be a table of name = \"template\"")
    if "pairwise" in rubrics and not pairwise:
        raise UsageError(f"{origin}: [judge.rubrics] pairwise is asked only with [judge] pairwise = true")
    resolved_pairwise = resolve_pairwise(rubrics.get("pairwise"), origin, open_ended) if pairwise else None
    if resolved_pairwise is not None and resolved_pairwise.scale == "five_way" and "baseline" not in table:
        raise UsageError(f"{origin}: [judge.rubrics] pairwise on the five_way scale scores models against a baseline "
                         "(Arena-Hard's rules): set [judge] baseline")
    if task is not None and task.name in criteria:
        raise UsageError(f"{origin}: [judge] criteria: {task.name} is the task's own criterion (asked already)")
    if "template_file" in table and task is None:
        raise UsageError(f"{origin}: [judge] template_file is a judged task's grader template: it needs task = \"…\"")
    settings = {k: v for k, v in table.items() if k not in ("model", "models", "criteria", "rubrics", "pairwise",
                                                            "price", "template_file")}
    resolved = resolve_criteria(criteria, rubrics, origin, open_ended)
    return JudgeConfig(models=tuple(models), criteria={task.name: task, **resolved} if task else resolved,
                       pairwise=resolved_pairwise,
                       price=price, **settings)
