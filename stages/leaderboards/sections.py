"""A leaderboard's section of a dataset's report: its figures per model under the names its own tool prints, which
columns to show in the text report and report.html (in that tool's order), and what the figures rest on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SectionForm:
    """How a leaderboard's section reads: its title, its columns in its tool's order, their unit ("percent", "score"
    or "rate"), the headline figure (`fallback` when the headline cannot be computed) and, when its rules compute
    one, the figures holding the headline's 95% interval — (low, high), or one figure that is a [low, high] pair —
    with the figure counting what it rests on and how it was drawn."""

    title: str
    columns: tuple[str, ...]
    unit: str
    headline: str
    fallback: str | None = None
    interval: tuple[str, ...] = ()
    interval_n: str | None = None
    interval_method: str = ""


def headline_interval(form: SectionForm, headline: str, figures: dict[str, Any]) -> dict[str, Any] | None:
    """The headline's 95% interval from one model's figures ({low, high, n, method}); None when the form has none,
    the headline is its fallback, or the figures lack it."""
    if not form.interval or headline != form.headline:
        return None
    bounds = [figures.get(name) for name in form.interval]
    if len(bounds) == 1:
        bounds = bounds[0] if isinstance(bounds[0], (list, tuple)) and len(bounds[0]) == 2 else [None]
    if any(not isinstance(bound, (int, float)) for bound in bounds):
        return None
    return {"low": float(bounds[0]), "high": float(bounds[1]),
            "n": figures.get(form.interval_n) if form.interval_n else None, "method": form.interval_method}


def leaderboard_section(form: SectionForm, board: dict[str, Any], figures: dict[str, dict[str, Any]],
                        counts: dict[str, dict[str, Any]], published: dict[str, dict[str, Any]] | None = None,
                        notes: list[str] = ()) -> dict[str, Any]:
    """The report's section for one leaderboard: title, judge, baseline, columns, the headline figure, and per model
    its figures and the headline's interval (`intervals`, where the rules give one); items a model answered without a
    recorded verdict are counted (`not_judged`); the figures the
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
            "intervals": {model: found for model, found in ((model, headline_interval(form, primary, values))
                                                            for model, values in figures.items()) if found},
            "published": {model: values for model, values in (published or {}).items() if model in figures}}
