"""A leaderboard's section of a dataset's report: its figures per model under the names its own tool prints, which
columns to show in the text report and report.html (in that tool's order), and what the figures rest on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SectionForm:
    """How a leaderboard's section reads: its title, its columns in its tool's order, their unit ("percent", "score"
    or "rate") and the headline figure (`fallback` when the headline cannot be computed)."""

    title: str
    columns: tuple[str, ...]
    unit: str
    headline: str
    fallback: str | None = None


def leaderboard_section(form: SectionForm, board: dict[str, Any], figures: dict[str, dict[str, Any]],
                        counts: dict[str, dict[str, Any]], published: dict[str, dict[str, Any]] | None = None,
                        notes: list[str] = ()) -> dict[str, Any]:
    """The report's section for one leaderboard: title, judge, baseline, columns, the headline figure, and per model
    its figures; items a model answered without a recorded verdict are counted (`not_judged`); the figures the
    leaderboard published for a model, when its import found them, beside (`published`) — a model without figures
    of ours (the baseline aside) shown with its published ones all the same."""
    primary = form.headline
    if form.fallback and any(found.get(primary) is None for found in figures.values()):
        primary = form.fallback
    unscored = {model: {} for model in published or {} if model != board.get("baseline")}
    figures = {**unscored, **figures}  # a model's published figures shown even without figures of ours
    return {"title": form.title, "judge": board.get("judge"), "baseline": board.get("baseline"),
            "columns": list(form.columns), "headline": primary, "unit": form.unit, "notes": sorted(set(notes)),
            "models": {model: {**{c: found.get(c) for c in form.columns},
                               "not_judged": counts.get(model, {}).get("not_judged", 0)}
                       for model, found in sorted(figures.items(), key=lambda kv: -(kv[1].get(primary) or 0))},
            "published": {model: values for model, values in (published or {}).items() if model in figures}}
