"""How far the judge can be trusted: its labels against people's, per criterion — raw agreement, Cohen's κ (weighted
for ordinal scales) with a bootstrap interval and the confusion matrix, against each rater and the raters'
majority — and Krippendorff's α among the raters themselves."""
from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Any

from ..core.records import Columns, Reject
from .files import LabelsFiles, is_preference_file
from .scales import ORDINAL_SCALES, SCALES, scale_label
from .sheet import parse_human_label, strip_formula_guard

MAJORITY = "raters' majority"
RESAMPLES = 1000
Unit = tuple[str, str]  # (model, item id)


def rater_label(text: str, scale: str) -> str | None:
    """A rater's cell as a scale label: yes/no words for 0/1 scales (1/0, 是/否, ✓/✗ …), the scale's own labels
    otherwise; None when blank; ValueError when it names none."""
    if not text.strip():
        return None
    if scale == "binary":
        return {True: "1", False: "0"}[parse_human_label(text)]
    label = scale_label(text, scale)
    if label is None:
        raise ValueError(f"cannot read {text!r} as one of {', '.join(SCALES[scale])}")
    return label


def read_rater_labels(data: bytes, source: str, scales: dict[str, str], models: set[str], items: set[str],
                      dialogue_ids: dict[tuple[str, str], str] | None = None,
                      ) -> tuple[dict[str, dict[Unit, str]], list[Reject]]:
    """One rater's labels per criterion from a CSV with a model column, an id column (or scene and dialogue_index,
    looked up in `dialogue_ids`) and one column per judged criterion; unreadable cells, and rows of other `models`
    or `items` than the dataset's, are set aside."""
    reader = csv.DictReader(io.StringIO(data.decode("utf-8-sig", errors="replace"), newline=""))
    columns = reader.fieldnames or []
    judged = [name for name in scales if name in columns]
    keyed = "id" in columns or (dialogue_ids is not None and {"scene", "dialogue_index"} <= set(columns))
    if "model" not in columns or not keyed or not judged:
        needs = "id" if dialogue_ids is None else "id (or scene and dialogue_index)"
        return {}, [Reject(source, 1, f"needs columns model, {needs} and one of {', '.join(scales)}")]
    labels: dict[str, dict[Unit, str]] = {name: {} for name in judged}
    rejects = []
    for row in reader:
        line, cell = reader.line_num, {k: strip_formula_guard(v or "").strip() for k, v in row.items() if k}
        item = cell.get("id") or (dialogue_ids or {}).get((cell.get("scene", ""), cell.get("dialogue_index", "")))
        try:
            read = {name: rater_label(cell.get(name, ""), scales[name]) for name in judged}
        except ValueError as exc:
            rejects.append(Reject(source, line, str(exc)))
            continue
        if all(label is None for label in read.values()):
            continue
        if item not in items:
            rejects.append(Reject(source, line, f"no item {item or '(no id)'} among the dataset's questions"))
            continue
        if cell["model"] not in models:
            rejects.append(Reject(source, line, f"no model {cell['model'] or '(empty)'} among the dataset's"))
            continue
        for name, label in read.items():
            if label is not None:
                labels[name][(cell["model"], item)] = label
    return labels, rejects


def most_common_label(labels: list[str | None]) -> str | None:
    """The most common label (the judge's over its verdicts for an item, the raters' for a unit); None when there
    is none or two labels tie."""
    counts = Counter(label for label in labels if label is not None).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def kappa_weights(k: int, scale: str) -> Any:
    """Disagreement weights: quadratic for ordinal scales, 0/1 otherwise (scikit-learn's weights=None / "quadratic")."""
    import numpy as np

    i, j = np.indices((k, k))
    return (i - j) ** 2 if scale in ORDINAL_SCALES else (i != j).astype(float)


def kappa_from_confusions(confusions: Any, weights: Any) -> Any:
    """Cohen's κ of each confusion matrix (…, k, k): 1 − Σ w·observed / Σ w·expected; NaN where undefined."""
    import numpy as np

    n = confusions.sum(axis=(-2, -1), keepdims=True)
    expected = confusions.sum(axis=-1, keepdims=True) * confusions.sum(axis=-2, keepdims=True) / np.maximum(n, 1)
    observed = (weights * confusions).sum(axis=(-2, -1))
    chance = (weights * expected).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(chance > 0, 1 - observed / chance, np.nan)


