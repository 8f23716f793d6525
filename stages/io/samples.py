"""Several replies per item: a prediction record holding a list of replies (`samples`, or the field named by
samples_field) or the same id on several records with a `sample` number (0 … n−1). B2 keys such rows by (id, sample)
and sets aside a true duplicate — the same id and sample twice — with its line."""
from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.records import LoadResult, Reject
from .columnar_loading import prediction_schema
from .fields import name_ignoring_case
from .readers import iter_records, readable_records
from .storage import open_binary

if TYPE_CHECKING:
    from collections.abc import Callable

    import pyarrow as pa

SAMPLES_FIELD, SAMPLE_FIELD = "samples", "sample"
LOOK_AHEAD = 100  # records read to tell whether a file holds samples


def samples_key(record: Any, fields: dict[str, str | None]) -> str | None:
    """The record's field holding a list of replies (samples_field, else `samples`), when it has one."""
    if not isinstance(record, dict):
        return None
    key = name_ignoring_case(record, fields.get("samples_field") or SAMPLES_FIELD)
    return key if key is not None and isinstance(record[key], list) else None


def holds_samples(path: Path, fields: dict[str, str | None]) -> bool:
    """Whether the predictions hold several replies per item: samples_field is set, or one of the first records has
    a list of replies or a sample number."""
    if fields.get("samples_field"):
        return True
    if path.suffix.lower() == ".parquet":  # its columns say it, without reading its rows
        import pyarrow.parquet as pq

        try:
            with open_binary(path) as handle:
                names = {name: None for name in pq.read_schema(handle).names}
        except Exception:  # noqa: BLE001  (a broken file: the loader sets it aside with its reason)
            return False
        return name_ignoring_case(names, SAMPLES_FIELD) is not None or SAMPLE_FIELD in names
    for item in islice(iter_records(path), LOOK_AHEAD):
        if isinstance(item, Reject):
            continue
        record = item[1]
        if samples_key(record, fields) is not None or (isinstance(record, dict) and SAMPLE_FIELD in record):
            return True
    return False


def ids_repeat(path: Path, read_id: Callable[[Any, int | None, int], Any]) -> bool:
    """Whether some id is on two records of the file (HumanEval's sample files: one record per sample)."""
    seen = set()
    for position, item in enumerate(iter_records(path), start=1):
        if isinstance(item, Reject):
            continue
        row_id = read_id(item[1], item[0], position)
        if row_id is not None and row_id in seen:
            return True
        seen.add(row_id)
    return False


def load_samples(path: Path, fields: dict[str, str | None], rows: range | None, kind_types: dict[str, pa.DataType],
                 read_reply: Callable[[Any, int | None, int], tuple[str | None, tuple]],
                 number_repeats: bool = False) -> LoadResult:
    """One row per (id, sample), each reply read by `read_reply` (the per-row prediction reader) as its own record;
    a reply it refuses, a wrong sample number and a repeated (id, sample) are set aside with the line. With
    `number_repeats`, records without a sample number are their id's samples 0, 1, … in file order."""
    import pyarrow as pa

    result, source = LoadResult(columns={}), str(path)
    first_line: dict[tuple[str, int], int | None] = {}
    columns: dict[str, list] = {name: [] for name in ("id", "line", "prediction", "confidence", "sample")}
    extras: list[dict[str, Any]] = []
    repeats: dict[str, int] = {}
    start = 1 + (rows.start if rows is not None else 0)
    for position, line, record, location in readable_records(enumerate(iter_records(path, rows), start=start), result):
        replies, reason = _replies(record, fields)
        if reason is not None:
            result.rejects.append(Reject(source, line, reason, location))
            continue
        numbered = not number_repeats or samples_key(record, fields) is not None or SAMPLE_FIELD in record
        for sample, reply_record in replies:
            why, row = read_reply(reply_record, line, position)
            if why is None and not numbered:
                sample = repeats[row[0]] = repeats.get(row[0], -1) + 1
            if why is None and (row[0], sample) in first_line:
                why = f"duplicate sample {sample} of id {row[0]!r} (first seen at line {first_line[(row[0], sample)]})"
            if why is not None:
                result.rejects.append(Reject(source, line, f"sample {sample}: {why}", location))
                continue
            first_line[(row[0], sample)] = line
            for name, value in zip(("id", "prediction", "confidence"), row[:3]):
                columns[name].append(value)
            columns["line"].append(line)
            columns["sample"].append(sample)
            extras.append(row[3])
    schema = prediction_schema(kind_types).append(pa.field("sample", pa.int64()))
    for name in kind_types:
        columns[name] = [extra.get(name) for extra in extras]
    result.columns = pa.table({name: columns[name] for name in schema.names}, schema=schema)
    return result


def _replies(record: Any, fields: dict[str, str | None]) -> tuple[list[tuple[int, dict]], str | None]:
    """(sample number, the record with that one reply as its prediction) for each reply the record holds, or why
    it holds none: a list of replies numbered from 0, or one reply with its sample number (0 when absent)."""
    if not isinstance(record, dict):
        return [], f"expected a JSON object, got {type(record).__name__}"
    key = samples_key(record, fields)
    if key is not None:
        target = fields.get("prediction_field") or "prediction"
        if not record[key]:
            return [], f"no replies ({key!r} is an empty list)"
        rest = {name: value for name, value in record.items() if name != key}
        return [(sample, {**rest, target: reply}) for sample, reply in enumerate(record[key])], None
    sample = record.get(SAMPLE_FIELD, 0)
    if isinstance(sample, str) and sample.strip().isdigit():
        sample = int(sample)
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
        return [], f"wrong type: sample {sample!r} is not a whole number from 0"
    return [(sample, record)], None
