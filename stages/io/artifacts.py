"""Artifact files: a JSON header plus rows, inline or in a Parquet file beside it; every write is atomic."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ..core.errors import UsageError
from ..core.records import Columns, column_length

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

INLINE_ROW_LIMIT = 2000
ARTIFACT_NAMES = {"B1": "B1_questions.json", "B2": "B2_predictions.json", "B3": "B3_normalized.json",
                  "B4": "B4_matches.json", "B5": "B5_component_scores.json", "B6": "B6_report.json"}
STAGES = tuple(ARTIFACT_NAMES)
MODEL_STAGES = ("B2", "B3", "B4", "B5")
_JSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, fsync, then rename over the target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary(path)
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_json_atomic(path: Path, document: Any) -> None:
    write_bytes_atomic(path, orjson.dumps(document, option=_JSON_OPTIONS) + b"\n")


def write_artifact(path: Path, header: dict[str, Any], columns: Columns | None, body: dict[str, Any]) -> None:
    """Write an artifact: rows inline when few, else in `<stem>.<fingerprint>.parquet` named by the JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {"header": header, **body}
    sidecar = None
    if columns is not None:
        rows = column_length(columns)
        document["row_count"] = rows
        document["columns"] = list(columns)
        if rows > INLINE_ROW_LIMIT:
            import pyarrow as pa
            import pyarrow.parquet as pq
            sidecar = path.with_name(f"{path.stem}.{header['fingerprint'][:16]}.parquet")
            temporary = _temporary(sidecar)
            pq.write_table(pa.table(columns), temporary, compression="zstd")
            os.replace(temporary, sidecar)
            document["rows_file"] = sidecar.name
        else:
            names = list(columns)
            document["rows"] = [dict(zip(names, values)) for values in zip(*columns.values())]
    write_json_atomic(path, document)
    for stale in path.parent.glob(f"{path.stem}.*.parquet"):
        if stale != sidecar:
            stale.unlink(missing_ok=True)


def read_artifact_json(path: Path) -> dict[str, Any] | None:
    """The artifact's JSON document, or None when it is missing or unreadable (never half-written: writes are atomic)."""
    try:
        return orjson.loads(path.read_bytes())
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None


def read_columns(path: Path, document: dict[str, Any] | None = None) -> Columns:
    """The artifact's rows as columns, whichever way they are stored."""
    document = document if document is not None else read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable")
    if "rows_file" in document:
        import pyarrow.parquet as pq
        return _table_columns(pq.read_table(path.with_name(document["rows_file"])))
    rows = document.get("rows", [])
    names = document.get("columns") or (list(rows[0]) if rows else [])
    return {name: [row.get(name) for row in rows] for name in names}


def iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The artifact's rows one dict at a time."""
    document = read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable")
    if "rows_file" in document:
        import pyarrow.parquet as pq
        parquet = pq.ParquetFile(path.with_name(document["rows_file"]))
        for batch in parquet.iter_batches(batch_size=10_000):
            yield from batch.to_pylist()
        return
    yield from document.get("rows", [])


def write_rows_parquet_atomic(path: Path, rows: list[dict[str, Any]], schema: pa.Schema) -> None:
    """Write rows as a Parquet table with a fixed schema, atomically."""
    import pyarrow as pa
    _write_table_atomic(path, pa.Table.from_pylist(rows, schema=schema))


def _write_table_atomic(path: Path, table: pa.Table) -> None:
    import pyarrow.parquet as pq
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary(path)
    pq.write_table(table, temporary, compression="zstd")
    os.replace(temporary, path)


def read_rows_parquet(path: Path) -> list[dict[str, Any]]:
    """A Parquet table's rows as dicts; an absent file has none."""
    import pyarrow.parquet as pq
    if not path.exists():
        return []
    return pq.read_table(path).to_pylist()


def write_columns_parquet_atomic(path: Path, columns: Columns, schema: pa.Schema) -> None:
    """Write columns as a Parquet table with a fixed schema, atomically."""
    import pyarrow as pa
    _write_table_atomic(path, pa.table(columns, schema=schema))


def read_columns_parquet(path: Path) -> Columns:
    """A Parquet table's columns as lists; an absent file has none."""
    import pyarrow.parquet as pq
    return _table_columns(pq.read_table(path)) if path.exists() else {}


def _table_columns(table: pa.Table) -> Columns:
    return {name: table.column(name).to_pylist() for name in table.column_names}


def artifact_path(outputs: str | Path, stage: str, dataset: str, model: str | None = None) -> Path:
    """Where a stage's artifact lives: <outputs>/<dataset>/[<model>/]Bx_*.json."""
    stage = stage.upper()
    if stage not in ARTIFACT_NAMES:
        raise UsageError(f"unknown stage {stage!r} (use one of {', '.join(ARTIFACT_NAMES)})")
    folder = Path(outputs) / dataset
    if stage in MODEL_STAGES:
        if not model:
            raise UsageError(f"stage {stage} is per model: name the model")
        folder = folder / model
    return folder / ARTIFACT_NAMES[stage]


def read_artifact(outputs: str | Path, stage: str, dataset: str, model: str | None = None) -> pd.DataFrame:
    """A stage's rows as a pandas DataFrame (B6: one row per model with its metrics), header in df.attrs["header"]."""
    import pandas as pd

    path = artifact_path(outputs, stage, dataset, model)
    document = read_artifact_json(path)
    if document is None:
        raise FileNotFoundError(f"artifact {path} is missing or unreadable (run `evalpipe run` first)")
    if "report" in document:
        models = document["report"]["models"]
        frame = pd.json_normalize([{"model": name, **metrics} for name, metrics in models.items()])
        frame.attrs["report"] = document["report"]
    elif "rows_file" in document:
        import pyarrow.parquet as pq
        frame = pq.read_table(path.with_name(document["rows_file"])).to_pandas()
    else:
        frame = pd.DataFrame(document.get("rows", []), columns=document.get("columns"))
    frame.attrs["header"] = document["header"]
    return frame
