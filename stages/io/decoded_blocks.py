"""The fast path's tables where pyarrow.json cannot read a block whole (a field mixing types, as FEVER's evidence or
HotpotQA's supporting facts do): each line decoded as the per-row reader decodes it, then every field as one Arrow
column; and the fields a kind reads from one value each (FieldReaders), read on any table."""
from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import TYPE_CHECKING, Any

import orjson

from ..core.gc_pause import gc_paused

if TYPE_CHECKING:
    import pyarrow as pa

    from .jsonl_blocks import LineBlock

TYPE_PROBE_ROWS = 64  # a field's first values are typed alone first: when they infer no type, all of them are not
# tried (FEVER's all_evidence, numbers and page names in one list: 0.45 s per 1M rows to find that out on every value)
FieldReaders = dict[str, Callable[[Any], Any]]  # field → its value as the kind keeps it; ValueError / TypeError refuse


def decoded_table(block: LineBlock, readers: FieldReaders, types: dict[str, pa.DataType]) -> pa.Table | None:
    """The block's records decoded line by line as one table (records_table), or None when some line must go row by
    row."""
    with gc_paused():  # the records are freed before the collector is back on
        return _table_of(decoded_records(block), readers, types)


def _table_of(records: list[dict] | None, readers: FieldReaders, types: dict[str, pa.DataType]) -> pa.Table | None:
    return None if records is None else records_table(records, readers, types)


def decoded_records(block: LineBlock) -> list[dict] | None:
    """Every record of the block decoded as the per-row reader decodes it (orjson), or None when a line is blank,
    malformed, not a JSON object or may nest too deep (the per-row reader says why)."""
    if block.blank or block.deep:
        return None
    lines = block.data.split(b"\n")
    if not lines[-1]:
        lines.pop()
    try:
        records = list(map(orjson.loads, lines))
    except orjson.JSONDecodeError:
        return None
    if len(records) != block.records or not all(type(record) is dict for record in records):
        return None
    return records


def records_table(records: list[dict], readers: FieldReaders, types: dict[str, pa.DataType]) -> pa.Table | None:
    """The records as a table: each field a kind reads (`readers`, of `types`) as it reads it, every other field of the
    type its values infer, or of bytes when they infer none (no fast-path reader takes a bytes column: a row that
    needs one goes row by row); None when a reader refuses a value."""
    import pyarrow as pa

    columns: dict[str, pa.Array] = {}
    for name in dict.fromkeys(chain.from_iterable(records)):
        if name in readers:
            continue
        values = [record.get(name) for record in records]
        typed = _typed(values) if _typed(values[:TYPE_PROBE_ROWS]) is not None else None
        columns[name] = typed if typed is not None else pa.array([b""] * len(records), pa.binary())
    read = _read_fields([[record.get(name) for record in records] for name in readers], readers, types)
    return None if read is None or not (columns or read) else pa.table({**columns, **read})


def _typed(values: list[Any]) -> pa.Array | None:
    """The values as the Arrow array their types infer, or None when they infer none."""
    import pyarrow as pa

    try:
        return pa.array(values)
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        return None


def with_read_fields(table: pa.Table | None, readers: FieldReaders,
                     types: dict[str, pa.DataType]) -> pa.Table | None:
    """`table` (a Parquet or CSV file's) with each field a kind reads from its values as the per-row reader gets them;
    None when there is no table or a reader refuses a value."""
    if table is None or not readers:
        return table
    values = [table.column(name).to_pylist() if name in table.column_names else [None] * table.num_rows
              for name in readers]
    read = _read_fields(values, readers, types)
    if read is None:
        return None
    for name, column in read.items():
        table = (table.set_column(table.column_names.index(name), name, column) if name in table.column_names
                 else table.append_column(name, column))
    return table


def _read_fields(values: list[list[Any]], readers: FieldReaders,
                 types: dict[str, pa.DataType]) -> dict[str, pa.Array] | None:
    """Each reader over its field's values, as an array of its type; None when a reader refuses a value."""
    import pyarrow as pa

    try:
        return {name: pa.array(list(map(read, field)), types[name])
                for (name, read), field in zip(readers.items(), values)}
    except (ValueError, TypeError):
        return None
