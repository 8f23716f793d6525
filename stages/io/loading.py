"""B1/B2 loading: questions with their gold answers, and one model's predictions, as column tables."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..core.progress import track
from ..core.records import Columns, LoadResult, Reject
from ..core.threads import map_ahead
from .columnar_loading import (
    csv_table,
    parquet_table,
    prediction_block,
    prediction_rows,
    prediction_schema,
    question_block,
    question_rows,
    question_schema,
)
from .columnar_samples import load_samples_columnar
from .decoded_blocks import FieldReaders, with_read_fields
from .fields import (
    LINE_ID,
    PREDICTION_FIELDS,
    QUESTION_FIELDS,
    get_ground_truth_answer,
    get_record_id,
    gold_answer_texts,
    is_missing,
    name_ignoring_case,
    prompt_key,
    resolve_field,
)
from .jsonl_blocks import LineBlock, iter_line_blocks
from .readers import Record, decode_jsonl_line, iter_records, readable_records
from .rows_writer import table_from_slices
from .samples import holds_samples, ids_repeat, load_samples

if TYPE_CHECKING:
    import pyarrow as pa

    from .quoted_numbers import QuotedFields


class PredictionRules(Protocol):
    """What a kind reads from a prediction record beside its text (FEVER's predicted evidence, say;
    columnar_predictions: nothing, or fields of one value each that prediction_readers read, so predictions may take
    the Arrow fast path)."""

    prediction_columns: tuple[str, ...]
    prediction_readers: FieldReaders
    repeated_ids_are_samples: bool
    pairs_by_prompt: bool
    columnar_predictions: bool

    def prediction_fields(self, record: dict) -> dict[str, Any]: ...

    def prediction_types(self) -> dict[str, pa.DataType]: ...

    def quoted_prediction_fields(self) -> QuotedFields: ...


class GoldRules(Protocol):
    """What a kind says about its question rows: the extra fields it reads and whether the golds are scorable, row by
    row and (columnar_questions) on a whole Arrow table of records."""

    question_columns: tuple[str, ...]
    question_readers: FieldReaders
    columnar_questions: bool

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]: ...

    def golds_when_blank(self, params: dict[str, Any]) -> list[str]: ...

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None: ...

    def check_question(self, question: str | None) -> str | None: ...

    def quoted_question_fields(self) -> QuotedFields: ...

    def question_types(self) -> dict[str, pa.DataType]: ...

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None: ...


def _accepted_rows(source: str, items: Iterable[tuple[int, Record | Reject]], result: LoadResult,
                   build_row: Callable, duplicates: bool = True) -> Iterator[tuple[Any, ...]]:
    """The (1-based position, record) items that `build_row` accepts (and whose id is new, unless `duplicates` is
    False: the caller checks ids itself); the others go to result.rejects."""
    first_line: dict[str, int | None] = {}
    for position, line, record, location in readable_records(items, result):
        reason, row = build_row(record, line, position)
        if reason is None and duplicates and row[0] in first_line:
            reason = f"duplicate id {row[0]!r} (first seen at line {first_line[row[0]]})"
        if reason is not None:
            result.rejects.append(Reject(source, line, reason, location))
            continue
        first_line[row[0]] = line
        yield (*row, line)


def _collect(rows: Iterable[tuple[Any, ...]], names: tuple[str, str], extra_names: tuple[str, ...]) -> Columns:
    """Accepted rows — (id, two values, kind fields, line) — as columns: id, line, `names`, then every kind field
    (those in `extra_names` even when no row has them). Plain appends: this loop runs once per input row."""
    ids, lines, first, second, extras = [], [], [], [], []
    for row_id, first_value, second_value, extra, line in rows:
        ids.append(row_id)
        lines.append(line)
        first.append(first_value)
        second.append(second_value)
        extras.append(extra)
    columns = {"id": ids, "line": lines, names[0]: first, names[1]: second}
    for name in dict.fromkeys([*extra_names, *(name for extra in extras for name in extra)]):
        columns[name] = [extra.get(name) for extra in extras]
    return columns


def _load_columns(path: Path, build_row: Callable, rows: range | None, names: tuple[str, str],
                  extra_names: tuple[str, ...]) -> LoadResult:
    """Every record of `path` (at `rows` positions, or all) through `build_row`, one at a time."""
    result = LoadResult(columns={})
    first = 1 + (rows.start if rows is not None else 0)
    items = enumerate(track(iter_records(path, rows), f"reading {path.name}"), start=first)
    result.columns = _collect(_accepted_rows(str(path), items, result, build_row), names, extra_names)
    return result


def _load_jsonl_table(path: Path, build_row: Callable, rows: range | None, fast: _FastPath) -> LoadResult:
    """A JSON-lines file as one Arrow table: each block on the fast path when it takes it (blocks parsed side by side
    in threads), else row by row; the blocks' dictionaries made one (Parquet writes a dictionary that changes from
    block to block plainly), ids checked for duplicates over the whole table, and rejects in line order as from the
    per-row loader."""
    import pyarrow as pa

    result, source, schema = LoadResult(columns={}), str(path), fast.schema()

    def tables() -> Iterator[pa.Table]:
        for block, table in map_ahead(fast.block, track(iter_line_blocks(path, rows), f"reading {path.name}")):
            if table is None:
                items = ((position + 1, decode_jsonl_line(source, number, raw)) for number, position, raw in
                         block.lines())
                accepted = _accepted_rows(source, items, result, build_row, duplicates=False)
                columns = _collect(accepted, fast.names, tuple(schema.names[4:]))
                untyped = set(columns) - set(schema.names)
                if untyped:
                    raise TypeError(f"the kind gives no Arrow type for its field(s) {', '.join(sorted(untyped))}")
                table = pa.table(columns, schema=schema)
            else:
                result.input_rows += block.records
            yield table

    if any(_holds_dictionary(column.type) for column in schema):
        blocks = list(tables())
        table = pa.concat_tables(blocks).unify_dictionaries() if blocks else schema.empty_table()
    else:  # encoded to the stage's rows file as the blocks come (kept when no id repeats)
        table = table_from_slices(tables(), schema)
    table, duplicates = _without_duplicate_ids(table, source)
    result.rejects = sorted([*result.rejects, *duplicates], key=lambda reject: reject.line)
    result.columns = table
    return result


def _holds_dictionary(data_type: pa.DataType) -> bool:
    """Whether values of this type are, or hold, dictionary-encoded ones (a list of options' texts)."""
    import pyarrow as pa

    return pa.types.is_dictionary(data_type) or any(_holds_dictionary(data_type.field(i).type)
                                                    for i in range(data_type.num_fields))


def _load_whole_table(path: Path, rows: range | None, fast: _FastPath, read: Callable, first_line: int,
                      location: str | None) -> LoadResult | None:
    """A file that `read` takes as one Arrow table (its records at `rows` positions, or all; record i on line
    `first_line` + i) through the fast path, or None when the file or some row must go row by row (the per-row
    loader then reads the whole file)."""
    whole = read(path)
    if whole is None:
        return None
    first = 0 if rows is None else min(rows.start, whole.num_rows)
    table = fast.read_fields(whole.slice(first, whole.num_rows if rows is None else len(rows)))
    accepted = None if table is None else fast.rows(table, first_line=first + first_line, first_position=first)
    if accepted is None:
        return None
    accepted, duplicates = _without_duplicate_ids(accepted, str(path), location)
    return LoadResult(columns=accepted, rejects=duplicates, input_rows=table.num_rows)


def _without_duplicate_ids(table: pa.Table, source: str,
                           location: str | None = None) -> tuple[pa.Table, list[Reject]]:
    """The table without rows whose id an earlier row has, and a reject for each of those (`location`, a format with
    {line}, where the per-row reader gives one)."""
    import pyarrow.compute as pc

    ids = table.column("id").combine_chunks()  # Arrow hashes one array faster than its blocks one after another
    if len(pc.unique(ids)) == table.num_rows:
        return table, []
    first_line: dict[str, int] = {}
    keep, rejects = [], []
    for row_id, line in zip(ids.to_pylist(), table.column("line").to_pylist()):
        seen = first_line.setdefault(row_id, line)
        keep.append(seen == line)
        if seen != line:
            rejects.append(Reject(source, line, f"duplicate id {row_id!r} (first seen at line {seen})",
                                  None if location is None else location.format(line=line)))
    return table.filter(keep), rejects


def _row_by_row(block: LineBlock) -> None:
    """The block function of a kind that may not take the fast path: every block goes row by row."""
    return None


@dataclass(frozen=True)
class _FastPath:
    """How B1 or B2 reads: on the Arrow fast path a JSON-lines block, a whole table (its kind's fields read first by
    `read_fields`), and the columns they give; the names of its two value columns (beside id and line) for the
    per-row loader."""

    block: Callable[[LineBlock], pa.Table | None]
    rows: Callable[..., pa.Table | None]
    read_fields: Callable[[pa.Table], pa.Table | None]
    schema: Callable[[], pa.Schema]
    names: tuple[str, str]


def _load(path: Path, rows: range | None, fast_kind: bool, build_row: Callable, fast: _FastPath,
          extra_names: tuple[str, ...]) -> LoadResult:
    """JSON lines, Parquet and plain CSV on the fast path when the kind may take it (`fast_kind`), every other case
    row by row; JSON lines whose kind gives the Arrow type of each of its fields (`extra_names`) become Arrow one
    block at a time even row by row, so no whole file is ever held as Python values."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl" and (fast_kind or set(extra_names) <= set(fast.schema().names)):
        return _load_jsonl_table(path, build_row, rows, fast if fast_kind else replace(fast, block=_row_by_row))
    whole = {".parquet": (parquet_table, 1, "row {line}"), ".csv": (csv_table, 2, None)}
    if fast_kind and suffix in whole:
        loaded = _load_whole_table(path, rows, fast, *whole[suffix])
        if loaded is not None:
            return loaded
    return _load_columns(path, build_row, rows, fast.names, extra_names)


def _row_id(record: Any, line: int | None, position: int, fields: dict[str, str | None]) -> tuple[str | None, Any]:
    """(why the record cannot be a row or None, its id)."""
    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}", None
    row_id = get_record_id(record, position if fields.get("id_field") == LINE_ID else line, fields.get("id_field"))
    if row_id is None:
        return f"no id (field {fields.get('id_field') or 'id'!r} missing or empty)", None
    return None, row_id


def load_questions(path: Path, kind: GoldRules, fields: dict[str, str | None], rows: range | None = None,
                   params: dict[str, Any] | None = None) -> LoadResult:
    """Questions with their gold answers (at `rows` positions, or all); rows without id or gold, duplicates and
    unreadable rows are set aside (the kind's gold check may read its B1 parameters, `params`)."""
    params = params or {}
    kind_columns = partial(kind.columnar_question_fields, params=params) if kind.columnar_questions else None
    kind_types, readers = kind.question_types(), kind.question_readers
    fast = _FastPath(partial(question_block, fields=fields, kind_columns=kind_columns, kind_types=kind_types,
                             readers=readers, quoted=kind.quoted_question_fields()),
                     partial(question_rows, fields=fields, kind_columns=kind_columns, kind_types=kind_types),
                     partial(with_read_fields, readers=readers, types=kind_types),
                     partial(question_schema, kind_types), ("question", "golds"))
    return _load(path, rows, kind.columnar_questions, partial(_question_row, kind=kind, fields=fields, params=params),
                 fast, kind.question_columns)


def _question_row(
    record: Any, line: int | None, position: int, kind: GoldRules, fields: dict[str, str | None],
    params: dict[str, Any],
) -> tuple[str | None, tuple]:
    """(why the row is set aside or None, (id, question, golds, kind fields))."""
    reason, row_id = _row_id(record, line, position, fields)
    if reason is not None:
        return reason, ()
    gold_field = fields.get("gold_field")
    gold_value = resolve_field(record, gold_field, ()) if gold_field else get_ground_truth_answer(record)
    golds = gold_answer_texts(gold_value)
    if not golds and isinstance(gold_value, dict):
        return "wrong type: gold is an object, expected text", ()
    if not golds and isinstance(gold_value, (str, list)):
        golds = kind.golds_when_blank(params)
    question = resolve_field(record, fields.get("question_field"), QUESTION_FIELDS)
    question = None if is_missing(question) else str(question)
    problem = kind.check_question(question)
    if problem is not None:
        return problem, ()
    try:
        extra = kind.question_fields(record, question)
    except (TypeError, ValueError) as exc:
        return _unreadable(exc), ()
    problem = kind.check_gold(golds, extra, params)
    if problem is not None:
        return problem, ()
    return None, (row_id, question, golds, extra)


def load_predictions(path: Path, fields: dict[str, str | None], rows: range | None = None,
                     kind: PredictionRules | None = None) -> LoadResult:
    """One model's predictions (at `rows` positions, or all), with the kind's extra fields — one row per reply, with
    its `sample` number, when the file holds several per item; rows without id or prediction, non-text predictions,
    wrong types and duplicates are set aside."""
    kind_types = kind.prediction_types() if kind is not None else {}
    repeats = kind is not None and kind.repeated_ids_are_samples and ids_repeat(
        path, lambda record, line, position: _row_id(record, line, position, fields)[1])
    readers = kind.prediction_readers if kind is not None else {}
    if repeats or holds_samples(path, fields):
        columnar = None if kind is not None and not kind.columnar_predictions else load_samples_columnar(
            path, fields, rows, kind_types, readers, number_repeats=repeats)
        if columnar is not None:
            return columnar
        return load_samples(path, fields, rows, kind_types, partial(_prediction_row, fields=fields, kind=kind),
                            number_repeats=repeats)
    quoted = kind.quoted_prediction_fields() if kind is not None else {}
    fast = _FastPath(partial(prediction_block, fields=fields, kind_types=kind_types, readers=readers, quoted=quoted),
                     partial(prediction_rows, fields=fields, kind_types=kind_types),
                     partial(with_read_fields, readers=readers, types=kind_types),
                     partial(prediction_schema, kind_types), ("prediction", "confidence"))
    return _load(path, rows, kind is None or kind.columnar_predictions, partial(_prediction_row, fields=fields,
                                                                                kind=kind), fast,
                 kind.prediction_columns if kind is not None else ())


def _prediction_row(
    record: Any, line: int | None, position: int, fields: dict[str, str | None], kind: PredictionRules | None
) -> tuple[str | None, tuple]:
    """(why the row is set aside or None, (id, prediction text, confidence, kind fields)); a record with its prompt
    and no id, for a kind that pairs by prompt text, has the prompt's key as its id."""
    reason, row_id = _row_id(record, line, position, fields)
    if reason is not None and kind is not None and kind.pairs_by_prompt and isinstance(record, dict) \
            and isinstance(record.get("prompt"), str) and not fields.get("id_field"):
        reason, row_id = None, prompt_key(record["prompt"])
    if reason is not None:
        return reason, ()
    field = fields.get("prediction_field")
    names = (name_ignoring_case(record, field) or field,) if field else PREDICTION_FIELDS
    present = [name for name in names if record.get(name) is not None]
    if not present:
        return f"no prediction (looked for {', '.join(names)})", ()
    value = record[present[0]]
    if isinstance(value, (dict, list)):
        return f"wrong type: prediction {present[0]!r} is a {type(value).__name__}, expected text", ()
    if isinstance(value, float) and value != value:
        return f"no prediction ({present[0]!r} is NaN)", ()
    confidence = record.get("confidence")
    if confidence is not None and not _is_probability(confidence):
        return f"wrong type: confidence {confidence!r} is not a number between 0 and 1", ()
    try:
        extra = kind.prediction_fields(record) if kind is not None else {}
    except (TypeError, ValueError) as exc:
        return _unreadable(exc), ()
    return None, (row_id, str(value), None if confidence is None else float(confidence), extra)


def _unreadable(exc: TypeError | ValueError) -> str:
    """Why a kind could not read a record's fields: the reason it gives (a ValueError's), or for a TypeError that a
    value is of the wrong type."""
    return f"wrong type: {exc}" if isinstance(exc, TypeError) else str(exc)


def _is_probability(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return False
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0