def compare_labels(first: list[str], second: list[str], scale: str) -> dict[str, Any]:
    """n, raw agreement, Cohen's κ (quadratic-weighted for ordinal scales) with its percentile-bootstrap 95%
    interval, and the confusion matrix (rows: first, columns: second) over the scale's labels."""
    import numpy as np

    names = list(SCALES[scale])
    a = np.array([names.index(x) for x in first], dtype=np.int64)
    b = np.array([names.index(x) for x in second], dtype=np.int64)
    k, n = len(names), len(a)
    confusion = np.zeros((k, k))
    np.add.at(confusion, (a, b), 1)
    weights = kappa_weights(k, scale)
    kappa = float(kappa_from_confusions(confusion, weights))
    interval = None
    if n > 1:
        draws = np.random.default_rng(0).integers(0, n, size=(RESAMPLES, n))
        resampled = np.zeros((RESAMPLES, k, k))
        np.add.at(resampled, (np.repeat(np.arange(RESAMPLES), n), a[draws].ravel(), b[draws].ravel()), 1)
        kappas = kappa_from_confusions(resampled, weights)
        kappas = kappas[~np.isnan(kappas)]
        if kappas.size:
            low, high = np.quantile(kappas, [0.025, 0.975])
            interval = {"low": float(low), "high": float(high), "n": n,
                        "method": f"percentile bootstrap ({RESAMPLES} resamples)"}
    return {"n": n, "agreement": float((a == b).mean()) if n else None,
            "kappa": None if np.isnan(kappa) else kappa, "kappa_interval": interval,
            "confusion": {"labels": names, "counts": confusion.astype(int).tolist()}}


def krippendorff_alpha(raters: dict[str, dict[Unit, str]], units: list[Unit], scale: str) -> dict[str, Any] | None:
    """Krippendorff's α among the raters over these units (ordinal for ordinal scales, else nominal), by the
    `krippendorff` package; None with fewer than two raters or no unit rated twice."""
    import krippendorff
    import numpy as np

    names = list(SCALES[scale])
    data = np.array([[names.index(labels[u]) if u in labels else np.nan for u in units] for labels in raters.values()],
                    dtype=float)
    paired = int((np.sum(~np.isnan(data), axis=0) >= 2).sum()) if len(raters) >= 2 else 0
    if not paired:
        return None
    level = "ordinal" if scale in ORDINAL_SCALES else "nominal"
    try:
        value = float(krippendorff.alpha(reliability_data=data, value_domain=list(range(len(names))),
                                         level_of_measurement=level))
    except ValueError:  # one label in all of it: α is undefined
        value = float("nan")
    return {"alpha": None if np.isnan(value) else value, "units": paired, "raters": len(raters), "level": level}


def agreement_block(judge: dict[Unit, str], raters: dict[str, dict[Unit, str]], scale: str,
                    units: list[Unit]) -> dict[str, Any]:
    """The judge against each rater (and the raters' majority, with two or more) on these units, and α among the
    raters."""
    against = {}
    consensus = {unit: found for unit in units
                 if (found := most_common_label([labels[unit] for labels in raters.values() if unit in labels])) is not None}
    for name, labels in {**raters, **({MAJORITY: consensus} if len(raters) > 1 else {})}.items():
        both = [unit for unit in units if unit in judge and unit in labels]
        against[name] = compare_labels([judge[u] for u in both], [labels[u] for u in both], scale)
    return {"against": against, "alpha": krippendorff_alpha(raters, units, scale)}


def correlations(first: list[float], second: list[float]) -> dict[str, Any]:
    """n and Spearman's ρ, Kendall's τ-b and Pearson's r of two lists of values (scipy; None where undefined)."""
    import math

    from scipy.stats import kendalltau, pearsonr, spearmanr

    found: dict[str, Any] = {"n": len(first)}
    for name, test in (("spearman", spearmanr), ("kendall", kendalltau), ("pearson", pearsonr)):
        value = float(test(first, second).statistic) if len(first) > 2 and len(set(first)) > 1 and len(
            set(second)) > 1 else math.nan
        found[name] = None if math.isnan(value) else value
    return found


def ordinal_correlations(judge: dict[Unit, str], raters: dict[str, dict[Unit, str]], scale: str) -> dict[str, Any]:
    """The judge's values against the raters' mean on an ordinal criterion: over every (model, item) both scored,
    and at system level (each model's mean over those units)."""
    values = SCALES[scale]
    units = sorted(unit for unit in judge if any(unit in labels for labels in raters.values()))
    theirs = {u: sum(values[labels[u]] for labels in raters.values() if u in labels) /
              sum(u in labels for labels in raters.values()) for u in units}
    models = sorted({model for model, _ in units})
    per_model = [[u for u in units if u[0] == model] for model in models]
    return {"items": correlations([values[judge[u]] for u in units], [theirs[u] for u in units]),
            "systems": correlations([sum(values[judge[u]] for u in group) / len(group) for group in per_model],
                                    [sum(theirs[u] for u in group) / len(group) for group in per_model])}


