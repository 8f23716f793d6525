"""The loglikelihood kind asked live ([generate] protocol = "completions"): every (context, continuation) of every
item asked once (loglikelihoods.py), or the rolling task's documents (rolling.py); an item any of whose asks failed
is set aside with the reason, not scored when the server did not answer."""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...chat.completions import EchoRefused
from ...chat.outage import server_cause
from ...core.errors import UsageError
from ...core.records import Columns, LoadResult, Reject
from .loglikelihoods import Loglikelihoods, ask_loglikelihoods
from .rolling import ask_rolling


def ask_items(questions: Columns, config: Any, model: str, journal: Path) -> tuple[LoadResult, dict[str, Any]]:
    """B2 of a choice task asked of a completions endpoint: the predictions and the asking's summary, every answer
    journaled in `journal`; a server that does not echo the prompt's log-probs fails the dataset in one line."""
    source = f"{config.url} ({model})"
    pairs = [pair for pairs in item_pairs(questions) for pair in pairs]
    with echo_refused_fails(source):
        asked = ask_loglikelihoods(pairs, config, model, journal)
    return predictions_from(questions, asked, source), asked.summary(len(pairs))


def ask_documents(questions: Columns, config: Any, model: str, journal: Path) -> tuple[LoadResult, dict[str, Any]]:
    """B2 of the rolling task: each document's rolling loglikelihood and the asking's summary (as ask_items)."""
    source = f"{config.url} ({model})"
    with echo_refused_fails(source):
        rolled = ask_rolling(questions["question"], config, model, journal)
    return (rolling_predictions_from(questions, rolled.found, rolled.failed, source),
            rolled.summary(len(questions["id"])))


@contextmanager
def echo_refused_fails(source: str) -> Iterator[None]:
    """A server that does not echo the prompt's log-probs: the dataset fails in one line naming `source`."""
    try:
        yield
    except EchoRefused as exc:
        raise UsageError(f"{source} cannot be scored: {exc}") from None


def prediction_text(loglikelihoods: list[float]) -> str:
    """A prediction's text (what the report shows as the reply): its loglikelihoods."""
    return json.dumps(loglikelihoods)


def item_pairs(questions: Columns) -> list[list[tuple[str, str]]]:
    """Each item's (context, continuation) per choice: its one context with each continuation, or (several-context
    tasks) each choice's own context with its continuation."""
    contexts = questions.get("contexts") or [None] * len(questions["id"])
    return [list(zip(own or [context] * len(continuations), continuations))
            for context, continuations, own in zip(questions["question"], questions["continuations"], contexts)]


def predictions_from(questions: Columns, asked: Loglikelihoods, source: str) -> LoadResult:
    """Each item's loglikelihoods and greedy flags (one per continuation), from the pairs asked."""
    columns: Columns = {name: [] for name in ("id", "line", "prediction", "loglikelihoods", "greedy")}
    result = LoadResult(columns=columns, input_rows=len(questions["id"]))
    for item_id, pairs in zip(questions["id"], item_pairs(questions)):
        failed = [asked.failed[pair] for pair in pairs if pair in asked.failed]
        if failed:
            result.rejects.append(Reject(source, None, f"loglikelihood {failed[0]}", item_id,
                                         unscored=server_cause(failed[0])))
            continue
        found = [asked.found[pair] for pair in pairs]
        loglikelihoods = [ll for ll, _ in found]
        for name, value in (("id", item_id), ("line", None), ("prediction", prediction_text(loglikelihoods)),
                            ("loglikelihoods", loglikelihoods), ("greedy", [g for _, g in found])):
            columns[name].append(value)
    return result


def rolling_predictions_from(questions: Columns, found: dict[str, float], failed: dict[str, str],
                             source: str) -> LoadResult:
    """Each document's rolling loglikelihood as its one choice's, from the texts asked."""
    columns: Columns = {name: [] for name in ("id", "line", "prediction", "loglikelihoods", "greedy")}
    result = LoadResult(columns=columns, input_rows=len(questions["id"]))
    for item_id, text in zip(questions["id"], questions["question"]):
        if text in failed:
            result.rejects.append(Reject(source, None, f"rolling loglikelihood {failed[text]}", item_id,
                                         unscored=server_cause(failed[text])))
            continue
        for name, value in (("id", item_id), ("line", None), ("prediction", prediction_text([found[text]])),
                            ("loglikelihoods", [found[text]]), ("greedy", None)):
            columns[name].append(value)
    return result
