"""Live generation (B2 without prediction files): ask a chat server for each test case, scene by scene, keeping
every answer on disk as it arrives so a rerun asks only for what is missing."""
from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import UsageError
from ..core.progress import Progress
from ..core.records import LoadResult, Reject

PROTOCOLS = ("peppa", "openai")
ANSWER_FIELDS = ("response", "reply", "answer", "content", "message", "text")


@dataclass(frozen=True)
class GenerateConfig:
    """dataset.toml [generate]: where to ask, how patiently; `api_key_env` names an environment variable."""

    protocol: str
    url: str
    models: tuple[str, ...]
    timeout: float = 60.0
    retries: int = 3
    concurrency: int = 1
    backoff: float = 0.5
    api_key_env: str | None = None
    system_prompt: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def described(self) -> dict[str, Any]:
        """The settings that decide the answers (for fingerprints and headers): never the key itself."""
        return {k: v for k, v in asdict(self).items() if k not in ("concurrency",)}


def read_generate_config(table: dict[str, Any], origin: str) -> GenerateConfig:
    """Validate dataset.toml's [generate] table."""
    known = {f for f in GenerateConfig.__dataclass_fields__} - {"extra"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise UsageError(f"{origin}: unknown [generate] key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(known))})")
    if table.get("protocol") not in PROTOCOLS:
        raise UsageError(f"{origin}: [generate] protocol must be one of {', '.join(PROTOCOLS)}")
    models = table.get("models")
    if not isinstance(table.get("url"), str) or not isinstance(models, list) or not models or not all(
            isinstance(m, str) and m for m in models):
        raise UsageError(f"{origin}: [generate] needs url (text) and models (a non-empty list of names)")
    numbers = {"timeout": (int, float), "retries": int, "concurrency": int, "backoff": (int, float)}
    for name, types in numbers.items():
        if name in table and (not isinstance(table[name], types) or isinstance(table[name], bool) or table[name] < 0):
            raise UsageError(f"{origin}: [generate] {name} must be a non-negative number")
    return GenerateConfig(**{**table, "models": tuple(models), "concurrency": max(1, table.get("concurrency", 1))})


class AnswerStore:
    """Append-only JSON lines, one per answer or failure, fsynced as written; the last record of an id wins."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, dict[str, Any]]:
        records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            for raw in self.path.read_bytes().splitlines():
                try:
                    record = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    continue  # a line cut short by a kill: that answer is asked again
                if isinstance(record, dict) and "id" in record and not (
                        record["id"] in records and "prediction" in records[record["id"]] and "error" in record):
                    records[record["id"]] = record
        return records

    def has_failures(self) -> bool:
        """Whether some case has only failed attempts on disk."""
        return any("prediction" not in record for record in self.load().values())

    def append(self, record: dict[str, Any]) -> None:
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "ab") as handle:
                handle.write(orjson.dumps(record) + b"\n")
                handle.flush()
                os.fsync(handle.fileno())


class ChatClient:
    """One model on one server, in the dataset's protocol."""

    def __init__(self, config: GenerateConfig, model: str) -> None:
        self.config, self.model = config, model

    def _post(self, path: str, body: dict[str, Any] | None) -> Any:
        import urllib.request  # only when asking: discovering datasets reads the config alone

        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.config.api_key_env or "") if self.config.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request(self.config.url.rstrip("/") + path, data=data, headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=self.config.timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw.strip() else None

    def reset(self) -> None:
        if self.config.protocol == "peppa":
            self._post("/reset", None)

    def ask(self, message: str, history: list[tuple[str, str]]) -> str:
        if self.config.protocol == "peppa":
            body = self._post("/chat", {"message": message, "model_config_name": self.model})
            answer = next((body[k] for k in ANSWER_FIELDS if isinstance(body, dict) and isinstance(body.get(k), str)),
                          None)
        else:
            messages = [{"role": "system", "content": self.config.system_prompt}] if self.config.system_prompt else []
            for question, reply in history:
                messages += [{"role": "user", "content": question}, {"role": "assistant", "content": reply}]
            messages.append({"role": "user", "content": message})
            path = "" if self.config.url.rstrip("/").endswith("/chat/completions") else "/v1/chat/completions"
            body = self._post(path, {"model": self.model, "messages": messages})
            try:
                answer = body["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                answer = None
        if not isinstance(answer, str):
            raise ValueError(f"malformed response body: {str(body)[:200]!r}")
        return answer


def _error_text(exc: BaseException) -> str:
    import urllib.error

    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return f"connection failed: {exc.reason}"
    return f"{type(exc).__name__}: {exc}"


def _with_retries(config: GenerateConfig, call) -> tuple[Any, str | None, int]:
    """(result, last error or None, attempts): up to 1 + retries attempts with exponential backoff."""
    error = None
    for attempt in range(1, config.retries + 2):
        try:
            return call(), None, attempt
        except (OSError, ValueError, json.JSONDecodeError) as exc:  # URLError, timeouts, bad bodies
            error = _error_text(exc)
            if attempt <= config.retries:
                time.sleep(config.backoff * 2 ** (attempt - 1))
    return None, error, config.retries + 1


def _run_scene(client: ChatClient, cases: list[dict[str, Any]], known: dict[str, dict], store: AnswerStore,
               progress: Progress) -> None:
    """Ask for the scene's unanswered cases in dialogue order; answers already on disk make up the history."""
    todo = [case for case in cases if "prediction" not in known.get(case["id"], {})]
    if not todo:
        return
    _, error, _ = _with_retries(client.config, client.reset)
    history: list[tuple[str, str]] = []
    for case in cases:
        done = known.get(case["id"], {})
        if "prediction" in done:
            history.append((case["context"], done["prediction"]))
            continue
        if error is not None:
            store.append({"id": case["id"], "error": f"reset failed: {error}", "attempts": client.config.retries + 1})
            progress.advance()
            continue
        answer, failure, attempts = _with_retries(client.config, lambda: client.ask(case["context"], history))
        if failure is None:
            store.append({"id": case["id"], "prediction": answer, "attempts": attempts})
            history.append((case["context"], answer))
        else:
            store.append({"id": case["id"], "error": failure, "attempts": attempts})
        progress.advance()


def generate_predictions(cases: list[dict[str, Any]], config: GenerateConfig, model: str, store_path: Path) -> LoadResult:
    """Answers for every case (id, scene, context): those on disk are kept, the rest asked for — scenes in parallel
    up to `concurrency` for the openai protocol, one at a time for peppa (its server keeps one global history).
    Cases still failing after the retries come back as rejects carrying the error."""
    store = AnswerStore(store_path)
    known = store.load()
    scenes: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        scenes.setdefault(case["scene"], []).append(case)
    client = ChatClient(config, model)
    workers = config.concurrency if config.protocol == "openai" else 1
    todo = sum("prediction" not in known.get(case["id"], {}) for case in cases)
    with ThreadPoolExecutor(max_workers=workers) as pool, Progress(f"asking {model}", todo) as progress:
        for future in [pool.submit(_run_scene, client, scene_cases, known, store, progress)
                       for scene_cases in scenes.values()]:
            future.result()
    answers = store.load()
    result = LoadResult(columns={}, input_rows=len(cases))
    ids, predictions = [], []
    for case in cases:
        record = answers.get(case["id"], {})
        if "prediction" in record:
            ids.append(case["id"])
            predictions.append(record["prediction"])
        else:
            reason = f"generation failed after {record.get('attempts', 0)} attempt(s): {record.get('error', 'not asked')}"
            result.rejects.append(Reject(f"{config.url} ({model})", None, reason, case["id"]))
    result.columns = {"id": ids, "line": [None] * len(ids), "prediction": predictions, "confidence": [None] * len(ids)}
    return result
