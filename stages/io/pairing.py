"""How a dataset's rows pair: by id, or by position when neither the questions nor the predictions carry ids."""
from __future__ import annotations

from itertools import islice
from pathlib import Path

from ..core.records import Reject
from .fields import get_record_id
from .readers import iter_records

SAMPLED_RECORDS = 20


def has_ids(path: Path, sample: int = SAMPLED_RECORDS) -> bool:
    """True when any of the first `sample` readable records of `path` has an id (id, qid, question_id…, a CSV's blank
    first column, or a dialogue's scene and index); a file with no readable record counts as having ids, so its
    rows are set aside with their own reasons rather than paired by position."""
    records = [item[1] for item in islice(iter_records(path), sample)
               if not isinstance(item, Reject) and isinstance(item[1], dict)]
    return not records or any(get_record_id(record, None) is not None for record in records)


def pairs_by_position(questions: Path, predictions: list[Path]) -> bool:
    """True when neither the questions file nor any predictions file has ids: rows then pair by their position."""
    return not has_ids(questions) and not any(has_ids(path) for path in predictions)
