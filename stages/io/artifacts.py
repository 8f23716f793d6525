"""Artifact files: a JSON header plus rows, inline or in a Parquet file beside it. The rows file is named by the
fingerprint and written first, the JSON (which makes the stage count as done) last, as one object: a killed writer
never leaves something that counts as done, on a local disk or an object store."""
from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import orjson

from ..core.errors import UsageError
from ..core.records import Columns, Rows, as_columns, column_length
from ..core.stage_names import ARTIFACT_NAMES, MODEL_STAGES
from .rows_handoff import forget, hand_off, handed_off
from .rows_writer import encoded_rows, rows_encoded_alongside
from .storage import is_local, location, open_binary, read_bytes_or_none, remove, write_bytes_atomic

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq
    from upath import UPath

INLINE_ROW_LIMIT = 2000
ROW_GROUP_ROWS = 131_072  # rows per Parquet row group: a reader after a few rows holds one group, not the file
ROW_KEY_COLUMNS = ("id", "line")  # written without a dictionary
DICTIONARY_PAGE_BYTES = 8 << 20  # a column's dictionary may grow this large before its values are written plainly
# (Parquet's 1 MiB default is passed by ~40k distinct option texts: a million rows' options were then written plainly,
# 67 MB in 0.7 s, against 14 MB in 0.35 s with their dictionary kept)
NEARLY_DISTINCT_SHARE = 0.9  # a text column whose sampled values differ at least this much is written plainly
DISTINCT_SAMPLE = 50_000  # values sampled to tell (a pool of 40k option texts over 131k rows samples as 0.7)
_JSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def write_json_atomic(path: UPath, document: Any) -> None:
    write_bytes_atomic(path, orjson.dumps(document, option=_JSON_OPTIONS) + b"\n")


def _parquet_bytes(table: pa.Table) -> bytes:
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(table, buffer, row_group_size=ROW_GROUP_ROWS, **_writer_options(table))
    return buffer.getvalue()


def _writer_options(table: pa.Table) -> dict[str, Any]:
    """How a rows file of this table (or of a table whose first slice this is) is encoded."""
    columns = _parquet_columns(table.schema)
    return {"compression": "zstd", "use_dictionary": _dictionary_paths(table, columns),
            "write_statistics": [column.path for column in columns
                                 if column.path in ROW_KEY_COLUMNS or column.physical_type != "BYTE_ARRAY"],
            "dictionary_pagesize_limit": DICTIONARY_PAGE_BYTES}


def rows_file_encoding() -> AbstractContextManager[Any]:
    """For a stage from its computation to its write_artifact: a table its computation makes by table_from_slices is
    encoded to its rows file as the slices come (rows_writer), in row groups of ROW_GROUP_ROWS."""
    return rows_encoded_alongside(_writer_options, ROW_GROUP_ROWS)


def _dictionary_paths(table: pa.Table, columns: list[pq.ColumnSchema]) -> list[str]:
    """The Parquet columns written with a dictionary: all but ROW_KEY_COLUMNS and texts (or lists of texts) whose
    sampled values nearly all differ — a dictionary pays where values repeat; hashing a million distinct questions
    into one that saves nothing took 0.07 of their 0.1 s of writing."""
    plain = [name for name in table.column_names
             if name not in ROW_KEY_COLUMNS and _nearly_distinct_texts(table.column(name))]
    return [column.path for column in columns if column.path not in ROW_KEY_COLUMNS
            and not any(column.path == name or column.path.startswith(f"{name}.") for name in plain)]


