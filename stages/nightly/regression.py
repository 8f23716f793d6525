"""Night over night (or any two runs): a drop is a regression when it is larger than a set size and significant on
the same items, after the run's tests are corrected together for multiplicity."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..core.errors import UsageError
from ..core.paired_tests import bootstrap_pvalue, mcnemar_pvalue, paired_test, sign_flip_pvalue
from ..core.param_rules import at_least, one_of, within
from ..core.records import Columns
from ..io.dataset_config import resolve_params
from .history import AGREEMENT_METRIC_PREFIX, ITEM_COLUMNS, JUDGE_METRIC_PREFIX, PAIRWISE_METRIC_PREFIX, parse_night
from .multiplicity import CORRECTIONS, adjust_pvalues

SETTING_RULES = {"min_drop": within(0, 1), "alpha": within(0, 1, low_open=True, high_open=True),
                 "bootstrap_resamples": at_least(100, integer=True), "seed": at_least(0, integer=True)}


@dataclass(frozen=True)
class RegressionSettings:
    """How big and how sure a drop must be to count (luigi.cfg [nightly], dataset.toml [nightly])."""

    min_drop: float = 0.02
    alpha: float = 0.05
    bootstrap_resamples: int = 10000
    seed: int = 0

    def __post_init__(self) -> None:
        for name, rule in SETTING_RULES.items():
            problem = rule(getattr(self, name))
            if problem is not None:
                raise UsageError(f"nightly {name} = {getattr(self, name)!r} {problem}")

    def described(self) -> dict[str, Any]:
        return asdict(self)


NIGHT_DEFAULTS = {"correction": "bh", "baseline": ""}  # settings of the whole night, not of one dataset


def dataset_regression_settings(configured: dict[str, str], table: dict[str, Any] | None,
                                origin: str) -> RegressionSettings:
    """Defaults, overridden by luigi.cfg [nightly] (`configured`), then by a dataset's dataset.toml [nightly] (when
    given), which may not set what belongs to the whole night."""
    whole_night = sorted(NIGHT_DEFAULTS.keys() & (table or {}).keys())
    if whole_night:
        raise UsageError(f"{origin}: [nightly] {', '.join(whole_night)} is a setting of the whole night; "
                         "set it in luigi.cfg [nightly] (or on the command line)")
    own = {k: v for k, v in configured.items() if k not in NIGHT_DEFAULTS}
    resolved = resolve_params(RegressionSettings().described(), ("luigi.cfg [nightly]", own), (origin, table or {}),
                              rules=SETTING_RULES)
    return RegressionSettings(**resolved)


def whole_night_settings(configured: dict[str, str], given: dict[str, str | None]) -> dict[str, str]:
    """correction and baseline for a whole night or comparison: luigi.cfg [nightly] (`configured`), overridden by the
    command line (`given` values that are not None); checked."""
    section = {k: v for k, v in configured.items() if k in NIGHT_DEFAULTS}
    resolved = resolve_params(NIGHT_DEFAULTS, ("luigi.cfg [nightly]", section),
                              ("the command line", {k: v for k, v in given.items() if v is not None}),
                              rules={"correction": one_of(*CORRECTIONS)})
    if resolved["baseline"]:
        resolved["baseline"] = parse_night(resolved["baseline"], "baseline")
    return resolved


def mcnemar_drop_pvalue(before: Sequence[float], after: Sequence[float]) -> tuple[float, int, int]:
    """One-sided exact McNemar test that accuracy fell: (p, items right before and wrong now, the reverse)."""
    return mcnemar_pvalue(before, after, "less")


def paired_bootstrap_drop_pvalue(before: Sequence[float], after: Sequence[float], resamples: int = 10000,
                                 seed: int = 0) -> float:
    """One-sided paired bootstrap test that the mean fell (at least 1/(B+1))."""
    return bootstrap_pvalue(before, after, "less", resamples, seed)


def sign_flip_drop_pvalue(before: Sequence[float], after: Sequence[float]) -> float:
    """One-sided exact paired permutation (sign-flip) test that the mean fell."""
    return sign_flip_pvalue(before, after, "less")


def compare_metric(before: dict[str, float | None], after: dict[str, float | None], test: str,
                   settings: RegressionSettings) -> dict[str, Any]:
    """Compare one metric's per-item values (item id → value) of two nights on the items both scored, by the paired
    test that fits (stages/core/paired_tests.py). A mean metric whose values are all 0 or 1 (F1 of one-word answers)
    is tested like an accuracy: with few items changed the bootstrap would call a drop significant that McNemar, on
    the same information, does not."""
    paired = sorted(i for i in before.keys() & after.keys() if before[i] is not None and after[i] is not None)
    old = [float(before[i]) for i in paired]
    new = [float(after[i]) for i in paired]
    result: dict[str, Any] = {"test": test, "paired_items": len(paired),
                              "items_only_before": len(before.keys() - after.keys()),
                              "items_only_after": len(after.keys() - before.keys())}
    if not paired:
        return {**result, "before": None, "after": None, "delta": None, "p_value": None, "regression": False,
                "reason": "no item scored on both nights"}
    mean_before, mean_after = sum(old) / len(old), sum(new) / len(new)
    delta = mean_after - mean_before
    tested = paired_test(old, new, test, "less", settings.bootstrap_resamples, settings.seed)
    p_value = tested.pop("p_value")
    result.update(tested)
    result.update(before=mean_before, after=mean_after, delta=delta, p_value=p_value)
    return {**result, **verdict(result, settings, p_value)}


def verdict(comparison: dict[str, Any], settings: RegressionSettings, p_adjusted: float,
            correction: str = "none") -> dict[str, Any]:
    """regression (a drop beyond min_drop with adjusted p below alpha), the adjusted p and the reason in words."""
    delta, p_value = comparison["delta"], comparison["p_value"]
    large = -delta > settings.min_drop + 1e-12
    regression = large and p_adjusted < settings.alpha
    shown = f"p={p_value:.4g}" + ("" if correction == "none" else f", {correction}-adjusted {p_adjusted:.4g}")
    if regression:
        reason = f"dropped {-delta:.4f} > {settings.min_drop} with {shown} < {settings.alpha}"
    elif delta >= 0:
        reason = "no drop"
    elif not large:
        reason = f"drop {-delta:.4f} within {settings.min_drop}"
    else:
        reason = f"drop {-delta:.4f} not significant ({shown} ≥ {settings.alpha})"
    return {"p_adjusted": p_adjusted, "regression": regression, "reason": reason}


def correct_together(comparisons: list[dict[str, Any]], settings_by_dataset: dict[str, RegressionSettings],
                     correction: str) -> list[dict[str, Any]]:
    """Every comparison with a p-value adjusted over all of them (the run's family of tests) and its verdict redone
    on the adjusted p, against its dataset's alpha and min_drop."""
    tested = [i for i, c in enumerate(comparisons) if c.get("p_value") is not None]
    adjusted = adjust_pvalues([comparisons[i]["p_value"] for i in tested], correction)
    result = [dict(c) for c in comparisons]
    for i, p_adjusted in zip(tested, adjusted):
        settings = settings_by_dataset.get(result[i]["dataset"], RegressionSettings())
        result[i].update(verdict(result[i], settings, p_adjusted, correction), correction=correction)
    return result


def compare_nights(before: Columns, after: Columns, settings_by_dataset: dict[str, RegressionSettings],
                   correction: str = "bh", not_comparable: dict[tuple[str, ...], str] | None = None,
                   ) -> list[dict[str, Any]]:
    """Every dataset × model × metric scored tonight, compared with the earlier night's items where it has them, all
    tests corrected together (`correction`: bh, holm or none).

    Both nights are item-score columns (dataset, model, metric, test, id, value); datasets without settings use the
    defaults. A (dataset, model) in `not_comparable` (its scoring parameters changed) is listed with the reason and
    never tested; so is a judge metric keyed (dataset, model, "judge:<criterion>") there (its judge or rubric
    changed), which the scoring parameters leave alone."""
    grouped_before = _group(before)
    comparisons = []
    for key, (test, items) in sorted(_group(after).items()):
        dataset, model, metric = key
        row = {"dataset": dataset, "model": model, "metric": metric}
        untested = {**row, "test": test, "paired_items": 0, "before": None, "after": None, "delta": None,
                    "p_value": None, "p_adjusted": None, "regression": False}
        if key not in grouped_before and metric.startswith(AGREEMENT_METRIC_PREFIX):
            key = _earlier_judge(grouped_before, dataset, metric, model) or key
            if key != (dataset, model, metric):
                row["model"] = untested["model"] = f"{key[1]} → {model}"  # another judge: side by side
        if key not in grouped_before:
            comparisons.append({**untested, "reason": "not scored on the earlier night"})
            continue
        changed = (not_comparable or {}).get(_change_key(dataset, model, metric))
        if changed is not None:
            comparisons.append({**untested, "comparable": False, "reason": f"not comparable: {changed}"})
            continue
        settings = settings_by_dataset.get(dataset, RegressionSettings())
        comparisons.append({**row, **compare_metric(grouped_before[key][1], items, test, settings)})
    return correct_together(comparisons, settings_by_dataset, correction)


def _earlier_judge(grouped: dict[tuple[str, str, str], Any], dataset: str, metric: str,
                   judge: str) -> tuple[str, str, str] | None:
    """The earlier night's key of this agreement metric under another judge's name, when exactly one judge had it:
    a renamed judge is compared with the one it replaced, on the same items."""
    found = [key for key in grouped if key[0] == dataset and key[2] == metric and key[1] != judge]
    return found[0] if len(found) == 1 else None


def _change_key(dataset: str, model: str, metric: str) -> tuple[str, ...]:
    """Where a metric's scoring changes are keyed in `not_comparable`: a judge criterion by itself, a pairwise win
    rate under "pairwise", a leaderboard's figure under "leaderboard", the kind's metrics under (dataset, model)."""
    if metric.startswith(JUDGE_METRIC_PREFIX):
        return dataset, model, metric
    if metric.startswith(PAIRWISE_METRIC_PREFIX):
        return dataset, model, "pairwise"
    if metric.startswith(AGREEMENT_METRIC_PREFIX):
        return dataset, model, "agreement"  # never keyed: agreement with people is compared whatever judge asked
    if ":" in metric:
        return dataset, model, "leaderboard"
    return dataset, model


def _group(columns: Columns) -> dict[tuple[str, str, str], tuple[str, dict[str, float | None]]]:
    grouped: dict[tuple[str, str, str], tuple[str, dict[str, float | None]]] = {}
    for dataset, model, metric, test, item, value in zip(*(columns.get(name, []) for name in ITEM_COLUMNS)):
        grouped.setdefault((dataset, model, metric), (test, {}))[1][str(item)] = (
            None if value is None or value != value else value)
    return grouped
