"""CSV headers as published: pandas' blank-named index column is the id, and known field names match in any case."""
from __future__ import annotations

import string

from .fields import GOLD_FIELDS_ENGLISH, ID_FIELDS, PREDICTION_FIELDS, QUESTION_FIELDS

OPTION_COLUMNS = tuple(string.ascii_uppercase[:10])
KNOWN_FIELDS = (*ID_FIELDS, *QUESTION_FIELDS, *GOLD_FIELDS_ENGLISH, *PREDICTION_FIELDS, *OPTION_COLUMNS,
                "options", "choices", "confidence", "scene", "dialogue_index")
_CANONICAL = {name.casefold(): name for name in KNOWN_FIELDS}


def canonical_csv_header(names: list[str]) -> list[str]:
    """The header with each name that a known field matches case-insensitively spelt as that field (`Question` →
    `question`, `a` → `A`) unless the field is there already, and a blank first name read as `id` when no other
    column is an id."""
    present = set(names)
    targets = [_CANONICAL.get(name.casefold()) for name in names]
    claimed = [target for target in targets if target is not None and target not in present]
    header = [
        target if target is not None and target not in present and claimed.count(target) == 1 else name
        for name, target in zip(names, targets)
    ]
    if header and header[0] == "" and "id" not in header and not any(name in ID_FIELDS for name in header):
        header[0] = "id"
    return header

