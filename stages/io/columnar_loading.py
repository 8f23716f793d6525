"""B1/B2 fast path: a JSON-lines block parsed by pyarrow.json (or decoded line by line where pyarrow.json cannot
read it whole, or a whole Parquet or plain CSV file), its fields resolved and checked on whole columns. It only takes
records it can read exactly as the per-row loader would and where every row is accepted; anything else (a malformed
line, mixed types, nested or odd gold forms, a row to set aside) returns None and goes row by row."""
from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.arrow_strings import blank_strings, is_utf8, offsets_of
from .csv_header import canonical_csv_header
from .decoded_blocks import FieldReaders, decoded_table
from .fields import (
    GOLD_FIELDS_ENGLISH,
    GOLD_FIELDS_ROOT,
    ID_FIELDS,
    LINE_ID,
    PREDICTION_FIELDS,
    QUESTION_FIELDS,
    name_ignoring_case,
)
from .jsonl_blocks import LineBlock, depth_checked, without_bom
from .quoted_numbers import QuotedFields, quoted_table
from .storage import open_binary, read_input_bytes

if TYPE_CHECKING:
    from pathlib import Path

    import pyarrow as pa
    from upath import UPath


KindColumns = Callable[["pa.Table", "pa.Array", "pa.Array"], "dict[str, pa.Array] | None"]


def question_schema(kind_types: dict[str, pa.DataType] | None = None) -> pa.Schema:
    """B1's columns on the fast path (and for the per-row blocks beside it), then the kind's own (`kind_types`)."""
    import pyarrow as pa

    return pa.schema([("id", pa.string()), ("line", pa.int64()), ("question", pa.string()),
                      ("golds", pa.list_(pa.string())), *(kind_types or {}).items()])


def prediction_schema(kind_types: dict[str, pa.DataType] | None = None) -> pa.Schema:
    """B2's columns on the fast path (and for the per-row blocks beside it), then the kind's own (`kind_types`)."""
    import pyarrow as pa

    return pa.schema([("id", pa.string()), ("line", pa.int64()), ("prediction", pa.string()),
                      ("confidence", pa.float64()), *(kind_types or {}).items()])


def parse_block(block: LineBlock) -> pa.Table | None:
    """The block's records as an Arrow table, or None when pyarrow.json cannot read every line as an object."""
    import pyarrow.json as pj

    if block.blank or block.deep:
        return None
    if not (block.data.isascii() or is_utf8(block.data)):
        return None  # pyarrow.json does not check UTF-8: a bad byte must be a reject with its line
    try:
        table = pj.read_json(io.BytesIO(block.data))
    except ValueError:  # ArrowInvalid: a line the per-row reader must explain
        return None
    return table if table.num_rows == block.records else None


def parquet_table(path: Path | UPath) -> pa.Table | None:
    """A Parquet file's records as an Arrow table (record n on "line" n), or None when it cannot be read."""
    import pyarrow.parquet as pq

    try:
        with open_binary(path) as handle:
            return pq.read_table(handle)
    except Exception:  # noqa: BLE001  (the per-row reader turns a broken file into one reject)
        return None


def csv_table(path: Path | UPath) -> pa.Table | None:
    """A CSV file's rows as an Arrow table of text (row n on line n + 1), or None unless csv.reader would read it the
    same way line for line: no quote character, carriage return, NUL or blank line, one header of distinct names,
    valid UTF-8 and the same number of fields on every line."""
    import pyarrow as pa
    import pyarrow.csv as pv

    data = without_bom(read_input_bytes(path))
    if not data or any(mark in data for mark in (b'"', b"\r", b"\x00", b"\n\n")) or data.startswith(b"\n"):
        return None
    try:
        names = canonical_csv_header([name.strip() for name in data.split(b"\n", 1)[0].decode("utf-8").split(",")])
        if len(set(names)) != len(names):
            return None
        return pv.read_csv(
            io.BytesIO(data),
            read_options=pv.ReadOptions(column_names=names, skip_rows=1),
            parse_options=pv.ParseOptions(quote_char=False, double_quote=False, newlines_in_values=False,
                                          ignore_empty_lines=False),
            convert_options=pv.ConvertOptions(column_types={name: pa.string() for name in names},
                                              strings_can_be_null=False, quoted_strings_can_be_null=False))
    except ValueError:  # UnicodeDecodeError, or ArrowInvalid: a line with another number of fields
        return None


def _column(table: pa.Table, name: str | None) -> pa.Array | None:
    """A top-level column as one array (large strings as strings); None when absent or when the name is a dotted path."""
    import pyarrow as pa

    if not name or "." in name or name not in table.column_names:
        return None
    column = table.column(name).combine_chunks()
    return column.cast(pa.string()) if pa.types.is_large_string(column.type) else column


