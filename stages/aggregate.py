"""B6: models side by side per dataset, and one summary across datasets."""
from __future__ import annotations

from typing import Any

from .registry import get_kind


def build_dataset_report(
    dataset: str, kind_name: str, metrics_by_model: dict[str, dict], set_aside_by_model: dict[str, dict],
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One dataset's report: each model's metrics, the kind's comparison, and what was set aside per model."""
    kind = get_kind(kind_name)
    return {
        "dataset": dataset,
        "kind": kind_name,
        "models": metrics_by_model,
        "comparison": kind.compare(metrics_by_model, params or {}),
        "set_aside": set_aside_by_model,
    }


def build_summary(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One row per dataset × model with the kind's primary metric and set-aside counts."""
    rows = []
    for report in reports:
        metric = report["comparison"]["primary_metric"]
        for model, metrics in report["models"].items():
            aside = report["set_aside"].get(model, {})
            rows.append(
                {
                    "dataset": report["dataset"],
                    "kind": report["kind"],
                    "model": model,
                    "metric": metric,
                    "value": metrics.get(metric),
                    "rows": metrics.get("rows"),
                    **aside,
                }
            )
    return {"datasets": [r["dataset"] for r in reports], "rows": rows}


def render_report(report: dict[str, Any]) -> str:
    """The dataset report as console text, in the kind's own layout."""
    return get_kind(report["kind"]).render(report["dataset"], report)
