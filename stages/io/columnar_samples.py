"""B2's Arrow path for several replies per item: records holding a list of replies become one row per reply (the
record's id, line, confidence and kind fields repeated, its sample number the reply's place in the list), and
records with a sample number (or, numbering repeated ids, none) one row each — on whole columns, without a Python
object per reply. It takes a file only when every record is accepted exactly as load_samples would accept it and no
(id, sample) repeats; anything else returns None and the file goes record by record."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.progress import track
from ..core.records import LoadResult
from ..core.threads import map_ahead
from .columnar_loading import block_table, parquet_table, prediction_rows
from .decoded_blocks import FieldReaders, with_read_fields
from .fields import name_ignoring_case
from .jsonl_blocks import LineBlock, iter_line_blocks
from .samples import SAMPLE_FIELD, SAMPLES_FIELD

if TYPE_CHECKING:
    import pyarrow as pa


def load_samples_columnar(path: Path, fields: dict[str, str | None], rows: range | None,
                          kind_types: dict[str, pa.DataType], readers: FieldReaders,
                          number_repeats: bool = False) -> LoadResult | None:
    """A JSON-lines or Parquet file of samples (at `rows` positions, or all) as load_samples' table, or None when
    some record must go record by record (a reply or record to set aside, a repeated (id, sample), another format)."""
    import pyarrow as pa

    read = partial(samples_rows, fields=fields, kind_types=kind_types, number_repeats=number_repeats)
    suffix, tables, records = path.suffix.lower(), [], 0
    if suffix == ".jsonl":
        block = partial(_samples_block, read=read, readers=readers, kind_types=kind_types)
        for found, table in map_ahead(block, track(iter_line_blocks(path, rows), f"reading {path.name}")):
            if table is None:
                return None
            tables.append(table)
            records += found.records
    elif suffix == ".parquet":
        whole = parquet_table(path)
        if whole is None:
            return None
        first = 0 if rows is None else min(rows.start, whole.num_rows)
        whole = with_read_fields(whole.slice(first, whole.num_rows if rows is None else len(rows)), readers,
                                 kind_types)
        table = None if whole is None else read(whole, first_line=first + 1, first_position=first)
        if table is None:
            return None
        tables, records = [table], whole.num_rows
    else:
        return None
    table = pa.concat_tables(tables).unify_dictionaries() if tables else None
    table = None if table is None else _numbered(table)
    return None if table is None else LoadResult(columns=table, input_rows=records)


def _samples_block(block: LineBlock, read: partial, readers: FieldReaders,
                   kind_types: dict[str, pa.DataType]) -> pa.Table | None:
    table = block_table(block, readers, kind_types)
    return None if table is None else read(table, first_line=block.first_line, first_position=block.first_position)


def samples_rows(table: pa.Table, fields: dict[str, str | None], first_line: int, first_position: int,
                 kind_types: dict[str, pa.DataType], number_repeats: bool = False) -> pa.Table | None:
    """Records (their first on `first_line`, at 0-based position `first_position`) as one row per reply: B2's
    columns and `sample` (null where repeated ids are numbered over the whole file); None when a record must go
    record by record."""
    key = name_ignoring_case(table.column_names, fields.get("samples_field") or SAMPLES_FIELD)
    if key is not None:
        return _listed_replies(table, key, fields, first_line, first_position, kind_types)
    import numpy as np
    import pyarrow as pa

    rows = prediction_rows(table, fields, first_line, first_position, kind_types)
    if rows is None:
        return None
    if SAMPLE_FIELD not in table.column_names:
        sample = pa.nulls(table.num_rows, pa.int64()) if number_repeats else pa.array(np.zeros(table.num_rows,
                                                                                                 np.int64))
        return rows.append_column(SAMPLE_FIELD, sample)
    sample = table.column(SAMPLE_FIELD).combine_chunks()
    if not pa.types.is_integer(sample.type) or sample.null_count:
        return None  # text, nulls, a record without a number beside one with: record by record
    sample = sample.cast(pa.int64())
    return rows.append_column(SAMPLE_FIELD, sample) if len(sample) == 0 or sample.to_numpy().min() >= 0 else None


def _listed_replies(table: pa.Table, key: str, fields: dict[str, str | None], first_line: int, first_position: int,
                    kind_types: dict[str, pa.DataType]) -> pa.Table | None:
    """Each record's list of replies (column `key`) as rows: the reply as the prediction (in the field it is read
    from, so no other field of the record can stand in for it), sample 0, 1, … in list order."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = table.column(key).combine_chunks()
    target = fields.get("prediction_field") or "prediction"
    if not (pa.types.is_list(replies.type) or pa.types.is_large_list(replies.type)) or replies.null_count \
            or "." in target:
        return None
    texts = pc.list_flatten(replies)
    lengths = pc.list_value_length(replies).to_numpy()
    if not (pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type)) or texts.null_count \
            or (lengths == 0).any():
        return None
    records = table.drop_columns([name for name in (key, target) if name in table.column_names])
    records = records.append_column(target, pa.array(np.full(table.num_rows, ""), pa.string()))
    rows = prediction_rows(records, fields, first_line, first_position, kind_types)
    if rows is None:
        return None
    rows = rows.take(pc.list_parent_indices(replies))
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    rows = rows.set_column(rows.column_names.index("prediction"), "prediction", texts.cast(pa.string()))
    return rows.append_column(SAMPLE_FIELD, pa.array(np.arange(len(texts)) - starts, pa.int64()))


def _numbered(table: pa.Table) -> pa.Table | None:
    """The table with null samples (every one or none) numbered as their id's 0, 1, … in file order, or None when
    some (id, sample) repeats (record by record then names each with the line it first came on)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    ids = pc.dictionary_encode(table.column("id").combine_chunks()).indices.to_numpy().astype(np.int64)
    sample = table.column(SAMPLE_FIELD).combine_chunks()
    if sample.null_count == len(sample):
        order = np.argsort(ids, kind="stable")
        starts = np.r_[0, np.flatnonzero(np.diff(ids[order])) + 1]
        rank = np.empty(len(ids), np.int64)
        rank[order] = np.arange(len(ids)) - np.repeat(starts, np.diff(np.r_[starts, len(ids)]))
        return table.set_column(table.column_names.index(SAMPLE_FIELD), SAMPLE_FIELD, pa.array(rank))
    if sample.null_count:
        return None  # numbered and unnumbered records in one file: record by record
    numbers = sample.to_numpy()
    if numbers.max(initial=0) >= 1 << 31:
        return None
    pairs = np.sort(ids * (int(numbers.max(initial=0)) + 1) + numbers)  # (np.unique is many times slower)
    return None if (pairs[1:] == pairs[:-1]).any() else table
