"""The annotation sheet (seed 003's human-annotation CSV, UTF-8 with BOM, formula-safe): written with empty columns
for the raters, read back with their yes / no labels."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ..core.records import Columns, Reject

CSV_COLUMNS = ("scene", "dialogue_index", "context", "expected_response", "prediction", "exact_match",
               "content_correct", "style_consistent", "notes", "model")
HUMAN_LABELS = ("content_correct", "style_consistent")
ANNOTATION_CSV = "B6_human_annotation.csv"  # the sheet's name beside the dialogue report
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
