"""Live generation (B2 without prediction files): ask a chat server for every question — each question its own
conversation, or a dialogue scene's turns in order — keeping every answer on disk as it arrives, so a rerun asks only
for what is missing or was asked with another prompt or other options."""
from __future__ import annotations

import hashlib
import os
import statistics
import threading
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import UsageError
from ..core.names import name_problem, safe_name
from ..core.progress import Progress
from ..core.records import LoadResult, Reject
from .call_pool import run_calls
from .chat_client import ChatClient, call_with_retries
from .costs import check_price, money

PROTOCOLS = ("peppa", "openai")
PLACEHOLDERS = ("question", "options")


@dataclass(frozen=True)
class GenerateConfig:
    """dataset.toml [generate]: where to ask, what to send, how patiently; `api_key_env` names an environment
    variable (the key itself is never stored)."""

    protocol: str
    url: str
    models: tuple[str, ...]
    timeout: float = 60.0
    retries: int = 3
    concurrency: int = 1
    backoff: float = 0.5
    api_key_env: str | None = None
    system_prompt: str | None = None
    prompt_template: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    stop: str | list[str] | None = None
    seed: int | None = None
    circuit_breaker: int = 10
    extra: dict[str, Any] = field(default_factory=dict)
    served_models: dict[str, str] = field(default_factory=dict)  # evalpipe's model name → the name the server knows
    price: dict[str, float] | None = None  # $ per million tokens in and out (changes no answer)

    def described(self) -> dict[str, Any]:
        """The settings that decide the answers (for fingerprints and headers): never the key itself."""
        return {k: v for k, v in asdict(self).items() if k not in ("concurrency",)}

    def served(self, model: str) -> str:
        """The model name sent to the server for evalpipe's model `model`."""
        return self.served_models.get(model, model)


CLIENT_NUMBERS = {"timeout": ((int, float), 0), "retries": (int, 0), "concurrency": (int, 1),
                  "backoff": ((int, float), 0), "temperature": ((int, float), 0), "max_tokens": (int, 1),
                  "seed": (int, 0), "circuit_breaker": (int, 1)}  # a chat client's settings: types and lower bounds


def check_settings(table: dict[str, Any], numbers: dict[str, tuple[Any, int]], texts: tuple[str, ...], origin: str,
                   section: str) -> None:
    """The numbers of a [generate] / [judge] table within their lower bounds and its texts as text; one line each
    otherwise."""
    for name, (types, low) in numbers.items():
        value = table.get(name)
        if value is not None and (not isinstance(value, types) or isinstance(value, bool) or value < low):
            raise UsageError(f"{origin}: [{section}] {name} = {value!r} must be a number ≥ {low}")
    for name in texts:
        if table.get(name) is not None and not isinstance(table[name], str):
            raise UsageError(f"{origin}: [{section}] {name} must be text")


def read_generate_config(table: dict[str, Any], origin: str) -> GenerateConfig:
    """Validate dataset.toml's [generate] table (prompt_template_file already read into prompt_template)."""
    known = {f for f in GenerateConfig.__dataclass_fields__} - {"extra", "served_models"}
    price = check_price(table.get("price"), origin, "generate")
    unknown = sorted(set(table) - known)
    if unknown:
        raise UsageError(f"{origin}: unknown [generate] key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(known))})")
    if table.get("protocol") not in PROTOCOLS:
        raise UsageError(f"{origin}: [generate] protocol must be one of {', '.join(PROTOCOLS)}")
    models = table.get("models")
    served = models if isinstance(models, dict) else {}
    if not isinstance(table.get("url"), str) or not isinstance(models, (list, dict)) or not models or not all(
            isinstance(m, str) and m for m in [*models, *served.values()]):
        raise UsageError(f"{origin}: [generate] needs url (text) and models (a non-empty list of names, or a table "
                         "of name = \"the server's model name\")")
    for name in models:
        if name_problem(name) is not None:
            hint = f'{{ "{safe_name(name.rsplit("/", 1)[-1])}" = "{name}" }}'
            raise UsageError(f"{origin}: [generate] model {name!r} {name_problem(name)}: it names the model's folder "
                             f"of artifacts; give the server's name a folder name: models = {hint}")
    check_settings(table, {**CLIENT_NUMBERS, "top_p": ((int, float), 0)},
                   ("system_prompt", "prompt_template", "api_key_env"), origin, "generate")
    stop = table.get("stop")
    if stop is not None and not (isinstance(stop, str) or (isinstance(stop, list) and all(isinstance(s, str) for s in stop))):
        raise UsageError(f"{origin}: [generate] stop must be text or a list of texts")
    if table.get("prompt_template") is not None:
        check_template(table["prompt_template"], origin, required=("question",))
    return GenerateConfig(**{**table, "models": tuple(models), "served_models": dict(served), "price": price})


