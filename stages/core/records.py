"""Row-level bookkeeping shared by every stage: rejects and column tables."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import pyarrow as pa

Columns = dict[str, list]
Rows = Union[Columns, "pa.Table"]  # a stage's rows: Python columns, or an Arrow table that never leaves Arrow


@dataclass(frozen=True)
class Reject:
    """A row set aside: the file it came from, its 1-based line (None where lines do not apply), and why;
    `unscored` names the cause when the row is an item whose answer was never obtained (stages/chat/outage.py)."""

    source: str
    line: int | None
    reason: str
    location: str | None = None
    unscored: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None or k == "line"}


@dataclass
class LoadResult:
    """Rows accepted from one input file, as columns (an Arrow table from the fast path), plus the rows set aside."""

    columns: Rows
    rejects: list[Reject] = field(default_factory=list)
    input_rows: int = 0

    @property
    def accepted(self) -> int:
        return column_length(self.columns)

    def counts(self) -> dict[str, int]:
        return {"input_rows": self.input_rows, "accepted": self.accepted, "rejected": len(self.rejects)}


def column_length(columns: Rows) -> int:
    """Number of rows in a column table."""
    if not isinstance(columns, dict):
        return columns.num_rows
    return len(next(iter(columns.values()), []))


def as_table(rows: Rows, types: dict[str, pa.DataType] | None = None) -> pa.Table:
    """Rows as an Arrow table (Python columns converted), the columns named in `types` cast to them (an artifact
    without rows, read back from JSON, has only null columns)."""
    import pyarrow as pa

    table = rows if isinstance(rows, pa.Table) else pa.table(rows)
    for name, kind in (types or {}).items():
        if name in table.column_names and table.schema.field(name).type != kind:
            table = table.set_column(table.column_names.index(name), name, table.column(name).cast(kind))
    return table


def as_columns(rows: Rows) -> Columns:
    """Rows as Python columns (an Arrow table's converted, for kinds that work row by row)."""
    if isinstance(rows, dict):
        return rows
    return {name: rows.column(name).to_pylist() for name in rows.column_names}


def take_rows(columns: Columns, indices: list[int]) -> Columns:
    """The rows at `indices`, as a new column table."""
    return {name: [values[i] for i in indices] for name, values in columns.items()}


def with_sample_numbers(upstream: Rows, rows: Rows) -> Rows:
    """A kind's output rows with the upstream rows' `sample` numbers (one output row per upstream row, in order)."""
    if "sample" not in column_names(upstream) or "sample" in column_names(rows) \
            or column_length(upstream) != column_length(rows):
        return rows
    if isinstance(rows, dict):
        return {**rows, "sample": column_values(upstream, "sample")}
    import pyarrow as pa

    samples = upstream["sample"] if isinstance(upstream, dict) else upstream.column("sample")
    return rows.append_column("sample", samples if not isinstance(samples, list) else pa.array(samples, pa.int64()))


def column_names(rows: Rows) -> list[str]:
    return list(rows) if isinstance(rows, dict) else rows.column_names


def column_values(rows: Rows, name: str) -> list:
    return list(rows[name]) if isinstance(rows, dict) else rows.column(name).to_pylist()
