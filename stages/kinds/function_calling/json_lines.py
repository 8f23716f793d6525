"""BFCL's `.json` files, which hold one JSON object per line, read record by record (kept apart from the kind so that
kind detection reads them without importing it)."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ...core.records import Reject
from ...io.readers import Record, decode_jsonl_line, iter_records
from ...io.storage import open_binary


def read_records(path: Path) -> Iterator[Record | Reject]:
    """A data or result file's records: BFCL's `.json` files hold one JSON object per line."""
    if path.suffix.lower() != ".json" or not _json_lines(path):
        yield from iter_records(path)
        return
    with open_binary(path) as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                yield decode_jsonl_line(str(path), number, raw)


def _json_lines(path: Path) -> bool:
    """A `.json` file whose first two lines are each a whole JSON object (BFCL writes JSON lines under that name), or
    whose one line is a record with an `id` (a result file of one item); a one-line JSON document otherwise is not."""
    with open_binary(path) as handle:
        first, second = handle.readline(), handle.readline()
    try:
        record = json.loads(first)
        if not second.strip():
            return isinstance(record, dict) and "id" in record
        return isinstance(record, dict) and isinstance(json.loads(second), dict)
    except (ValueError, RecursionError):  # the usual reader then sets the unreadable row aside with its line
        return False
