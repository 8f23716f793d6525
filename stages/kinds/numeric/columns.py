"""Numeric answers on Arrow columns: each distinct gold and prediction text read once (numeric_answer), each distinct
(gold, prediction) reading compared once (score_numeric), results taken back to every row — row for row what the
per-row functions give."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.distinct import combined_codes, in_row_order, per_distinct_value, value_codes
from .scoring import MISSING, UNSCORABLE, numeric_answer, score_numeric

if TYPE_CHECKING:
    import pyarrow as pa

READING_COLUMNS = ("value", "unit", "rule", "text")
SCORE_COLUMNS = ("exact_match", "numeric_match", "numeric_similarity", "text_similarity", "overall", "label")
_TYPES = {"value": "float64", "unit": "string", "rule": "string", "text": "string", "exact_match": "bool",
          "numeric_match": "bool", "numeric_similarity": "float64", "text_similarity": "float64", "overall": "float64",
          "label": "string"}


def readings(texts: pa.Array, choice: str) -> dict[str, pa.Array]:
    """numeric_answer of every text once per distinct text: value, unit, rule (missing where the text is null) and
    normalized text (null where the text is)."""
    found, codes = per_distinct_value(lambda text: None if text is None else numeric_answer(text, choice), texts)
    read = [(None, None, MISSING, None) if r is None else (r[0].value, r[0].unit, r[0].rule, r[1]) for r in found]
    return {name: in_row_order([r[i] for r in read], codes, _TYPES[name]) for i, name in enumerate(READING_COLUMNS)}


def scores(table: pa.Table, tolerances: dict[str, Any]) -> dict[str, pa.Array]:
    """score_numeric per row that has a gold and a prediction, once per distinct (gold, prediction) reading; rows
    without gold are unscorable, rows without prediction missing (overall 0)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    sides = [table.column(name).combine_chunks() for name in ("gold_value", "gold_text", "predicted_value",
                                                              "predicted_text")]
    has_gold = table.column("has_gold").combine_chunks().to_numpy(zero_copy_only=False)
    answered = pc.is_valid(sides[3]).to_numpy(zero_copy_only=False)
    compared = np.flatnonzero(has_gold & answered)
    coded = [value_codes(column.take(pa.array(compared))) for column in sides]
    pairs, rows = combined_codes(*(codes for _, codes in coded))
    found = [score_numeric(*(values[code] for (values, _), code in zip(coded, pair)), **tolerances) for pair in pairs]
    columns = {}
    for name in SCORE_COLUMNS:
        computed, values = np.empty(len(found), object), np.full(len(has_gold), None, object)
        computed[:] = [r[name] for r in found]
        values[compared] = computed[rows]
        if name == "label":
            values[has_gold & ~answered] = MISSING
            values[~has_gold] = UNSCORABLE
        elif name == "overall":
            values[has_gold & ~answered] = 0.0
        columns[name] = pa.array(values.tolist(), _TYPES[name])
    return columns