def check_template(template: str, origin: str, allowed: tuple[str, ...] = PLACEHOLDERS,
                   what: str = "prompt template", required: tuple[str, ...] = ()) -> None:
    """A template may name only the `allowed` placeholders and must name the `required` ones (a template without the
    item's own text asks every item the same thing); write {{ and }} for literal braces. One line otherwise."""
    import string

    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as exc:
        raise UsageError(f"{origin}: {what} is malformed ({exc})") from None
    unknown = sorted(names - set(allowed))
    if unknown:
        raise UsageError(f"{origin}: {what} names {', '.join('{' + n + '}' for n in unknown)}; it may use "
                         f"{', '.join('{' + p + '}' for p in allowed)}")
    missing = [name for name in required if name not in names]
    if missing:
        raise UsageError(f"{origin}: {what} must use {', '.join('{' + n + '}' for n in missing)} (else every item is "
                         "asked the same thing)")


def render_prompt(template: str, question: str, options: list[str] | None) -> str:
    """The prompt for one question: the template with {question} and {options} ("A. …" lines) filled in."""
    from string import ascii_uppercase

    lines = "\n".join(f"{letter}. {text}" for letter, text in zip(ascii_uppercase, options or []))
    return template.format(question=question, options=lines)


class AnswerStore:
    """Append-only JSON lines, one per answer or failure, fsynced as written; the last record of an id wins. Appends
    hold an exclusive lock on the file, so several processes may share one store (the judge's verdict store) and none
    loses a record; a line torn by a kill is set aside when read and never glued to the next one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self, wanted: set[str] | None = None) -> dict[str, dict[str, Any]]:
        """Every id's record (only the `wanted` ids' when given: a large shared store is read without keeping it)."""
        records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            for raw in self.path.read_bytes().splitlines():
                try:
                    record = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    continue  # a line cut short by a kill: that answer is asked again
                if not isinstance(record, dict) or "id" not in record or (wanted is not None and
                                                                           record["id"] not in wanted):
                    continue
                previous = records.get(record["id"])
                if previous is not None and "prediction" in previous and "error" in record and (
                        previous.get("key") == record.get("key")):
                    continue  # an answer is never undone by a later failure of the same request
                records[record["id"]] = record
        return records

    def has_failures(self) -> bool:
        """Whether some case has only failed attempts on disk."""
        return any("prediction" not in record for record in self.load().values())

    def append(self, record: dict[str, Any]) -> None:
        self.extend([record])

    def extend(self, records: list[dict[str, Any]]) -> None:
        """Append records in one write and one fsync."""
        import fcntl

        if not records:
            return
        data = b"".join(orjson.dumps(record) + b"\n" for record in records)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a+b") as handle:  # read too: the last byte says whether a line was torn
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                try:
                    end = os.fstat(handle.fileno()).st_size
                    if end and os.pread(handle.fileno(), 1, end - 1) != b"\n":
                        data = b"\n" + data  # the last line was torn by a kill: keep it apart
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                finally:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def request_key(config: GenerateConfig, model: str, prompt: str) -> str:
    """What an answer on disk was asked with: a new prompt, system prompt or option asks again."""
    settings = {k: v for k, v in config.described().items() if k not in ("timeout", "retries", "backoff", "url",
                                                                          "circuit_breaker", "models", "served_models",
                                                                          "price")}
    return hashlib.sha256(orjson.dumps({"model": model, "prompt": prompt, **settings},
                                       option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


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


def _ask_conversation(client: ChatClient, cases: list[dict[str, Any]], known: dict[str, dict], store: AnswerStore,
                      breaker: CircuitBreaker, progress: Progress) -> None:
    """One conversation's cases in order (a dialogue scene, or one question alone); answers already on disk with the
    same request make up the history."""
    todo = [case for case in cases if not _answered(known.get(case["id"]), case["key"])]
    if not todo:
        return
    reset_error = None
    if not breaker.open:
        _, reset_error, _ = call_with_retries(client.config, client.reset)
    history: list[tuple[str, str]] = []
    for case in cases:
        done = known.get(case["id"])
        if _answered(done, case["key"]):
            history.append((case["prompt"], done["prediction"]))
            continue
        if breaker.open:
            store.append({"id": case["id"], "key": case["key"], "error": breaker.reason(), "attempts": 0})
        elif reset_error is not None:
            store.append({"id": case["id"], "key": case["key"], "error": f"reset failed: {reset_error}",
                          "attempts": client.config.retries + 1})
        else:
            reply, error, attempts = call_with_retries(client.config, lambda: client.ask(case["prompt"], history))
            breaker.record(error)
            if error is None:
                store.append({"id": case["id"], "key": case["key"], "prediction": reply.text, "attempts": attempts,
                              "latency": round(reply.latency, 4), "tokens_in": reply.tokens_in,
                              "tokens_out": reply.tokens_out})
                history.append((case["prompt"], reply.text))
            else:
                store.append({"id": case["id"], "key": case["key"], "error": error, "attempts": attempts})
        progress.advance()


def _answered(record: dict | None, key: str) -> bool:
    return record is not None and "prediction" in record and record.get("key") == key


def generate_predictions(cases: list[dict[str, Any]], config: GenerateConfig, model: str, store_path: Path) -> LoadResult:
    """Answers for every case (id, conversation, prompt): those on disk asked the same way are kept, the rest asked
    for — conversations in parallel up to `concurrency` (openai), one at a time for peppa (its server keeps one
    history). Cases still failing after the retries, or left when the circuit breaker opened, come back as rejects
    carrying the reason."""
    cases = [{**case, "key": request_key(config, config.served(model), case["prompt"])} for case in cases]
    store = AnswerStore(store_path)
    known = store.load()
    conversations: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        conversations.setdefault(case["conversation"], []).append(case)
    client = ChatClient(config, config.served(model))
    breaker = CircuitBreaker(config.circuit_breaker)
    workers = config.concurrency if config.protocol == "openai" else 1
    todo = sum(not _answered(known.get(case["id"]), case["key"]) for case in cases)
    with Progress(f"asking {model}", todo) as progress:
        run_calls([partial(_ask_conversation, client, group, known, store, breaker, progress)
                   for group in conversations.values()], workers)
    answers = store.load()
    result = LoadResult(columns={}, input_rows=len(cases))
    ids, predictions = [], []
    for case in cases:
        record = answers.get(case["id"], {})
        if _answered(record, case["key"]):
            ids.append(case["id"])
            predictions.append(record["prediction"])
        else:
            reason = f"generation failed after {record.get('attempts', 0)} attempt(s): {record.get('error', 'not asked')}"
            result.rejects.append(Reject(f"{config.url} ({model})", None, reason, case["id"]))
    result.columns = {"id": ids, "line": [None] * len(ids), "prediction": predictions, "confidence": [None] * len(ids)}
    return result


def generation_summary(store_path: Path, ids: list[str], price: dict[str, float] | None = None) -> dict[str, Any]:
    """Per model for B6: answers, failures by reason, p50 / p95 latency in seconds, tokens in and out, and what they
    cost at `price`."""
    records = AnswerStore(store_path).load()
    answered = [records[i] for i in ids if i in records and "prediction" in records[i]]
    failed = Counter(_reason_kind(records[i]["error"]) for i in ids if i in records and "prediction" not in records[i])
    latencies = sorted(r["latency"] for r in answered if isinstance(r.get("latency"), (int, float)))
    tokens_in = sum(r.get("tokens_in") or 0 for r in answered)
    tokens_out = sum(r.get("tokens_out") or 0 for r in answered)
    return {
        "answers": len(answered), "failures": dict(failed),
        "latency_p50": statistics.median(latencies) if latencies else None,
        "latency_p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] if latencies else None,
        "tokens_in": tokens_in, "tokens_out": tokens_out, "cost": money(tokens_in, tokens_out, price),
    }


def _reason_kind(error: str) -> str:
    """A failure's kind for counting: "HTTP 429 …", "connection failed", "malformed response body", "circuit open"."""
    return error.split(" (")[0] if error.startswith("circuit open") else error.split(":")[0]
