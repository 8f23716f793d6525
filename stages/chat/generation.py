"""Live generation (B2 without prediction files): ask a chat server for every question — each question its own
conversation, or a dialogue scene's turns in order — keeping every answer on disk as it arrives, so a rerun asks only
for what is missing or was asked with another prompt or other options."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import UsageError
from ..core.names import name_problem, safe_name
from ..core.progress import Progress
from ..core.records import LoadResult, Reject
from .call_pool import run_calls
from .client import ChatClient, CircuitBreaker, Reply, ask_with_breaker, call_with_retries
from .costs import check_price
from .endpoint import CLIENT_NUMBERS, Endpoint, settings_problems
from .journal import GENERATION_KEY_LENGTH, AnswerStore, answered, failure_record, journal_key, request_digest
from .outage import server_cause
from .prompts import check_template
from .summary import asking_summary

PROTOCOLS = ("peppa", "openai", "completions")
LATER_SETTINGS = ("top_logprobs", "mode")  # [generate] settings added after answers were journaled without them


@dataclass(frozen=True, kw_only=True)
class GenerateConfig(Endpoint):
    """dataset.toml [generate]: the endpoint, the models to ask and the prompt template."""

    models: tuple[str, ...]
    prompt_template: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    served_models: dict[str, str] = field(default_factory=dict)  # evalpipe's model name → the name the server knows
    samples: int = 1  # replies asked per item (sample s asked with seed + s where a seed is set)
    max_length: int | None = None  # completions: tokens a prompt may have (lm-eval's max_length; default 2048)
    batch_size: int | None = None  # completions: prompts per request (default 16)
    mode: str | None = None  # how a kind that offers several asks (function_calling: "tools", or "prompt")
    tokenizer: str | None = None  # completions: a local tokenizer folder (else the server's /tokenize)

    def described(self) -> dict[str, Any]:
        """The settings that decide the answers (for fingerprints and headers): never the key itself; no tokenizer
        when the server tokenizes (as before the setting was added)."""
        return {k: v for k, v in asdict(self).items() if k not in ("concurrency",)
                and not (k == "tokenizer" and v is None)}

    def served(self, model: str) -> str:
        """The model name sent to the server for evalpipe's model `model`."""
        return self.served_models.get(model, model)


def read_generate_config(table: dict[str, Any], origin: str) -> GenerateConfig:
    """Validate dataset.toml's [generate] table (prompt_template_file already read into prompt_template), every bad
    key said at once in one line; without a protocol it is OpenAI's."""
    table = {"protocol": "openai", **table}
    problems = _generate_problems(table, origin)
    if problems:
        raise UsageError(f"{origin}: {'; '.join(problems)}")
    models = table["models"]
    served = dict(models) if isinstance(models, dict) else {}
    price = check_price(table.get("price"), origin, "generate")
    return GenerateConfig(**{**table, "models": tuple(models), "served_models": served, "price": price})


def _generate_problems(table: dict[str, Any], origin: str) -> list[str]:
    """What is wrong with a [generate] table: one entry per bad key."""
    known = {f for f in GenerateConfig.__dataclass_fields__} - {"extra", "served_models"}
    problems = []
    unknown = sorted(set(table) - known)
    if unknown:
        problems.append(f"unknown [generate] key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(known))})")
    if table.get("protocol") not in PROTOCOLS:
        problems.append(f"[generate] protocol must be one of {', '.join(PROTOCOLS)}")
    models = table.get("models")
    served = models if isinstance(models, dict) else {}
    if not isinstance(table.get("url"), str) or not isinstance(models, (list, dict)) or not models or not all(
            isinstance(m, str) and m for m in [*models, *served.values()]):
        problems.append("[generate] needs url (text) and models (a non-empty list of names, or a table of name = "
                        "\"the server's model name\")")
    else:
        problems += [f"[generate] model {name!r} {name_problem(name)}: it names the model's folder of artifacts; give "
                     f"the server's name a folder name: models = "
                     f'{{ "{safe_name(name.rsplit("/", 1)[-1])}" = "{name}" }}'
                     for name in models if name_problem(name) is not None]
    problems += [f"[generate] {problem}" for problem in settings_problems(
        table, {**CLIENT_NUMBERS, "top_p": ((int, float), 0), "top_logprobs": (int, 1), "samples": (int, 1),
                        "max_length": (int, 2), "batch_size": (int, 1)},
        ("system_prompt", "prompt_template", "api_key_env", "mode", "tokenizer"))]
    if table.get("tokenizer") is not None and table.get("protocol") != "completions":
        problems.append("[generate] tokenizer is for protocol = \"completions\" (the loglikelihood kind)")
    stop = table.get("stop")
    if stop is not None and not (isinstance(stop, str) or (isinstance(stop, list) and all(isinstance(s, str) for s in stop))):
        problems.append("[generate] stop must be text or a list of texts")
    checks = [lambda: check_price(table.get("price"), origin, "generate")]
    if isinstance(table.get("prompt_template"), str):
        checks.append(lambda: check_template(table["prompt_template"], origin, required=("question",)))
    for check in checks:
        try:
            check()
        except UsageError as exc:
            problems.append(str(exc).removeprefix(f"{origin}: "))
    return problems


