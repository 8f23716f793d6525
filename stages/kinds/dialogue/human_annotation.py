"""Seed 003's human-annotation CSV (UTF-8 with BOM, formula-safe) and the agreement of filled-in labels with the
automatic metrics."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ...core.records import Columns, Reject

CSV_COLUMNS = ("scene", "dialogue_index", "context", "expected_response", "prediction", "exact_match",
               "content_correct", "style_consistent", "notes", "model")
HUMAN_LABELS = ("content_correct", "style_consistent")
AGREEMENT_METRICS = ("exact_match", "fuzzy_match", "edit_distance", "sentence_bert", "keyword_similarity",
                     "combined_score")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_TRUE = {"1", "1.0", "true", "yes", "y", "t", "是", "对", "正确", "✓", "√", "ok"}
_FALSE = {"0", "0.0", "false", "no", "n", "f", "否", "错", "错误", "不对", "✗", "×", "x"}


def neutralize_formula(value: Any) -> str:
    """The cell as text, with a leading apostrophe when a spreadsheet would run it as a formula (= + - @ tab CR)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def annotation_csv(rows_by_model: dict[str, Columns]) -> bytes:
    """One row per model × test case, with empty columns for the raters; a missing answer is noted."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for model, columns in rows_by_model.items():
        for i in range(len(columns["id"])):
            prediction = columns["prediction"][i]
            notes = "evalpipe: no prediction (missing or failed)" if prediction is None else ""
            values = (columns["scene"][i], columns["dialogue_index"][i], columns["context"][i],
                      columns["expected"][i], prediction, columns["exact_match"][i], "", "", notes, model)
            writer.writerow([neutralize_formula(v) for v in values])
    return buffer.getvalue().encode("utf-8-sig")


def strip_formula_guard(text: str) -> str:
    """The cell as written before neutralize_formula guarded it."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_FORMULA_STARTS) else text


def parse_human_label(text: str) -> bool | None:
    """True / False from what raters type (1/0, yes/no, 是/否, 对/错, ✓/✗ …); None when blank; ValueError otherwise."""
    value = text.strip().lower()
    if not value:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"cannot read {text!r} as a yes/no label")


def read_annotation_csv(path: Path) -> tuple[list[dict[str, Any]], list[Reject]]:
    """Rows with at least one label filled in, keyed by model / scene / dialogue_index; unreadable rows set aside."""
    text = path.read_bytes().decode("utf-8-sig", errors="replace")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in ("scene", "dialogue_index", "model", *HUMAN_LABELS) if c not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
    rows, rejects = [], []
    for row in reader:
        line = reader.line_num
        try:
            labels = {name: parse_human_label(row[name] or "") for name in HUMAN_LABELS}
        except ValueError as exc:
            rejects.append(Reject(str(path), line, str(exc)))
            continue
        if all(v is None for v in labels.values()):
            continue
        key = tuple(strip_formula_guard(row[c] or "") for c in ("model", "scene", "dialogue_index"))
        rows.append({"line": line, "model": key[0], "scene": key[1], "dialogue_index": key[2], **labels})
    return rows, rejects


def roc_auc(labels: list[bool], scores: list[float]) -> float | None:
    """Probability that a random positive scores above a random negative (ties count half); None with one class."""
    from scipy.stats import rankdata
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return None
    ranks = rankdata(scores)
    return float((sum(r for r, y in zip(ranks, labels) if y) - positives * (positives + 1) / 2) / (positives * negatives))


def best_threshold(labels: list[bool], scores: list[float]) -> dict[str, Any] | None:
    """The score threshold t (label = score ≥ t) that agrees with the most human labels; the lowest such t."""
    if not labels:
        return None
    best = None
    for threshold in sorted(set(scores)):
        agree = sum((score >= threshold) == label for score, label in zip(scores, labels))
        if best is None or agree > best["agreeing"]:
            best = {"threshold": threshold, "agreeing": agree, "accuracy": agree / len(labels)}
    return best


def agreement(pairs: list[tuple[bool, dict[str, float | None]]]) -> dict[str, Any]:
    """For one human label: n, and per automatic metric the Spearman correlation and ROC AUC; plus the
    combined_score threshold that best reproduces the label."""
    from scipy.stats import spearmanr
    result: dict[str, Any] = {"labelled": len(pairs), "positive": sum(label for label, _ in pairs), "metrics": {}}
    for metric in AGREEMENT_METRICS:
        points = [(label, scores[metric]) for label, scores in pairs if scores.get(metric) is not None]
        labels, values = [p[0] for p in points], [p[1] for p in points]
        rho = None
        if len(set(labels)) > 1 and len(set(values)) > 1:
            rho = float(spearmanr(labels, values).statistic)
        result["metrics"][metric] = {"n": len(points), "spearman": rho, "roc_auc": roc_auc(labels, values)}
    combined = [(label, scores["combined_score"]) for label, scores in pairs if scores.get("combined_score") is not None]
    result["combined_score_threshold"] = best_threshold([c[0] for c in combined], [c[1] for c in combined])
    return result
