"""Nightly history: one row per dataset × model × metric per night, and the per-item scores nights are paired on."""
from __future__ import annotations

from datetime import date as Date
from typing import Any

from ..chat.outage import unpublished_models
from ..core.errors import UsageError
from ..core.records import Columns
from ..kinds import get_kind
from ..kinds.sampling import item_means
from ..leaderboards.board import get_leaderboard

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
    """One night's rows: date, dataset, kind, model, metric, value, whether it is the dataset's primary metric; a
    model not published (too many items not scored) has none."""
    rows = []
    for report in reports:
        unpublished = unpublished_models(report)
        boards = report.get("leaderboards", {})
        headline = next((f"{name}:{section['headline']}" for name, section in boards.items()), None)
        primary = headline or report["comparison"]["primary_metric"]
        for model, metrics in report["models"].items():
            if model in unpublished:
                continue
            for metric, value in flatten_metrics(metrics).items():
                rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": model,
                             "metric": metric, "value": value, "primary": metric == primary,
                             "code_version": code_version})
        for name, section in boards.items():
            for model, found in section["models"].items():
                if model in unpublished:
                    continue
                for figure in section["columns"]:
                    value = found.get(figure)
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"],
                                     "model": model, "metric": f"{name}:{figure}", "value": float(value),
                                     "primary": f"{name}:{figure}" == primary, "code_version": code_version})
        judges = ", ".join(report.get("pairwise", {}).get("judges", []) or report.get("judge", {}).get("judges", []))
        for figure, value in agreement_figures(report).items():
            rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": judges,
                         "metric": f"{AGREEMENT_METRIC_PREFIX}{figure}", "value": value, "primary": False,
                         "code_version": code_version})
        for pair in report.get("pairwise", {}).get("pairs", []):
            if pair.get("win_ties_half_rate") is not None and not {pair["first"], pair["second"]} & unpublished:
                rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"],
                             "model": pair["first"], "metric": f"{PAIRWISE_METRIC_PREFIX}{pair['second']}",
                             "value": pair["win_ties_half_rate"], "primary": False, "code_version": code_version})
        for model, criteria in report.get("judge", {}).get("models", {}).items():
            if model in unpublished:
                continue
            for name, summary in criteria.items():
                rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": model,
                             "metric": f"{JUDGE_METRIC_PREFIX}{name}", "value": summary["mean"], "primary": False,
                             "code_version": code_version})
        for stage, usage in report.get("judge_cost", {}).get("stages", {}).items():
            for name, value in usage.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    rows.append({"date": night, "dataset": report["dataset"], "kind": report["kind"], "model": stage,
                                 "metric": f"{JUDGE_COST_PREFIX}{name}", "value": float(value), "primary": False,
                                 "code_version": code_version})
    return rows


ITEM_COLUMNS = ("dataset", "model", "metric", "test", "id", "value")
JUDGE_METRIC_PREFIX = "judge:"  # a judge criterion as a nightly metric: judge:<criterion>
JUDGE_COST_PREFIX = "judge_cost:"  # what a night's judging took: judge_cost:asked, …:reused, …:tokens_in, …:cost
AGREEMENT_METRIC_PREFIX = "agreement:"  # the judge against people: agreement:accuracy, …; model: the judge(s)
PAIRWISE_METRIC_PREFIX = "pairwise:"  # a model's win rate (ties half) against another: pairwise:<other model>


def item_score_columns(dataset: str, kind_name: str, model: str, scored: Columns) -> Columns:
    """A model's per-item values of its kind's paired metrics as columns (dataset, model, metric, test, id, value),
    with the test each metric is compared by; with several replies per item, each item's mean over its replies
    (avg@n), compared by the mean test whatever n was on either night."""
    kind = get_kind(kind_name)
    columns: Columns = {name: [] for name in ITEM_COLUMNS}
    ids, scores = [str(item) for item in scored["id"]], kind.item_scores(scored)
    sampled = "sample" in scored
    if sampled:
        ids, scores = item_means(ids, scores)
    for metric, values in scores.items():
        n = len(values)
        for name, constant in (("dataset", dataset), ("model", model), ("metric", metric),
                               ("test", "mean" if sampled else kind.paired_metrics[metric])):
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