def request_key(config: GenerateConfig, model: str, prompt: str, sample: int = 0, tools: list | None = None,
                messages: list | None = None) -> str:
    """What an answer on disk was asked with: a new prompt (or conversation sent whole), system prompt or option asks
    again; the number of samples does not (raising it asks only the new ones), a sample's own number does."""
    settings = {k: v for k, v in config.described().items() if k not in ("timeout", "retries", "backoff", "url",
                                                                          "circuit_breaker", "models", "served_models",
                                                                          "price", "samples")
                and not (k in LATER_SETTINGS and v is None)}  # a setting added later keys only answers that use it
    asked = {"model": model, "prompt": prompt, **settings, **({"sample": sample} if sample else {}),
             **({"tools": tools} if tools else {}), **({"messages": messages} if messages is not None else {})}
    return request_digest(asked, GENERATION_KEY_LENGTH)


def _one_request(config: GenerateConfig, group: list[dict[str, Any]]) -> bool:
    """Whether a sample of a one-question item is asked together with the item's other samples (OpenAI's `n`): only
    without a seed, whose per-sample seed + s takes a request each, and when every sample has the same prompt."""
    return config.samples > 1 and config.seed is None and config.protocol == "openai" and len(group) == 1 \
        and not group[0].get("tools") and group[0].get("messages") is None and "sample_prompts" not in group[0]


def sample_cases(cases: list[dict[str, Any]], samples: int) -> list[dict[str, Any]]:
    """Each case once per sample (its own conversation), sample 0 first, asked its own prompt where the case has one
    per sample (`sample_prompts`: GPQA's shuffled repeats); one sample leaves the cases as they are."""
    if samples == 1:
        return cases
    short = next((case for case in cases if len(case.get("sample_prompts", range(samples))) < samples), None)
    if short is not None:
        raise UsageError(f"[generate] samples = {samples}, but item {short['id']!r} has "
                         f"{len(short['sample_prompts'])} prompts, one per repeat")
    return [{**case, "sample": sample, "conversation": (case["conversation"], sample),
             **({"prompt": case["sample_prompts"][sample]} if "sample_prompts" in case else {})}
            for case in cases for sample in range(samples)]