def _nearly_distinct_texts(values: pa.ChunkedArray) -> bool:
    """Whether these are texts (or lists of texts) of which at least NEARLY_DISTINCT_SHARE of a random sample (fixed
    seed) differ."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
        values = pc.list_flatten(values)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)) or not len(values):
        return False
    sample = min(len(values), DISTINCT_SAMPLE)
    taken = np.sort(np.random.default_rng(0).choice(len(values), sample, replace=False))
    return pc.count_distinct(values.take(pa.array(taken)), mode="all").as_py() >= NEARLY_DISTINCT_SHARE * sample


def _parquet_columns(schema: pa.Schema) -> list[pq.ColumnSchema]:
    """The Parquet columns a table of this schema is written as. All but ROW_KEY_COLUMNS and texts that nearly all
    differ are dictionary-encoded (_dictionary_paths; a row's own id and line number never repeat, and hashing them
    took a sixth of the writing); min / max statistics are kept for the row keys and columns of numbers and flags, not for text (no
    reader prunes by the least text, and they took a fifth of writing qa's B3)."""
    import pyarrow.parquet as pq

    empty = io.BytesIO()
    pq.write_table(schema.empty_table(), empty)
    columns = pq.ParquetFile(empty).schema
    return [columns.column(i) for i in range(len(columns))]


def _read_table(path: UPath, columns: list[str] | None = None) -> pa.Table:
    """A rows file (or some of its columns): the table this process wrote there while the file is as written
    (rows_handoff), else read by ParquetFile (pq.read_table goes through pyarrow.dataset, one more import for a run:
    0.02–0.1 s here)."""
    if is_local(path):
        kept = handed_off(path, columns)
        return kept if kept is not None else _whole_file(os.fspath(path), columns)
    with path.open("rb") as handle:
        return _whole_file(handle, columns)


def _whole_file(source: Any, columns: list[str] | None) -> pa.Table:
    """A Parquet file read whole, else row group by row group: a list of dictionary-encoded texts whose dictionary
    changes between row groups cannot be read whole (Arrow: "Nested data conversions not implemented for chunked
    array outputs"; a million multiple-choice rows' options)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows_file = pq.ParquetFile(source)
    try:
        return rows_file.read(columns=columns)
    except pa.ArrowNotImplementedError:
        return pa.concat_tables([rows_file.read_row_group(group, columns)
                                 for group in range(rows_file.num_row_groups)])


def write_artifact(path: UPath, header: dict[str, Any], columns: Rows | None, body: dict[str, Any]) -> None:
    """Write an artifact: rows inline when few, else first in `<stem>.<fingerprint>.parquet`, then the JSON. An Arrow
    table is written as it is (no Python objects per row)."""
    document: dict[str, Any] = {"header": header, **body}
    sidecar = None
    if columns is not None:
        rows = column_length(columns)
        names = list(columns) if isinstance(columns, dict) else columns.column_names
        document["row_count"] = rows
        document["columns"] = names
        if rows > INLINE_ROW_LIMIT:
            import pyarrow as pa

            sidecar = path.with_name(f"{path.stem}.{header['fingerprint'][:16]}.parquet")
            table = pa.table(columns) if isinstance(columns, dict) else columns
            data = encoded_rows(table) or _parquet_bytes(table)
            write_bytes_atomic(sidecar, data)
            if is_local(sidecar):
                hand_off(sidecar, table, data)
            document["rows_file"] = sidecar.name
        elif isinstance(columns, dict):
            document["rows"] = [dict(zip(names, values)) for values in zip(*columns.values())]
        else:
            document["rows"] = columns.to_pylist()
    write_json_atomic(path, document)
    for stale in path.parent.glob(f"{path.stem}.*.parquet"):
        if sidecar is None or stale.name != sidecar.name:
            forget(stale)
            remove(stale)


def read_artifact_json(path: UPath) -> dict[str, Any] | None:
    """The artifact's JSON document, or None when it is missing or unreadable (never half-written: writes are atomic,
    but a disk or a hand may damage it)."""
    try:
        data = read_bytes_or_none(path)
        document = None if data is None else orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return document if isinstance(document, dict) else None


_WHOLE: dict[tuple, tuple | None] = {}  # JSON version found whole → its rows file's version (None: rows inline)


def _version(path: UPath) -> tuple | None:
    """What identifies this version of the artifact's JSON (stat locally, ETag and size remotely); None when absent."""
    try:
        if is_local(path):
            found = os.stat(path)
            return str(path), found.st_mtime_ns, found.st_size, found.st_ino
        info = path.fs.info(path.path)
    except FileNotFoundError:
        return None
    return str(path), str(info.get("ETag") or info.get("etag") or ""), info.get("size"), str(info.get("LastModified"))


