"""The figure a dataset is read by where its kind's primary metric is not it: a leaderboard's headline, a judged
benchmark's own score, a judge criterion's mean or a pairwise win rate — with its unit and intervals."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RATE_SCALES = ("binary", "correct")  # judge scales whose mean is a rate in [0, 1]


@dataclass(frozen=True)
class Headline:
    """The figure a judged dataset is read by: its name, per model its value and 95% interval ({low, high, n,
    method}, where one was computed), and its unit ("percent", "rate" in [0, 1] or "score")."""

    name: str
    values: dict[str, float | None]
    unit: str
    intervals: dict[str, dict[str, Any]] = field(default_factory=dict)


def leaderboard_headline(report: dict[str, Any]) -> Headline | None:
    """The figure a judged dataset is read by, in place of its kind's primary metric: a leaderboard's headline
    (`<leaderboard>:<figure>`), else for open-ended instructions a judged benchmark's own score (`hle:accuracy`,
    `simpleqa:is_correct`), the first judge criterion's mean (`judge:<name>`) or
    the pairwise win rate (ties half) against the other model (`pairwise:win_rate`). None for other datasets."""
    for name, section in report.get("leaderboards", {}).items():
        return Headline(f"{name}:{section['headline']}",
                        {model: found.get(section["headline"]) for model, found in section["models"].items()},
                        section.get("unit", "percent"), section.get("intervals", {}))
    if report["kind"] != "instruction":
        return None
    judged = report.get("judge", {}).get("models", {})
    if judged:
        name, summary = next(iter(next(iter(judged.values())).items()))
        if summary.get("headline"):  # a judged benchmark (SimpleQA, HLE): its script's own score, not the mean
            figure = summary["headline"]
            return Headline(f"{summary['scale']}:{figure}",
                            {model: (found.get(name, {}).get("figures") or {}).get(figure)
                             for model, found in judged.items()}, summary["headline_unit"],
                            {model: found[name]["headline_interval"] for model, found in judged.items()
                             if found.get(name, {}).get("headline_interval")})
        return Headline(f"judge:{name}", {model: found.get(name, {}).get("mean") for model, found in judged.items()},
                        "rate" if summary["scale"] in RATE_SCALES else "score",
                        {model: found[name]["interval"] for model, found in judged.items()
                         if found.get(name, {}).get("interval")})
    pairs = [pair for pair in report.get("pairwise", {}).get("pairs", [])
             if pair["second"] == report["pairwise"]["pairs"][0]["second"]]
    if pairs:
        return Headline("pairwise:win_rate", {pair["first"]: pair["win_ties_half_rate"] for pair in pairs}, "rate",
                        {pair["first"]: pair["win_ties_half_interval"] for pair in pairs
                         if pair.get("win_ties_half_interval")})
    return None


def leaderboard_caption(section: dict[str, Any]) -> str:
    """What a leaderboard's figures rest on, as far as it has them: "judge gpt-4, baseline gpt-3.5" (empty when
    neither applies)."""
    return ", ".join(f"{name} {section[name]}" for name in ("judge", "baseline") if section.get(name))


def leaderboard_baseline(report: dict[str, Any]) -> str | None:
    """The model a dataset's leaderboard compares every other one with (it has no figure of its own), if any."""
    return next((section.get("baseline") for section in report.get("leaderboards", {}).values()), None)