def _record(case: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A journal record of a case (its sample number kept from the second reply on)."""
    return {"id": case["id"], **({"sample": case["sample"]} if case.get("sample") else {}), **fields}


def answer_record(case: dict[str, Any], reply: Reply, attempts: int) -> dict[str, Any]:
    """The journal record of a case's answer: the reply and what asking it took."""
    return _record(case, key=case["key"], prediction=reply.text, attempts=attempts, latency=round(reply.latency, 4),
                   tokens_in=reply.tokens_in, tokens_out=reply.tokens_out, finish_reason=reply.finish_reason,
                   reasoning_content=reply.reasoning, **({"tool_calls": reply.tool_calls} if reply.tool_calls else {}))


def _ask_conversation(client: ChatClient, cases: list[dict[str, Any]], known: dict[str, dict], store: AnswerStore,
                      breaker: CircuitBreaker, progress: Progress) -> None:
    """One conversation's cases in order (a dialogue scene, or one question alone); answers already on disk with the
    same request make up the history."""
    todo = [case for case in cases if not answered(known.get(journal_key(case)), case["key"])]
    if not todo:
        return
    reset_error = None
    if not breaker.open:
        _, reset_error, _ = call_with_retries(client.config, client.reset)
    history: list[tuple[str, str]] = []
    for case in cases:
        done = known.get(journal_key(case))
        if answered(done, case["key"]):
            history.append((case["prompt"], done["prediction"]))
            continue
        if reset_error is not None and not breaker.open:
            store.append(failure_record(_record(case, key=case["key"]), f"reset failed: {reset_error}",
                                        client.config.retries + 1))
        else:
            reply, error, attempts = ask_with_breaker(client.config, breaker, partial(_ask_case, client, case, history))
            if error is None:
                store.append(answer_record(case, reply, attempts))
                history.append((case["prompt"], reply.text))
            else:
                store.append(failure_record(_record(case, key=case["key"]), error, attempts))
        progress.advance()


def _ask_case(client: ChatClient, case: dict[str, Any], history: list[tuple[str, str]]) -> Reply:
    """A case's reply: its conversation sent whole when it gives its `messages`, else its prompt after `history`."""
    if case.get("messages") is not None:
        return client.ask_messages(case["messages"], case.get("tools"))
    return client.ask(case["prompt"], history, case.get("tools"))


def _ask_item_samples(clients: dict[int, ChatClient], cases: list[dict[str, Any]], known: dict[str, dict],
                      store: AnswerStore, breaker: CircuitBreaker, progress: Progress) -> None:
    """An item's missing samples in one request with `n` = how many are missing; those a server that ignores `n`
    leaves unanswered are asked one request each."""
    todo = [case for case in cases if not answered(known.get(journal_key(case)), case["key"])]
    if len(todo) > 1 and not breaker.open:
        client = clients[todo[0]["sample"]]
        replies, error, attempts = ask_with_breaker(client.config, breaker,
                                                    lambda: client.ask_several(todo[0]["prompt"], len(todo)))
        for case, reply in zip(todo, replies or []):
            store.append(answer_record(case, reply, attempts))
            progress.advance()
        todo = todo[len(replies or []):]
    for case in todo:
        _ask_conversation(clients[case["sample"]], [case], known, store, breaker, progress)


def generate_predictions(cases: list[dict[str, Any]], config: GenerateConfig, model: str, store_path: Path) -> LoadResult:
    """Answers for every case (id, conversation, prompt): those on disk asked the same way are kept, the rest asked
    for — conversations in parallel up to `concurrency` (openai), one at a time for peppa (its server keeps one
    history). Cases still failing after the retries, or left when the circuit breaker opened, come back as rejects
    carrying the reason."""
    cases = [{**case, "key": request_key(config, config.served(model), case["prompt"], case.get("sample", 0),
                                         case.get("tools"), case.get("messages"))}
             for case in sample_cases(cases, config.samples)]
    store = AnswerStore(store_path)
    known = store.load()
    conversations: dict[Any, list[dict[str, Any]]] = {}
    for case in cases:
        conversations.setdefault(case["conversation"], []).append(case)
    clients = {sample: ChatClient(config if config.seed is None else replace(config, seed=config.seed + sample),
                                  config.served(model)) for sample in range(config.samples)}
    breaker = CircuitBreaker(config.circuit_breaker)
    workers = config.concurrency if config.protocol == "openai" else 1
    todo = sum(not answered(known.get(journal_key(case)), case["key"]) for case in cases)
    items: dict[Any, list[dict[str, Any]]] = {}
    for group in conversations.values():
        if _one_request(config, group):
            items.setdefault(group[0]["conversation"][0], []).append(group[0])
    with Progress(f"asking {model}", todo) as progress:
        run_calls([*(partial(_ask_conversation, clients[group[0].get("sample", 0)], group, known, store, breaker,
                             progress) for group in conversations.values() if not _one_request(config, group)),
                   *(partial(_ask_item_samples, clients, item, known, store, breaker, progress)
                     for item in items.values())], workers)
    answers = store.load()
    result = LoadResult(columns={}, input_rows=len(cases))
    ids, samples, predictions, finish_reasons, reasonings, formats = [], [], [], [], [], []
    for case in cases:
        record = answers.get(journal_key(case), {})
        if answered(record, case["key"]):
            ids.append(case["id"])
            samples.append(case.get("sample", 0))
            calls = record.get("tool_calls")
            predictions.append(orjson.dumps(calls).decode() if calls else record["prediction"])
            formats.append("tool_calls" if calls else "text")
            finish_reasons.append(record.get("finish_reason"))
            reasonings.append(record.get("reasoning_content"))
        else:
            reason = f"generation failed after {record.get('attempts', 0)} attempt(s): {record.get('error', 'not asked')}"
            sample = f" sample {case['sample']}" if config.samples > 1 else ""
            result.rejects.append(Reject(f"{config.url} ({model})", None, reason, f"{case['id']}{sample}",
                                         unscored=server_cause(record.get("error", "not asked"))))
    result.columns = {"id": ids, "line": [None] * len(ids), "prediction": predictions, "confidence": [None] * len(ids),
                      "finish_reason": finish_reasons, "reasoning_content": reasonings,
                      **({"sample": samples} if config.samples > 1 else {}),
                      **({"reply_format": formats} if any(case.get("tools") for case in cases) else {})}
    return result


def generation_summary(store_path: Path, ids: list[str], price: dict[str, float] | None = None,
                       samples: int = 1) -> dict[str, Any]:
    """Per model for B6: answers (each of `samples` replies per id), failures by reason, p50 / p95 latency in
    seconds, tokens in and out, what they cost at `price`, and the answers cut at max_tokens (finish_reason
    "length")."""
    records = AnswerStore(store_path).load()
    ids = [journal_key({"id": i, "sample": sample}) for i in ids for sample in range(samples)]
    return asking_summary([records[i] for i in ids if i in records], price)


def failure_line(summary: dict[str, Any]) -> str | None:
    """Why a model's replies were not generated, each cause with its count ("generation failed for 10 of 10 replies:
    connection refused × 6, circuit open after 10 consecutive failures × 4"); None when none failed."""
    failed = sum(summary["failures"].values())
    if not failed:
        return None
    causes = ", ".join(f"{reason} × {count:,}" for reason, count in summary["failures"].items())
    return f"generation failed for {failed:,} of {failed + summary['answers']:,} replies: {causes}"
