"""Loglikelihood kind: each item a context and its choices, scored by each choice's log-probability as the
continuation of the context (asked of a completions endpoint, or read from a file), as lm-eval scores them."""
from __future__ import annotations

import copy
import math
from collections import Counter
from pathlib import Path
from typing import Any

from ...chat.local_tokenizer import tokenizer_files
from ...core.distinct import shared_values
from ...core.errors import UsageError
from ...core.param_rules import at_least, one_of
from ...core.records import Columns, LoadResult, Reject
from ...core.stats import Stats
from ...core.text_table import format_table, percent
from ...io.fields import get_record_id, is_missing
from ...io.readers import iter_records, readable_records
from ..base import Kind, rank_models, register_kind
from .detokenizers import DETOKENIZERS
from .figures import FIGURES, choice_picks, figures_from_tallies, tally
from .items import load_items
from .live import ask_items, prediction_text
from .own_tasks import OWN_TASKS, OwnTask, task_named
from .tasks import BUILT_IN

ITEM_PARAMS = ("task", "num_fewshot", "fewshot_file", "context_template", "choices", "gold", "target_delimiter",
               "fewshot_separator", "text_field", "continuation_template", "detokenize")


def _task_rule(value: str) -> str | None:
    own = OWN_TASKS.names()
    return None if value in ("", *own) or value in BUILT_IN else (
        f"is none of the built-in tasks ({', '.join([*BUILT_IN, *own])})")


def _numbers(value: Any, count: int | None, kind: type, name: str) -> list:
    """A prediction's list of one value per choice (`kind`: float or bool)."""
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise ValueError(f"{name} is not a list of one value per choice")
    if kind is bool and not all(isinstance(v, bool) for v in value):
        raise ValueError(f"{name} holds a value that is not true / false")
    if kind is float and not all(isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v)
                                 for v in value):
        raise ValueError(f"{name} holds a value that is not a number")
    return [kind(v) for v in value]


def read_prediction(record: Any) -> tuple[list[float], list[bool] | None]:
    """A prediction record's loglikelihoods (one per choice, in order) and greedy flags (optional)."""
    if not isinstance(record, dict):
        raise ValueError(f"expected a JSON object, got {type(record).__name__}")
    loglikelihoods = _numbers(record.get("loglikelihoods"), None, float, "loglikelihoods")
    greedy = record.get("greedy")
    return loglikelihoods, None if greedy is None else _numbers(greedy, len(loglikelihoods), bool, "greedy")


