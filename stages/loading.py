"""B1/B2 loading: questions with their gold answers, and one model's predictions, as column tables."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .fields import (
    LINE_ID,
    PREDICTION_FIELDS,
    QUESTION_FIELDS,
    get_ground_truth_answer,
    get_record_id,
    gold_answer_texts,
    is_missing,
    resolve_field,
)
from .readers import iter_records
from .records import LoadResult, Reject
from .registry import Kind


def load_questions(path: Path, kind: Kind, fields: dict[str, str | None]) -> LoadResult:
    """Questions with their gold answers; rows without id or gold, duplicates and unreadable rows are set aside."""
    result = LoadResult(columns={"id": [], "line": [], "question": [], "golds": []})
    extras: list[dict[str, Any]] = []
    first_line: dict[str, int | None] = {}
    for position, item in enumerate(iter_records(path), start=1):
        result.input_rows += 1
        if isinstance(item, Reject):
            result.rejects.append(item)
            continue
        line, record, location = item
        reason, row = _question_row(record, line, position, kind, fields)
        if reason is None and row["id"] in first_line:
            reason = f"duplicate id {row['id']!r} (first seen at line {first_line[row['id']]})"
        if reason is not None:
            result.rejects.append(Reject(str(path), line, reason, location))
            continue
        first_line[row["id"]] = line
        for name in ("id", "line", "question", "golds"):
            result.columns[name].append(row[name])
        extras.append(row["extra"])
    for name in dict.fromkeys(name for extra in extras for name in extra):
        result.columns[name] = [extra.get(name) for extra in extras]
    return result


def _question_row(
    record: Any, line: int | None, position: int, kind: Kind, fields: dict[str, str | None]
) -> tuple[str | None, dict]:
    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}", {}
    row_id = get_record_id(record, position if fields.get("id_field") == LINE_ID else line, fields.get("id_field"))
    if row_id is None:
        return f"no id (field {fields.get('id_field') or 'id'!r} missing or empty)", {}
    gold_field = fields.get("gold_field")
    gold_value = resolve_field(record, gold_field, ()) if gold_field else get_ground_truth_answer(record)
    golds = gold_answer_texts(gold_value)
    question = resolve_field(record, fields.get("question_field"), QUESTION_FIELDS)
    question = None if is_missing(question) else str(question)
    try:
        extra = kind.question_fields(record, question)
    except (TypeError, ValueError) as exc:
        return f"wrong type: {exc}", {}
    problem = kind.check_gold(golds, extra)
    if problem is not None:
        return problem, {}
    return None, {
        "id": row_id,
        "line": line,
        "question": question,
        "golds": golds,
        "extra": extra,
    }


def load_predictions(path: Path, fields: dict[str, str | None]) -> LoadResult:
    """One model's predictions; rows without id or prediction, non-text predictions and duplicates are set aside."""
    result = LoadResult(columns={"id": [], "line": [], "prediction": [], "confidence": []})
    first_line: dict[str, int | None] = {}
    field = fields.get("prediction_field")
    for position, item in enumerate(iter_records(path), start=1):
        result.input_rows += 1
        if isinstance(item, Reject):
            result.rejects.append(item)
            continue
        line, record, location = item
        reason, row_id, prediction = _prediction_row(record, line, position, fields, field)
        confidence = record.get("confidence") if isinstance(record, dict) else None
        if reason is None and confidence is not None and not _is_probability(confidence):
            reason = f"wrong type: confidence {confidence!r} is not a number between 0 and 1"
        if reason is None and row_id in first_line:
            reason = f"duplicate id {row_id!r} (first seen at line {first_line[row_id]})"
        if reason is not None:
            result.rejects.append(Reject(str(path), line, reason, location))
            continue
        first_line[row_id] = line
        result.columns["id"].append(row_id)
        result.columns["line"].append(line)
        result.columns["prediction"].append(prediction)
        result.columns["confidence"].append(None if confidence is None else float(confidence))
    return result


def _is_probability(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return False
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0


def _prediction_row(
    record: Any, line: int | None, position: int, fields: dict[str, str | None], field: str | None
) -> tuple[str | None, str | None, str | None]:
    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}", None, None
    row_id = get_record_id(record, position if fields.get("id_field") == LINE_ID else line, fields.get("id_field"))
    if row_id is None:
        return f"no id (field {fields.get('id_field') or 'id'!r} missing or empty)", None, None
    names = (field,) if field else PREDICTION_FIELDS
    present = [name for name in names if record.get(name) is not None]
    if not present:
        return f"no prediction (looked for {', '.join(names)})", row_id, None
    value = record[present[0]]
    if isinstance(value, (dict, list)):
        return f"wrong type: prediction {present[0]!r} is a {type(value).__name__}, expected text", row_id, None
    if isinstance(value, float) and value != value:
        return f"no prediction ({present[0]!r} is NaN)", row_id, None
    return None, row_id, str(value)