def _missing(array: pa.Array) -> pa.Array | None:
    """Python's is_missing on every value, or None for a type the fast path does not read."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type
    if pa.types.is_null(kind):
        return pa.array([True] * len(array))
    if pa.types.is_string(kind):
        return blank_strings(array)
    if pa.types.is_list(kind):
        return pc.fill_null(pc.equal(pc.list_value_length(array), 0), True)
    if pa.types.is_integer(kind):
        return pc.is_null(array)
    return None


def _first_present(table: pa.Table, names: tuple[str, ...]) -> pa.Array | None:
    """Per row, the first of `names` that is not missing, as text (null where none is); None when a candidate is not
    text, whole numbers or nulls (types whose str() the fast path does not render)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    result = pa.nulls(table.num_rows, pa.string())
    for name in names:
        column = _column(table, name)
        if column is None:
            continue
        missing = _missing(column)
        if missing is None or pa.types.is_list(column.type):
            return None
        if pa.types.is_null(column.type):
            continue
        text = column.cast(pa.string())
        result = pc.if_else(pc.and_(pc.is_null(result), pc.invert(missing)), text, result)
    return result


def _record_ids(table: pa.Table, fields: dict[str, str | None], first_position: int) -> pa.Array | None:
    """Every row's id as text (with '@line', the record's 1-based position, the first's 0-based being
    `first_position`), or None when some row has none (or one the fast path would not render)."""
    import numpy as np
    import pyarrow as pa

    field = fields.get("id_field")
    if field == LINE_ID:
        return pa.array(np.arange(first_position + 1, first_position + 1 + table.num_rows)).cast(pa.string())
    if field and "." in field:
        return None
    ids = _first_present(table, (field,) if field else ID_FIELDS)
    return None if ids is None or ids.null_count else ids


def _gold_texts(table: pa.Table, fields: dict[str, str | None]) -> pa.Array | None:
    """Every row's gold answers as list<string>, when each row's gold is in one column holding text, a list of it, or
    a list of SQuAD {text} objects, and every row keeps an answer once blank texts are dropped; else None."""
    gold_field = fields.get("gold_field")
    if gold_field:
        names: tuple[str, ...] = (gold_field,)
    elif "original_row" in table.column_names and table.column("original_row").null_count < table.num_rows:
        return None
    else:
        names = GOLD_FIELDS_ROOT + GOLD_FIELDS_ENGLISH
    for name in names:
        column = _column(table, name)
        if column is None and gold_field:
            return None
        if column is None:
            continue
        missing = _missing(column)
        if missing is None:
            return None
        missing_rows = missing.true_count
        if missing_rows == len(column) and not gold_field:
            continue
        return _as_text_lists(column) if missing_rows == 0 else None
    return None


def _as_text_lists(column: pa.Array) -> pa.Array | None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_string(column.type):
        return pa.ListArray.from_arrays(pa.array(np.arange(len(column) + 1, dtype=np.int32)), column)
    if not pa.types.is_list(column.type):
        return None
    items = pc.list_flatten(column)
    if pa.types.is_struct(items.type) and items.type.get_field_index("text") >= 0 and not items.null_count:
        items = pc.struct_field(items, "text")
    if not pa.types.is_string(items.type) or items.null_count:
        return None
    kept = pc.invert(blank_strings(items)).to_numpy(zero_copy_only=False)
    lengths = np.bincount(pc.list_parent_indices(column).to_numpy()[kept], minlength=len(column))
    if not lengths.all():
        return None
    return pa.ListArray.from_arrays(offsets_of(lengths), items.filter(kept))


def _line_numbers(first_line: int, count: int) -> pa.Array:
    import numpy as np
    import pyarrow as pa

    return pa.array(np.arange(first_line, first_line + count, dtype=np.int64))


def block_table(block: LineBlock, readers: FieldReaders | None = None,
                kind_types: dict[str, pa.DataType] | None = None, quoted: QuotedFields | None = None) -> pa.Table | None:
    """A block's records as one table: parsed by pyarrow.json (with the integers of the kind's `quoted` fields quoted,
    which then read what `readers` read), else decoded line by line (so when a kind reads fields from each value,
    `readers`, which then hold what they read, and `quoted` cannot); None when some line must go row by row."""
    block = depth_checked(block)
    table = quoted_table(block, quoted, frozenset(readers or {}), kind_types or {}) if quoted else None
    if table is None and not readers:
        table = parse_block(block)
    return decoded_table(block, readers or {}, kind_types or {}) if table is None else table


