"""BFCL's items asked live ([generate] on a function_calling dataset), in the [generate] mode's handler (modes/:
BFCL's function-calling mode, `tools`, the default, or its prompt mode, `mode = "prompt"`). A single-turn item is one request of its first turn; a multi-turn item an agent
loop (agent.py). Every request is journaled in the model's answer store."""
from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from ...chat.call_pool import run_calls
from ...chat.client import ChatClient, CircuitBreaker
from ...chat.generation import GenerateConfig, generate_predictions, generation_summary
from ...chat.journal import AnswerStore
from ...chat.outage import server_cause
from ...chat.step_asker import Asker
from ...core.errors import UsageError
from ...core.progress import Progress
from ...core.records import Columns, LoadResult, Reject
from .agent import Episode, run_episode
from .hints import with_language_hints
from .modes import Mode, get_mode
from .verdicts import FUNCTION_CALLS, TEXT

COLUMNS = ("id", "line", "prediction", "confidence", "finish_reason", "reasoning_content", "reply_format")  # an
# episode's row (a single-turn item's as generate_predictions gives it)


def ask_items(questions: Columns, config: GenerateConfig, model: str,
              store: Path) -> tuple[LoadResult, dict[str, Any]]:
    """B2 of a function_calling dataset asked of `model`: its replies and the summary of the asking."""
    if config.protocol != "openai":
        raise UsageError(f"function calling is asked in OpenAI's chat protocol, not {config.protocol!r}")
    rows = [dict(zip(questions, values)) for values in zip(*questions.values())]
    single = [row for row in rows if row["episode"] is None]
    multi = [row for row in rows if row["episode"] is not None]
    if multi and config.samples > 1:
        raise UsageError(f"[generate] samples = {config.samples}: a multi-turn episode is asked once per item")
    mode = get_mode(config.mode)
    cases = [_single_case(row, config, mode) for row in single]
    asked = generate_predictions(cases, config, model, store)
    asker = Asker(config, ChatClient(config, config.served(model)), AnswerStore(store).load(), AnswerStore(store),
                  CircuitBreaker(config.circuit_breaker))
    episodes = _ask_episodes(multi, asker, mode, model)
    loaded = _merged(asked, episodes, len(rows), f"{config.url} ({model})")
    summary = generation_summary(store, [case["id"] for case in cases] + asker.step_ids, config.price, config.samples)
    return loaded, summary


def _opening(row: dict[str, Any], config: GenerateConfig) -> list[dict[str, Any]]:
    """The first turn's messages, after [generate]'s system_prompt when there is one."""
    first = json.loads(row["messages"])[0]
    return ([{"role": "system", "content": config.system_prompt}] if config.system_prompt else []) + first


def _single_case(row: dict[str, Any], config: GenerateConfig, mode: Mode) -> dict[str, Any]:
    """A single-turn item's request: its first turn, with its functions as `mode` sends them."""
    functions = with_language_hints(json.loads(row["functions"]), row["language"])
    tools = mode.tools(functions)
    return {"id": row["id"], "conversation": row["id"], "prompt": row["question"],
            "messages": mode.opening(_opening(row, config), functions), **({"tools": tools} if tools else {})}


def _episode(row: dict[str, Any], config: GenerateConfig) -> Episode | str:
    """A multi-turn item as asked (its missed functions' docs withheld from the rest), or why it cannot be."""
    episode = json.loads(row["episode"])
    if episode.get("docs_problem"):
        return episode["docs_problem"]
    offered = json.loads(row["functions"])
    missed = {turn: _withheld(offered, names) for turn, names in episode.get("missed_function", {}).items()}
    turns = json.loads(row["messages"])
    turns[0] = _opening(row, config)
    return Episode(row["id"], row["category"], turns, with_language_hints(offered, row["language"]), missed,
                   episode["involved_classes"], episode["initial_config"])


def _withheld(offered: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """The docs of these missed functions, taken out of `offered` (the first of each name, as bfcl-eval takes it)."""
    taken = []
    for name in names:
        index = next((i for i, doc in enumerate(offered) if doc.get("name") == name), None)
        if index is not None:
            taken.append(offered.pop(index))
    return taken


def _ask_episodes(rows: list[dict[str, Any]], asker: Asker, mode: Mode,
                  model: str) -> dict[str, tuple[Any, str | None, bool]]:
    """Per multi-turn item (its result, None, False) or (None, why it has none, whether a request went unanswered);
    episodes in parallel up to concurrency, asked in `mode`."""
    found: dict[str, tuple[Any, str | None, bool]] = {}

    def ask(row: dict[str, Any], progress: Progress) -> None:
        episode = _episode(row, asker.config)
        found[row["id"]] = (None, episode, False) if isinstance(episode, str) else (
            *run_episode(episode, asker, mode), True)
        progress.advance()

    with Progress(f"asking {model} (episodes)", len(rows)) as progress:
        run_calls([partial(ask, row, progress) for row in rows], asker.config.concurrency)
    return {row["id"]: found[row["id"]] for row in rows if row["id"] in found}


def _merged(asked: LoadResult, episodes: dict[str, tuple[Any, str | None, bool]], items: int,
            source: str) -> LoadResult:
    """The single-turn replies and the episodes' results as one B2 table; an episode without one set aside (not
    scored when a request went unanswered)."""
    count = len(asked.columns["id"])
    columns = {name: list(values) for name, values in asked.columns.items()}
    columns["reply_format"] = columns.get("reply_format") or [TEXT] * count
    result = LoadResult(columns=columns, rejects=list(asked.rejects), input_rows=items)
    for item_id, (turns, reason, asked_live) in episodes.items():
        if turns is None:
            result.rejects.append(Reject(source, None, reason, item_id,
                                         unscored=server_cause(reason) if asked_live else None))
            continue
        for name, value in zip(COLUMNS, (item_id, None, orjson.dumps(turns).decode(), None, None, None,
                                         FUNCTION_CALLS)):
            columns[name].append(value)
    return result

