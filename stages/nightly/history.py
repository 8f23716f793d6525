"""Nightly history: one row per dataset × model × metric per night, and the per-item scores nights are paired on."""
from __future__ import annotations

from datetime import date as Date
from typing import Any

from ..core.errors import UsageError
from ..core.records import Columns
from ..kinds import get_kind

NOT_METRICS = frozenset({"confusion_matrix", "weights", "weights_used", "semantic_model", "labels", "rules"})


def parse_night(text: str, what: str = "--date") -> str:
    """A night's date as YYYY-MM-DD; anything else is a UsageError naming `what` was given."""
    try:
        return Date.fromisoformat(text).isoformat()
    except ValueError:
        raise UsageError(f"{what} must be YYYY-MM-DD, got {text!r}") from None


def flatten_metrics(metrics: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """Every numeric value of a model's metrics under a dotted name (micro.character_f1); counts stay, label
    tables (confusion matrices, rule counts, weights) are left out."""
    flat: dict[str, float] = {}
    for name, value in metrics.items():
        if name in NOT_METRICS:
            continue
        if isinstance(value, dict):
            flat.update(flatten_metrics(value, f"{prefix}{name}."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[f"{prefix}{name}"] = float(value)
    return flat


def history_rows(night: str, reports: list[dict[str, Any]], code_version: str) -> list[dict[str, Any]]:
    """One night's rows: date, dataset, kind, model, metric, value, whether it is the dataset's primary metric."""
    rows = []
    for report in reports:
        primary = report["comparison"]["primary_metric"]
        for model, metrics in report["models"].items():
            for metric, value in flatten_metrics(metrics).items():
                rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": model,
                             "metric": metric, "value": value, "primary": metric == primary,
                             "code_version": code_version})
        for model, criteria in report.get("judge", {}).get("models", {}).items():
            for name, summary in criteria.items():
                rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": model,
                             "metric": f"{JUDGE_METRIC_PREFIX}{name}", "value": summary["mean"], "primary": False,
                             "code_version": code_version})
        for stage, usage in report.get("judge_cost", {}).get("stages", {}).items():
            for name, value in usage.items():
                if value is not None:
                    rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": stage,
                                 "metric": f"{JUDGE_COST_PREFIX}{name}", "value": float(value), "primary": False,
                                 "code_version": code_version})
    return rows


ITEM_COLUMNS = ("dataset", "model", "metric", "test", "id", "value")
JUDGE_METRIC_PREFIX = "judge:"  # a judge criterion as a nightly metric: judge:<criterion>
JUDGE_COST_PREFIX = "judge_cost:"  # what a night's judging took: judge_cost:asked, …:reused, …:tokens_in, …:cost


def item_score_columns(dataset: str, kind_name: str, model: str, scored: Columns) -> Columns:
    """A model's per-item values of its kind's paired metrics as columns (dataset, model, metric, test, id, value),
    with the test each metric is compared by."""
    kind = get_kind(kind_name)
    columns: Columns = {name: [] for name in ITEM_COLUMNS}
    ids = [str(item) for item in scored["id"]]
    for metric, values in kind.item_scores(scored).items():
        n = len(values)
        for name, constant in (("dataset", dataset), ("model", model), ("metric", metric),
                               ("test", kind.paired_metrics[metric])):
            columns[name].extend([constant] * n)
        columns["id"].extend(ids)
        columns["value"].extend(values)
    return columns


def judge_item_columns(dataset: str, model: str, judged: Columns) -> Columns:
    """A model's B5J rows as item-score columns: one metric judge:<criterion> per criterion, compared by the mean
    test (McNemar's when every value is 0 or 1); an item without a parsed verdict has no value."""
    n = len(judged["id"])
    return {"dataset": [dataset] * n, "model": [model] * n,
            "metric": [f"{JUDGE_METRIC_PREFIX}{name}" for name in judged["criterion"]], "test": ["mean"] * n,
            "id": [str(item) for item in judged["id"]], "value": list(judged["value"])}


def previous_night(nights: list[str], night: str) -> str | None:
    """The most recent night before `night`, or None."""
    earlier = [n for n in nights if n < night]
    return max(earlier) if earlier else None


def primary_trends(history: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float | None]]]:
    """dataset → model → night → the dataset's primary metric, for the trend charts."""
    trends: dict[str, dict[str, dict[str, float | None]]] = {}
    for row in history:
        if row["primary"]:
            trends.setdefault(row["dataset"], {}).setdefault(row["model"], {})[row["date"]] = row["value"]
    return trends