def agreement_figures(report: dict[str, Any]) -> dict[str, float]:
    """The pairwise judge against people's preferences (their majority, or the one rater): accuracy, Cohen's κ, the
    mean of each order's accuracy (LLMBar's Acc.), position consistency and the share preferring the longer answer."""
    figures: dict[str, Any] = {}
    for name, criterion in report.get("agreement", {}).get("criteria", {}).items():
        people = _people(criterion["overall"]["against"])
        if people is not None:
            figures.update({f"{name}:agreement": people.get("agreement"), f"{name}:kappa": people.get("kappa")})
    people = _people(report.get("preferences", {}).get("against", {}))
    if people is None:
        return {name: float(value) for name, value in figures.items() if isinstance(value, (int, float))}
    figures.update({"accuracy": people.get("accuracy"), "kappa": people.get("kappa"),
                    "mean_order_accuracy": people.get("orders", {}).get("mean_accuracy")})
    for biases in (report.get("biases") or {}).get("judges", {}).values():
        figures.update({"position_consistency": biases.get("position_consistency"),
                        "longer_preferred": biases.get("length", {}).get("longer_preferred")})
        break
    return {name: float(value) for name, value in figures.items() if isinstance(value, (int, float))}


def _people(against: dict[str, Any]) -> dict[str, Any] | None:
    """The judge against the raters' majority, or against the one rater."""
    return against.get("raters' majority") or (next(iter(against.values())) if len(against) == 1 else None)


def agreement_item_columns(dataset: str, report: dict[str, Any]) -> Columns:
    """The judge's agreement with people item by item — the pairwise judge's per order (agreement:preferences), each
    criterion's per (model, item) (agreement:<criterion>); model: the judge — compared by McNemar's test night over
    night whatever judge asked it, so a new judge is compared too."""
    columns: Columns = {name: [] for name in ITEM_COLUMNS}
    groups = [("preferences", report.get("preferences", {}).get("items"),
               report.get("pairwise", {}).get("judges", []))]
    groups += [(name, items, report.get("judge", {}).get("judges", []))
               for name, items in report.get("agreement", {}).get("items", {}).items()]
    for name, items, judges in groups:
        if not items:
            continue
        n = len(items["ids"])
        for column, values in (("dataset", [dataset] * n), ("model", [", ".join(judges)] * n),
                               ("metric", [f"{AGREEMENT_METRIC_PREFIX}{name}"] * n), ("test", ["binary"] * n),
                               ("id", list(items["ids"])), ("value", list(items["values"]))):
            columns[column].extend(values)
    return columns


def leaderboard_item_columns(dataset: str, model: str, name: str, rows: Columns) -> Columns:
    """A model's B5L rows as item-score columns of its leaderboard's paired item metric (Leaderboard.item_values:
    AlpacaEval's preference − 1, MT-Bench's rating per item and turn, AlignBench's score), compared by the mean test;
    none for a leaderboard whose figures come from every model together (Arena-Hard)."""
    found = get_leaderboard(name).item_values(rows)
    metric, ids, values = found if found is not None else ("", [], [])
    n = len(ids)
    return {"dataset": [dataset] * n, "model": [model] * n, "metric": [metric] * n, "test": ["mean"] * n,
            "id": ids, "value": values}


def pairwise_item_columns(dataset: str, rows: Columns) -> Columns:
    """B5P rows as item-score columns: per first model, its outcome against the second on each item (1 a win, 0.5 a
    tie, 0 a loss; none without an outcome) as pairwise:<second>, compared by the mean test."""
    n = len(rows["id"])
    values = {"first": 1.0, "tie": 0.5, "second": 0.0}
    return {"dataset": [dataset] * n, "model": list(rows["first"]),
            "metric": [f"{PAIRWISE_METRIC_PREFIX}{second}" for second in rows["second"]], "test": ["mean"] * n,
            "id": [str(item) for item in rows["id"]], "value": [values.get(o) for o in rows["outcome"]]}


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
