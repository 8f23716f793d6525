"""Several replies per item, for one model (B6): avg@n of each paired metric and pass@k with intervals from a bootstrap
over items (an item's replies stay together), maj@k, the items with fewer replies than the model's n and the items it
gets right only sometimes."""
from __future__ import annotations

from typing import Any

from ..core.intervals import RESAMPLES, bootstrap_mean_intervals
from ..kinds.sampling import k_values, pass_at_k

NAMED = 20  # items named per list


def merge_items(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The per-item arrays of a model's shards as one (maj@k a shard lacks for a large k: its largest k, which
    already holds each of its items' replies)."""
    merged: dict[str, Any] = {"id": [], "replies": [], "right": [], "means": {}, "maj": {}}
    most = max((max(part["replies"], default=0) for part in parts), default=0)
    voting = all("maj" in part for part in parts)
    for part in parts:
        size = len(part["id"])
        for name in ("id", "replies", "right"):
            merged[name].extend(part[name])
        for metric, values in part["means"].items():
            merged["means"].setdefault(metric, []).extend(values)
        if voting:
            own = sorted(int(k) for k in part["maj"])
            for k in k_values(most):
                below = [j for j in own if j <= k]
                merged["maj"].setdefault(str(k), []).extend(part["maj"][str(below[-1])] if below else [0] * size)
    if not voting:
        del merged["maj"]
    if any("not_scored" in part for part in parts):
        merged["not_scored"] = [flag for part in parts for flag in part.get("not_scored", [False] * len(part["id"]))]
    return merged


def with_items_not_scored(items: dict[str, Any], unscored: set[str]) -> dict[str, Any]:
    """The per-item arrays with the items not scored (stages/chat/outage.py) flagged in `not_scored` and without
    means, so they stay in line by item but no figure counts them."""
    flags = [str(item) in unscored for item in items["id"]]
    if not any(flags):
        return items
    means = {metric: [None if flag else value for value, flag in zip(values, flags)]
             for metric, values in items["means"].items()}
    return {**items, "means": means, "not_scored": flags}


def _counted(items: dict[str, Any]) -> dict[str, Any]:
    """The per-item arrays less the items not scored."""
    flags = items.get("not_scored")
    if not flags:
        return items

    def kept(values: list) -> list:
        return [value for value, flag in zip(values, flags) if not flag]

    return {**{name: kept(items[name]) for name in ("id", "replies", "right")},
            "means": {metric: kept(values) for metric, values in items["means"].items()},
            **({"maj": {k: kept(values) for k, values in items["maj"].items()}} if "maj" in items else {})}


def sampling_summary(items: dict[str, Any]) -> dict[str, Any]:
    """n (the most replies of an item), items, replies; per paired metric avg@n with its interval; pass@k and maj@k for
    k = 1, 2, 4 … n, pass@k with its interval; the items short of n replies and those right only sometimes, named.
    The items not scored are left out."""
    items = _counted(items)
    n = max(items["replies"], default=0)
    summary: dict[str, Any] = {"n": n, "items": len(items["id"]), "replies": sum(items["replies"]), "avg": {},
                               "pass": {}, "interval_method": f"percentile bootstrap over items ({RESAMPLES} "
                                                              "resamples)"}
    # no reply at all: no avg@n (not the 0 of items left unanswered)
    columns = {("avg", metric): [value for value in values if value is not None] if n else []
               for metric, values in items["means"].items()}
    counts = list(zip(items["replies"], items["right"]))
    for k in k_values(n):
        estimate = {pair: pass_at_k(*pair, k) for pair in set(counts)}  # few distinct (replies, right) pairs
        columns["pass", str(k)] = [estimate[pair] for pair in counts]
    for (figure, name), found in zip(columns, _with_intervals(list(columns.values()))):
        summary[figure][name] = found
    if "maj" in items:
        summary["maj"] = {k: sum(values) / len(values) if values else None for k, values in items["maj"].items()}
    short = [(item, replies) for item, replies in zip(items["id"], items["replies"]) if replies < n]
    summary["short_items"] = {"count": len(short), "named": [{"id": item, "replies": replies}
                                                             for item, replies in short[:NAMED]]}
    sometimes = sorted(((right / replies, item, right, replies) for item, replies, right
                        in zip(items["id"], items["replies"], items["right"]) if 0 < right < replies),
                       key=lambda found: found[0])
    summary["sometimes_right"] = {"count": len(sometimes), "named": [
        {"id": item, "right": right, "replies": replies} for _, item, right, replies in sometimes[:NAMED]]}
    return summary


def _with_intervals(columns: list[list[float]]) -> list[dict[str, Any]]:
    """Each column's mean with its bootstrap interval, the columns resampled together (one index matrix)."""
    filled = [values for values in columns if values]
    intervals = iter(bootstrap_mean_intervals(filled))
    return [{"value": sum(values) / len(values), **dict(zip(("low", "high"), next(intervals)))} if values
            else {"value": None, "low": None, "high": None} for values in columns]


def sampling_line(model: str, summary: dict[str, Any], primary: str) -> str:
    """A few lines per model, each narrow: avg@n of the primary metric with its interval; then, indented, pass@k,
    maj@k, what is short and the items right only sometimes."""
    avg = summary["avg"].get(primary) or next(iter(summary["avg"].values()), {"value": None})
    n = summary["n"]
    if not n:
        return f"{model}: {summary['items']} items, not one reply: no avg@n, pass@k or maj@k"
    parts = [f"{model}: {summary['items']} items × up to {n} replies; {primary} avg@{n} {_figure(avg)}"]
    parts.append("pass@k " + ", ".join(f"{k}: {_value(found['value'])}" for k, found in summary["pass"].items()))
    if "maj" in summary:
        parts.append("maj@k " + ", ".join(f"{k}: {_value(value)}" for k, value in summary["maj"].items()))
    if summary["short_items"]["count"]:
        named = ", ".join(f"{found['id']} ({found['replies']})" for found in summary["short_items"]["named"][:5])
        parts.append(f"{summary['short_items']['count']} item(s) with fewer than {n} replies: {named}")
    parts.append(f"{summary['sometimes_right']['count']} item(s) right only sometimes")
    return "\n  ".join(parts)


def _figure(found: dict[str, Any]) -> str:
    if found.get("value") is None:
        return "n/a"
    return f"{found['value']:.4f} [{found['low']:.4f}, {found['high']:.4f}]"


def _value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def sampling_rows(report: dict[str, Any]) -> list[dict[str, str]]:
    """Per sampled model, the report.html table's cells: n, items, avg@n of the primary metric with its interval,
    pass@k and maj@k at every k, the items short of n replies and those right only sometimes (a few named)."""
    primary = report["comparison"]["primary_metric"]
    rows = []
    for model, found in report.get("samples", {}).items():
        avg = found["avg"].get(primary) or next(iter(found["avg"].values()), {"value": None})
        sometimes = ", ".join(f"{item['id']} ({item['right']}/{item['replies']})"
                              for item in found["sometimes_right"]["named"][:5])
        rows.append({"model": model, "n": str(found["n"]), "item_count": f"{found['items']:,}",
                     "avg": f"{primary} {_figure(avg)}",
                     "pass": ", ".join(f"{k}: {_value(v['value'])}" for k, v in found["pass"].items()) or "-",
                     "maj": ", ".join(f"{k}: {_value(v)}" for k, v in found.get("maj", {}).items()) or "-",
                     "short": f"{found['short_items']['count']:,}",
                     "sometimes": f"{found['sometimes_right']['count']:,}" + (f" ({sometimes} …)" if sometimes else "")})
    return rows


def sampling_curves(report: dict[str, Any]) -> dict[str, tuple[list[str], dict[str, list[float | None]]]]:
    """pass@k and maj@k by k per sampled model, for report.html's line charts."""
    found = report.get("samples", {})
    curves = {}
    for name, values_of in (("pass@k", lambda s: {k: v["value"] for k, v in s["pass"].items()}),
                            ("maj@k", lambda s: s.get("maj", {}))):
        by_model = {model: values_of(summary) for model, summary in found.items()}
        ks = sorted({int(k) for values in by_model.values() for k in values})
        if ks and any(by_model.values()):
            curves[name] = ([str(k) for k in ks], {model: [values.get(str(k)) for k in ks]
                                                   for model, values in by_model.items() if values})
    return curves
