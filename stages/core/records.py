"""Row-level bookkeeping shared by every stage: rejects and column tables."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

Columns = dict[str, list]


@dataclass(frozen=True)
class Reject:
    """A row set aside: the file it came from, its 1-based line (None where lines do not apply), and why."""

    source: str
    line: int | None
    reason: str
    location: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None or k == "line"}


@dataclass
class LoadResult:
    """Rows accepted from one input file, as columns, plus the rows set aside."""

    columns: Columns
    rejects: list[Reject] = field(default_factory=list)
    input_rows: int = 0

    @property
    def accepted(self) -> int:
        return len(next(iter(self.columns.values()), []))

    def counts(self) -> dict[str, int]:
        return {"input_rows": self.input_rows, "accepted": self.accepted, "rejected": len(self.rejects)}


def column_length(columns: Columns) -> int:
    """Number of rows in a column table."""
    return len(next(iter(columns.values()), []))


def take_rows(columns: Columns, indices: list[int]) -> Columns:
    """The rows at `indices`, as a new column table."""
    return {name: [values[i] for i in indices] for name, values in columns.items()}