def artifact_damage(path: UPath, document: dict[str, Any] | None = None) -> str | None:
    """Why the artifact cannot be read whole — missing, not JSON, its rows file missing, unreadable or of another row
    count than recorded — or None when it is whole (`document`, its JSON when the caller has read it). A version of
    the JSON and its rows file found whole once are not read again in this process (a stat, or a HEAD, of each says
    they are the same)."""
    version = _version(path)
    if version is None:
        return "missing"
    if version in _WHOLE:
        rows_file = _WHOLE[version]
        if rows_file is None or _version(location(rows_file[0])) == rows_file:
            return None
    document = document if document is not None else read_artifact_json(path)
    damage = _damage(path, document)
    if damage is None:
        _WHOLE[version] = _version(path.with_name(document["rows_file"])) if "rows_file" in document else None
    return damage


def _damage(path: UPath, document: dict[str, Any] | None) -> str | None:
    import pyarrow.parquet as pq

    if document is None:
        return "missing" if read_bytes_or_none(path) is None else "not readable JSON"
    if "rows_file" not in document:
        return None
    try:
        with open_binary(path.with_name(document["rows_file"])) as handle:
            rows = pq.ParquetFile(handle).metadata.num_rows
    except FileNotFoundError:
        return f"its rows file {document['rows_file']} is missing"
    except Exception as exc:  # noqa: BLE001  (a truncated or garbled Parquet file, whatever pyarrow calls it)
        return f"its rows file {document['rows_file']} is unreadable ({type(exc).__name__})"
    if rows != document.get("row_count"):
        return f"its rows file {document['rows_file']} holds {rows} rows, not {document.get('row_count')}"
    return None


def read_columns(path: UPath, document: dict[str, Any] | None = None) -> Columns:
    """The artifact's rows as columns, whichever way they are stored."""
    document = document if document is not None else read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable")
    if "rows_file" in document:
        return as_columns(_read_table(path.with_name(document["rows_file"])))
    rows = document.get("rows", [])
    names = document.get("columns") or (list(rows[0]) if rows else [])
    return {name: [row.get(name) for row in rows] for name in names}


def read_table(path: UPath, columns: list[str] | None = None, document: dict[str, Any] | None = None) -> pa.Table:
    """The artifact's rows (or some columns of them) as an Arrow table, without Python objects per row."""
    import pyarrow as pa

    document = document if document is not None else read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable")
    if "rows_file" in document:
        return _read_table(path.with_name(document["rows_file"]), columns)
    rows = document.get("rows", [])
    names = columns or document.get("columns") or (list(rows[0]) if rows else [])
    return pa.table({name: pa.array([row.get(name) for row in rows]) for name in names})


def read_column(path: UPath, name: str) -> pa.ChunkedArray:
    """One column of the artifact's rows as Arrow (cheap for large Parquet-backed artifacts)."""
    return read_table(path, [name]).column(name)


def _row_groups(path: UPath, columns: list[str], document: dict[str, Any] | None) -> Iterator[pa.Table]:
    """Some columns of the artifact's rows one Parquet row group at a time (inline rows as one table); `document`,
    the artifact's JSON when the caller has read it already."""
    import pyarrow.parquet as pq

    document = document if document is not None else read_artifact_json(path)
    if document is None or "rows_file" not in document:
        yield read_table(path, columns, document)
        return
    sidecar = path.with_name(document["rows_file"])
    kept = handed_off(sidecar, columns) if is_local(sidecar) else None
    if kept is not None:  # the rows as this process wrote them, as one table
        yield kept
        return
    with open_binary(sidecar) as handle:
        rows_file = pq.ParquetFile(handle)
        for group in range(rows_file.num_row_groups):
            yield rows_file.read_row_group(group, columns)


def read_rows_at(path: UPath, positions: list[int], columns: list[str],
                 document: dict[str, Any] | None = None) -> Columns:
    """Some columns of the rows at these positions (ascending), read one row group at a time."""
    import numpy as np
    import pyarrow as pa

    wanted, parts, offset = np.asarray(positions, np.int64), [], 0
    for group in _row_groups(path, columns, document):
        here = wanted[(wanted >= offset) & (wanted < offset + group.num_rows)] - offset
        parts.append(group.take(pa.array(here)))
        offset += group.num_rows
    return as_columns(pa.concat_tables(parts)) if parts else {name: [] for name in columns}