def question_block(block: LineBlock, fields: dict[str, str | None], kind_columns: KindColumns | None = None,
                   kind_types: dict[str, pa.DataType] | None = None,
                   readers: FieldReaders | None = None, quoted: QuotedFields | None = None) -> pa.Table | None:
    """A block of question records as (id, line, question, golds, the kind's columns), or None when it must go row
    by row."""
    table = block_table(block, readers, kind_types, quoted)
    return None if table is None else question_rows(table, fields, block.first_line, block.first_position,
                                                    kind_columns, kind_types)


def prediction_block(block: LineBlock, fields: dict[str, str | None],
                     kind_types: dict[str, pa.DataType] | None = None,
                     readers: FieldReaders | None = None, quoted: QuotedFields | None = None) -> pa.Table | None:
    """A block of prediction records as (id, line, prediction, confidence, the kind's columns), or None when it must
    go row by row."""
    table = block_table(block, readers, kind_types, quoted)
    return None if table is None else prediction_rows(table, fields, block.first_line, block.first_position,
                                                      kind_types)


def _configured_columns(table: pa.Table, fields: dict[str, str | None]) -> dict[str, str | None]:
    """The configured fields as the table's column names (a field matches a column in any case, as per row)."""
    names = table.column_names
    return {key: (name_ignoring_case(names, value) or value) if value and "." not in value else value
            for key, value in fields.items()}


def question_rows(table: pa.Table, fields: dict[str, str | None], first_line: int, first_position: int = 0,
                  kind_columns: KindColumns | None = None,
                  kind_types: dict[str, pa.DataType] | None = None) -> pa.Table | None:
    """Question records (their first at `first_line` and 0-based record position `first_position`) as (id, line,
    question, golds), then the kind's columns (of `kind_types`): those `kind_columns(table, question, golds)` gives,
    the others as the table holds them (fields the kind reads from each value); None when they must go row by row
    (the kind's function says so with None)."""
    import pyarrow as pa

    fields = _configured_columns(table, fields)
    question_field = fields.get("question_field")
    if question_field and "." in question_field:
        return None
    ids, golds = _record_ids(table, fields, first_position), _gold_texts(table, fields)
    question = _first_present(table, (question_field,) if question_field else QUESTION_FIELDS)
    if ids is None or golds is None or question is None:
        return None
    extra = kind_columns(table, question, golds) if kind_columns is not None else {}
    if extra is None:
        return None
    schema = question_schema(kind_types)
    return pa.table([ids, _line_numbers(first_line, table.num_rows), question, golds,
                     *(extra[name] if name in extra else table.column(name) for name in schema.names[4:])],
                    schema=schema)


def prediction_rows(table: pa.Table, fields: dict[str, str | None], first_line: int, first_position: int = 0,
                    kind_types: dict[str, pa.DataType] | None = None) -> pa.Table | None:
    """Prediction records (their first at `first_line` and 0-based record position `first_position`) as (id, line,
    prediction, confidence), then the kind's columns (`kind_types`, fields it read from each value) as the table
    holds them; None when they must go row by row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    fields = _configured_columns(table, fields)
    ids = _record_ids(table, fields, first_position)
    field = fields.get("prediction_field")
    prediction = pa.nulls(table.num_rows, pa.string())
    for name in (field,) if field else PREDICTION_FIELDS:
        column = _column(table, name)
        if column is None and field:
            return None
        if column is None or pa.types.is_null(column.type):
            continue
        if not pa.types.is_string(column.type):
            return None
        prediction = pc.coalesce(prediction, column)
    confidence = _confidence(table)
    if ids is None or prediction.null_count or confidence is None:
        return None
    schema = prediction_schema(kind_types)
    return pa.table([ids, _line_numbers(first_line, table.num_rows), prediction, confidence,
                     *(table.column(name) for name in schema.names[4:])], schema=schema)


def _confidence(table: pa.Table) -> pa.Array | None:
    """The confidence column as float64 (null where absent; text parsed), or None when a value is not a number in
    [0, 1]."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = _column(table, "confidence")
    if column is None or pa.types.is_null(column.type):
        return pa.nulls(table.num_rows, pa.float64())
    if not (pa.types.is_floating(column.type) or pa.types.is_integer(column.type) or pa.types.is_string(column.type)):
        return None
    try:
        values = column.cast(pa.float64())
    except ValueError:  # text that is not a number: the per-row loader says which
        return None
    inside = pc.and_(pc.greater_equal(values, 0.0), pc.less_equal(values, 1.0))
    return values if pc.all(pc.fill_null(inside, True)).as_py() else None
