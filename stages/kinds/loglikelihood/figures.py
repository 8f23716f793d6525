"""The figures lm-eval computes from each choice's loglikelihood: acc (argmax of the sums), acc_norm (argmax of sum /
the choice's length in characters), acc_bytes (/ UTF-8 bytes); stderr as lm-eval's (B6 adds its intervals), per
subject and group (micro: every item counts once, as lm-eval's weight_by_size; macro: the mean of the subjects)."""
from __future__ import annotations

import math
from typing import Any

from ...core.stats import Stats, share
from .mmlu_subjects import mmlu_group

FIGURES = ("acc", "acc_norm", "acc_bytes")


def argmax(values: list[float]) -> int:
    """The first index of the largest value (numpy's argmax; NaN never wins)."""
    best = 0
    for index, value in enumerate(values):
        if value > values[best] or (math.isnan(values[best]) and not math.isnan(value)):
            best = index
    return best


def _per_length(loglikelihood: float, length: int) -> float:
    """sum / length as numpy divides: a choice of length 0 is -inf (or +inf for a positive sum)."""
    if length:
        return loglikelihood / length
    return math.copysign(math.inf, loglikelihood) if loglikelihood else math.nan


def choice_picks(loglikelihoods: list[float], choices: list[str]) -> dict[str, int]:
    """The choice each figure picks: by the sums, by sum per character, by sum per UTF-8 byte."""
    return {"chosen": argmax(loglikelihoods),
            "chosen_norm": argmax([_per_length(ll, len(c)) for ll, c in zip(loglikelihoods, choices)]),
            "chosen_bytes": argmax([_per_length(ll, len(c.encode())) for ll, c in zip(loglikelihoods, choices)])}


def lm_eval_stderr(correct: int, n: int) -> float | None:
    """lm-eval's stderr of a mean of 0 / 1 values: the sample standard deviation (n − 1) over √n."""
    if n < 2:
        return None
    p = correct / n
    return math.sqrt(p * (1 - p) * n / (n - 1) / n)


def pooled_stderr(sizes: list[int], stderrs: list[float | None]) -> float | None:
    """lm-eval's stderr of a group weighted by size (pooled_sample_stderr over its members' sizes and stderrs)."""
    if sum(sizes) - len(sizes) <= 0:
        return None
    stderrs = [err or 0.0 for err in stderrs]
    variance = sum((size - 1) * err ** 2 * size for size, err in zip(sizes, stderrs)) / (sum(sizes) - len(sizes))
    return math.sqrt(variance / sum(sizes))


def tally(subjects: list[str | None], rows: dict[str, list[bool]]) -> dict[str, dict[str, int]]:
    """Per subject ("" for none): rows and how many each figure got right."""
    tallies: dict[str, dict[str, int]] = {}
    for index, subject in enumerate(subjects):
        found = tallies.setdefault(subject or "", {"rows": 0, **dict.fromkeys(FIGURES, 0)})
        found["rows"] += 1
        for figure in FIGURES:
            found[figure] += bool(rows[figure][index])
    return tallies


def _figures(tallies: list[dict[str, int]], figures: tuple[str, ...]) -> dict[str, Any]:
    rows = sum(t["rows"] for t in tallies)
    out: dict[str, Any] = {"rows": rows}
    for figure in figures:
        correct = sum(t[figure] for t in tallies)
        out[figure] = share(correct, rows)
        out[f"{figure}_stderr"] = lm_eval_stderr(correct, rows) if len(tallies) == 1 else pooled_stderr(
            [t["rows"] for t in tallies], [lm_eval_stderr(t[figure], t["rows"]) for t in tallies])
    return out


def figures_from_tallies(by_subject: Stats, acc_bytes: bool) -> dict[str, Any]:
    """The headline figures over every item, and with subjects: per subject, per group (MMLU's four), micro and
    macro over subjects."""
    figures = FIGURES if acc_bytes else FIGURES[:2]
    subjects = sorted(by_subject)
    metrics = _figures([by_subject[s] for s in subjects], figures) if subjects else {
        "rows": 0, **{f: None for f in figures}}
    named = [s for s in subjects if s]
    if not named:
        return metrics
    metrics["by_subject"] = {s: _figures([by_subject[s]], figures) for s in named}
    groups: dict[str, list[str]] = {}
    for subject in named:
        groups.setdefault(mmlu_group(subject) or "other subjects", []).append(subject)
    metrics["by_group"] = {name: {**_figures([by_subject[s] for s in members], figures),
                                  **_macro(metrics["by_subject"], members, figures)}
                           for name, members in sorted(groups.items())}
    metrics.update(_macro(metrics["by_subject"], named, figures))
    for figure in figures:  # the whole, as lm-eval aggregates a group of groups: pooled over the groups
        metrics[f"{figure}_stderr"] = pooled_stderr([g["rows"] for g in metrics["by_group"].values()],
                                                    [g[f"{figure}_stderr"] for g in metrics["by_group"].values()])
    return metrics


def _macro(by_subject: dict[str, dict[str, Any]], members: list[str], figures: tuple[str, ...]) -> dict[str, Any]:
    """Each figure's unweighted mean over subjects (lm-eval's groups with weight_by_size = false)."""
    return {f"{figure}_macro": sum(by_subject[s][figure] for s in members) / len(members) for figure in figures}