def read_rows_with_ids(path: UPath, ids: list[str], columns: list[str],
                       document: dict[str, Any] | None = None) -> pa.Table:
    """Some columns (id among them) of the rows whose id is among `ids`, read one row group at a time."""
    import pyarrow as pa
    import pyarrow.compute as pc

    wanted = pa.array(ids, pa.string())
    parts = [group.filter(pc.is_in(group.column("id").cast(pa.string()), value_set=wanted))
             for group in _row_groups(path, columns, document)]
    return pa.concat_tables(parts)


def iter_rows(path: UPath) -> Iterator[dict[str, Any]]:
    """The artifact's rows one dict at a time."""
    document = read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable")
    if "rows_file" in document:
        import pyarrow.parquet as pq

        sidecar = path.with_name(document["rows_file"])
        with open_binary(sidecar) as handle:
            for batch in pq.ParquetFile(handle).iter_batches(batch_size=10_000):
                yield from batch.to_pylist()
        return
    yield from document.get("rows", [])


def write_rows_parquet_atomic(path: UPath, rows: list[dict[str, Any]], schema: pa.Schema) -> None:
    """Write rows as a Parquet table with a fixed schema, atomically."""
    import pyarrow as pa

    write_bytes_atomic(path, _parquet_bytes(pa.Table.from_pylist(rows, schema=schema)))


def read_rows_parquet(path: UPath) -> list[dict[str, Any]]:
    """A Parquet table's rows as dicts; an absent file has none."""
    return _read_table(path).to_pylist() if path.exists() else []


def write_columns_parquet_atomic(path: UPath, columns: Columns, schema: pa.Schema) -> None:
    """Write columns as a Parquet table with a fixed schema, atomically."""
    import pyarrow as pa

    write_bytes_atomic(path, _parquet_bytes(pa.table(columns, schema=schema)))


def read_columns_parquet(path: UPath) -> Columns:
    """A Parquet table's columns as lists; an absent file has none."""
    return as_columns(_read_table(path)) if path.exists() else {}


def artifact_path(outputs: str | os.PathLike, stage: str, dataset: str, model: str | None = None,
                  shard: int | None = None) -> UPath:
    """Where a stage's artifact lives: <outputs>/<dataset>/[shards/<nnnnn>/][<model>/]Bx_*.json."""
    stage = stage.upper()
    if stage not in ARTIFACT_NAMES:
        raise UsageError(f"unknown stage {stage!r} (use one of {', '.join(ARTIFACT_NAMES)})")
    folder = location(outputs) / dataset
    if shard is not None:
        folder = folder / "shards" / f"{shard:05d}"
    if stage in MODEL_STAGES:
        if not model:
            raise UsageError(f"stage {stage} is per model: name the model")
        folder = folder / model
    return folder / ARTIFACT_NAMES[stage]


def artifact_paths(outputs: str | os.PathLike, stage: str, dataset: str, model: str | None = None) -> list[UPath]:
    """The stage's artifact, or for a sharded dataset one per shard in order (B6 is always one)."""
    shards = location(outputs) / dataset / "shards"
    if stage.upper() == "B6" or not shards.is_dir():
        return [artifact_path(outputs, stage, dataset, model)]
    numbers = sorted(int(p.name) for p in shards.iterdir() if p.name.isdigit())
    return [artifact_path(outputs, stage, dataset, model, shard) for shard in numbers]


def read_artifact(outputs: str | os.PathLike, stage: str, dataset: str, model: str | None = None) -> pd.DataFrame:
    """A stage's rows as a pandas DataFrame (B6: one row per model with its metrics), header in df.attrs["header"];
    a sharded dataset's shards come back as one frame, their headers under df.attrs["header"]["shards"]."""
    import pandas as pd
    import pyarrow as pa

    tables, headers = [], []
    for path in artifact_paths(outputs, stage, dataset, model):
        document = read_artifact_json(path)
        if document is None:
            raise FileNotFoundError(f"artifact {path} is missing or unreadable (run `evalpipe run` first)")
        headers.append(document["header"])
        if "report" in document:
            models = document["report"]["models"]
            frame = pd.json_normalize([{"model": name, **metrics} for name, metrics in models.items()])
            frame.attrs["report"] = document["report"]
            frame.attrs["header"] = document["header"]
            return frame
        tables.append(read_table(path, document=document))
    table = tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="permissive")
    frame = table.to_pandas()
    document = {"header": headers[0] if len(headers) == 1 else {**headers[0], "shards": headers}}
    frame.attrs["header"] = document["header"]
    return frame