@register_kind("loglikelihood")
class Loglikelihood(Kind):
    """Choices ranked by their loglikelihood: acc, acc_norm (per character), acc_bytes (per UTF-8 byte) when asked."""

    defaults = {"task": "", "num_fewshot": 0, "fewshot_file": "", "context_template": "{question}",
                "choices": "choices", "gold": "gold", "target_delimiter": " ", "fewshot_separator": "\n\n",
                "acc_bytes": False, "max_length": 2048, "text_field": "text", "continuation_template": "",
                "detokenize": ""}
    stage_params = {"B1": ITEM_PARAMS, "B5": ("acc_bytes",), "B6": ("acc_bytes",)}
    param_rules = {"task": _task_rule, "detokenize": one_of("", *DETOKENIZERS), "num_fewshot": at_least(0, integer=True),
                   "max_length": at_least(1, integer=True)}
    paired_metrics = {"acc": "binary", "acc_norm": "binary"}
    headline_metrics = ("acc", "acc_norm")
    question_columns = ("choices", "continuations", "gold", "subject", "contexts")
    prediction_columns = ("loglikelihoods", "greedy")
    status_column = "status"
    asks_completions = True
    own_task: OwnTask | None = None  # set on the kind bound to a task with stages of its own (for_params)

    def for_params(self, params: dict[str, Any]) -> Kind:
        """Bound to the own task (own_tasks/) `task` names, which then runs every stage; else this kind."""
        own = task_named(params.get("task") or "")
        if own is None:
            return self
        bound = copy.copy(self)
        bound.own_task, bound.bound_task, bound.headline_metrics = own, own.name, own.headline_metrics
        return bound

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        try:
            return load_items(path, {**self.defaults, **(params or {})}, fields.get("id_field"), rows)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def gold_files(self, params: dict[str, Any]) -> list[str]:
        return [params["fewshot_file"]] if params.get("fewshot_file") and params.get("num_fewshot") else []

    def load_predictions(self, path: Path, fields: dict[str, str | None], rows: range | None = None) -> LoadResult:
        """B2 from a file: per item its `loglikelihoods` (one per choice) and optionally `greedy`."""
        columns: Columns = {name: [] for name in ("id", "line", "prediction", "loglikelihoods", "greedy")}
        result, seen = LoadResult(columns=columns), set()
        records = enumerate(iter_records(path, rows), start=rows.start if rows else 0)
        for position, line, record, location in readable_records(records, result):
            try:
                item_id = get_record_id(record, line, fields.get("id_field")) if isinstance(record, dict) else None
                if item_id is None or is_missing(item_id):
                    raise ValueError("no id")
                if item_id in seen:
                    raise ValueError(f"duplicate id {item_id!r}")
                loglikelihoods, greedy = read_prediction(record)
            except ValueError as exc:
                result.rejects.append(Reject(str(path), line, str(exc), location))
                continue
            seen.add(item_id)
            for name, value in (("id", item_id), ("line", line), ("prediction", prediction_text(loglikelihoods)),
                                ("loglikelihoods", loglikelihoods), ("greedy", greedy)):
                columns[name].append(value)
        return result

    def ask(self, questions: Columns, config: Any, model: str, journal: Path,
            user: Any = None) -> tuple[LoadResult, dict[str, Any]]:
        """B2 asked of a completions endpoint (live.ask_items; an own task asks its own way)."""
        if self.own_task is not None:
            return self.own_task.ask(questions, config, model, journal)
        return ask_items(questions, config, model, journal)

    def asking_files(self, generate: dict[str, Any]) -> dict[str, Path]:
        """A local tokenizer folder's files ([generate] tokenizer), fingerprinted as B2's inputs."""
        return tokenizer_files(generate.get("tokenizer"))

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B3: each item's loglikelihoods beside its choices; a prediction with another count of choices is kept as
        unscorable."""
        names = ("id", "choices", "gold", "subject", "loglikelihoods", "greedy")
        rows = {name: list(joined.get(name) or [None] * len(joined["id"])) for name in names}
        mismatched = 0
        for index, (choices, found) in enumerate(zip(rows["choices"], rows["loglikelihoods"])):
            if found is not None and len(found) != len(choices):
                rows["loglikelihoods"][index] = rows["greedy"][index] = None
                mismatched += 1
        return rows, {"choice_count_mismatches": mismatched}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B4: per item the choice acc, acc_norm and acc_bytes pick, whether each is the gold, and whether every
        continuation token of the gold was the model's greedy one (an own task matches its own way)."""
        if self.own_task is not None:
            return self.own_task.match(normalized)
        out: Columns = {name: [] for name in ("id", "subject", "gold", "loglikelihoods", "greedy", "chosen",
                                              "chosen_norm", "chosen_bytes", "correct", "correct_norm",
                                              "correct_bytes", "status")}
        for row_id, choices, gold, subject, lls, greedy in zip(*(normalized[n] for n in (
                "id", "choices", "gold", "subject", "loglikelihoods", "greedy"))):
            picks = choice_picks(lls, choices) if lls is not None else dict.fromkeys(
                ("chosen", "chosen_norm", "chosen_bytes"))
            for name, value in (("id", row_id), ("subject", subject), ("gold", gold), ("loglikelihoods", lls),
                                ("greedy", greedy), *picks.items(),
                                *((f"correct{suffix}", picks[f"chosen{suffix}"] == gold)
                                  for suffix in ("", "_norm", "_bytes")),
                                ("status", "missing" if lls is None else
                                 "correct" if picks["chosen"] == gold else "wrong")):
                out[name].append(value)
        return out, {"statuses": dict(Counter(out["status"]))}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        if self.own_task is not None:
            return self.own_task.score(matched)
        scored = {"id": matched["id"], **{figure: [float(bool(v)) for v in matched[f"correct{suffix}"]]
                                           for figure, suffix in zip(FIGURES, ("", "_norm", "_bytes"))}}
        if not params.get("acc_bytes"):
            del scored["acc_bytes"]
        metrics = figures_from_tallies(self.score_stats(matched)["by_subject"], bool(params.get("acc_bytes")))
        return scored, metrics

    def item_scores(self, scored: Columns) -> dict[str, list[float | None]]:
        """acc and acc_norm per item (a rolling task's documents have neither: no per-item interval)."""
        return {metric: shared_values([None if v is None else float(v) for v in scored[metric]])
                for metric in self.paired_metrics if metric in scored}

    def score_stats(self, matched: Columns) -> Stats:
        if self.own_task is not None:
            return self.own_task.score_stats(matched)
        rows = {figure: matched[f"correct{suffix}"] for figure, suffix in zip(FIGURES, ("", "_norm", "_bytes"))}
        return {"by_subject": tally(matched["subject"], rows),
                "answered": sum(status != "missing" for status in matched["status"])}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        if self.own_task is not None:
            return self.own_task.metrics_from_stats(stats)
        metrics = figures_from_tallies(stats["by_subject"], False)
        rows = metrics["rows"]
        return {**metrics, "answer_rate": stats["answered"] / rows if rows else None}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics.get("answer_rate")

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        if matched.get("loglikelihoods") is None:
            return "missing", "no loglikelihoods"
        if self.own_task is not None:
            return self.own_task.item_view(matched)
        return matched["status"], (f"chose {matched['chosen']} (norm {matched['chosen_norm']}), gold "
                                   f"{matched['gold']}; " + ", ".join(f"{ll:.3f}" for ll in matched["loglikelihoods"]))

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        if self.own_task is not None:
            return self.own_task.compare(metrics_by_model)
        return rank_models(metrics_by_model, "acc")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["models"]
        if self.own_task is not None:
            return self.own_task.render(models)
        figures = [f for f in FIGURES if any(m.get(f) is not None for m in models.values())]
        rows = [[model, str(m["rows"]), *(f"{percent(m.get(f))} ± {percent(m.get(f + '_stderr'))}" for f in figures)]
                for model, m in models.items()]
        text = format_table(["model", "items", *figures], rows)
        groups = sorted({g for m in models.values() for g in m.get("by_group", {})})
        if groups:
            table = [[group, *(percent(m["by_group"][group]["acc"]) if group in m.get("by_group", {}) else "-"
                               for m in models.values())] for group in groups]
            table.append(["macro (mean of subjects)", *(percent(m.get("acc_macro")) for m in models.values())])
            text += "\n\n" + format_table(["group (acc)", *models], table)
        return text