def judge_agreement(judge: dict[str, dict[Unit, str]], raters: dict[str, dict[str, dict[Unit, str]]],
                    scales: dict[str, str]) -> dict[str, Any]:
    """Per criterion some rater labelled: the agreement over all models together and per model. `judge`: criterion
    → (model, id) → the judge's label; `raters`: rater → criterion → (model, id) → label; `scales`: criterion → the
    scale it is labelled on."""
    found = {}
    for name, scale in scales.items():
        rated = {rater: labels[name] for rater, labels in raters.items() if labels.get(name)}
        if not rated:
            continue
        units = sorted(set(judge.get(name, {})) | {unit for labels in rated.values() for unit in labels})
        models = sorted({model for model, _ in units})
        found[name] = {"scale": scale, "raters": sorted(rated),
                       "correlations": ordinal_correlations(judge.get(name, {}), rated, scale)
                       if scale in ORDINAL_SCALES else None,
                       "kappa_weights": "quadratic" if scale in ORDINAL_SCALES else None,
                       "overall": agreement_block(judge.get(name, {}), rated, scale, units),
                       "models": {model: agreement_block(judge.get(name, {}), rated, scale,
                                                         [u for u in units if u[0] == model]) for model in models}}
    return found


def criterion_agreement_items(judge: dict[str, dict[Unit, str]], raters: dict[str, dict[str, dict[Unit, str]]],
                              ) -> dict[str, dict[str, list]]:
    """Per criterion, whether the judge's label is people's (their most common label, or the one rater's) on each
    (model, item) both labelled — 1 or 0 — for comparing nights item by item; ids <model>|<item>."""
    found: dict[str, dict[str, list]] = {}
    for name, labels in judge.items():
        rated = [by_criterion[name] for by_criterion in raters.values() if by_criterion.get(name)]
        ids, values = [], []
        for unit in sorted(labels):
            people = most_common_label([found_labels[unit] for found_labels in rated if unit in found_labels])
            if people is not None:
                ids.append(f"{unit[0]}|{unit[1]}")
                values.append(1.0 if labels[unit] == people else 0.0)
        if ids:
            found[name] = {"ids": ids, "values": values}
    return found



def judged_verdicts(rows_by_model: dict[str, Columns]) -> dict[str, dict[Unit, tuple[str | None, str | None]]]:
    """Criterion → (model, id) → the judge's label (its most common verdict; None when none parsed) and reason,
    from each model's B5J rows."""
    verdicts: dict[str, dict[Unit, tuple[str | None, str | None]]] = {}
    for model, rows in rows_by_model.items():
        for item, name, labels, reason in zip(rows["id"], rows["criterion"], rows["labels"], rows["reason"]):
            verdicts.setdefault(name, {})[(model, str(item))] = (most_common_label(labels), reason)
    return verdicts


def judge_labels(judged: dict[str, dict[Unit, tuple[str | None, str | None]]]) -> dict[str, dict[Unit, str]]:
    """Criterion → (model, id) → the judge's label, where it gave one (judged_verdicts without the reasons)."""
    return {name: {unit: label for unit, (label, _) in found.items() if label is not None}
            for name, found in judged.items()}


def agreement_with_raters(judged: dict[str, dict[Unit, tuple[str | None, str | None]]], labels_files: LabelsFiles,
                          scales: dict[str, str], models: set[str], questions: Columns,
                          ) -> tuple[dict[str, Any], dict[str, dict[str, dict[Unit, str]]], list[Reject]]:
    """The judge's verdicts (judged_verdicts) against every rater's labels (the labels files that are not
    preferences; see judge_agreement) on the dataset's `questions` (B1 columns: ids, and a dialogue's scene and
    dialogue_index), the raters' labels themselves and what was set aside reading them."""
    files = {rater: (path, data) for rater, (path, data) in labels_files.items() if not is_preference_file(data)}
    if not files or not judged:
        return {}, {}, []
    items = {str(item) for item in questions["id"]}
    dialogue_ids = ({(str(s), str(i)): str(item) for item, s, i in
                     zip(questions["id"], questions["scene"], questions["dialogue_index"])}
                    if "scene" in questions else None)
    raters, rejects = {}, []
    for rater, (path, data) in files.items():
        raters[rater], set_aside = read_rater_labels(data, str(path), scales, models, items, dialogue_ids)
        rejects += set_aside
    return judge_agreement(judge_labels(judged), raters, scales), raters, rejects
