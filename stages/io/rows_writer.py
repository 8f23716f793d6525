"""A stage's rows file encoded on a background thread while the stage still computes: slices given to
table_from_slices are encoded to Parquet as they come (encoding releases the GIL), so the stage takes about the longer
of computing and encoding rather than their sum. The bytes are written where and as before (write_artifact)."""
from __future__ import annotations

import io
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

_ENCODER: ContextVar[RowsFileEncoder | None] = ContextVar("rows_file_encoder", default=None)
_DONE = None  # put on the queue after the last slice


class RowsFileEncoder:
    """Encodes one table's slices, in order, into Parquet bytes on its own thread (started at the first slice)."""

    def __init__(self, writer_options: Callable[[pa.Table], dict[str, Any]], row_group_rows: int) -> None:
        self._options, self._row_group_rows = writer_options, row_group_rows
        self._slices: queue.SimpleQueue[pa.Table | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._buffer = io.BytesIO()
        self._error: BaseException | None = None
        self.table: pa.Table | None = None  # the table encoded, once its last slice is given
        self.used = False

    def add(self, part: pa.Table) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._encode, args=(part,), name="rows-file-encoder", daemon=True)
            self._thread.start()
        else:
            self._slices.put(part)

    def seal(self, table: pa.Table) -> None:
        """No more slices: `table` is what they make."""
        self.table = table
        self._slices.put(_DONE)

    def close(self) -> None:
        """Ends the thread (waiting for it); what it encoded is kept."""
        if self._thread is not None:
            if self.table is None:
                self._slices.put(_DONE)
            self._thread.join()

    def encoded(self) -> bytes:
        """The Parquet bytes of the sealed table; raises what the encoding raised."""
        self.close()
        if self._error is not None:
            raise self._error
        return self._buffer.getvalue()

    def _encode(self, first: pa.Table) -> None:
        """Writes whole row groups as slices come (the rows left over wait for the next slice), the rest at the end:
        the row groups are those of the table encoded at once."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        part, pending, wrote = first, [], False
        try:
            with pq.ParquetWriter(self._buffer, first.schema, **self._options(first)) as writer:
                while part is not _DONE:
                    pending.append(part)
                    rows = sum(len(waiting) for waiting in pending)
                    whole = rows - rows % self._row_group_rows
                    if whole:
                        ready = pa.concat_tables(pending)
                        writer.write_table(ready.slice(0, whole), row_group_size=self._row_group_rows)
                        pending, wrote = [ready.slice(whole)], True
                    part = self._slices.get()
                left = pa.concat_tables(pending)
                if left.num_rows or not wrote:  # an empty table is one empty row group, as pq.write_table has it
                    writer.write_table(left, row_group_size=self._row_group_rows)
        except BaseException as exc:  # noqa: BLE001  (raised again to the stage by encoded())
            self._error = exc
            while part is not _DONE:  # the producer keeps giving slices until it seals
                part = self._slices.get()


@contextmanager
def rows_encoded_alongside(writer_options: Callable[[pa.Table], dict[str, Any]],
                           row_group_rows: int) -> Iterator[RowsFileEncoder]:
    """Within this block, the first table_from_slices is encoded as it is computed; its thread ends with the block."""
    encoder = RowsFileEncoder(writer_options, row_group_rows)
    token = _ENCODER.set(encoder)
    try:
        yield encoder
    finally:
        _ENCODER.reset(token)
        encoder.close()


def table_from_slices(slices: Iterable[pa.Table], schema: pa.Schema | None = None) -> pa.Table:
    """The table of these slices (of one schema; none: `schema`'s empty table), in order; inside
    rows_encoded_alongside, the first such table's slices are also encoded to its rows file as they come."""
    import pyarrow as pa

    encoder = _ENCODER.get()
    if encoder is not None and encoder.used:
        encoder = None
    if encoder is not None:
        encoder.used = True
    parts = []
    for part in slices:
        parts.append(part)
        if encoder is not None:
            encoder.add(part)
    table = pa.concat_tables(parts) if parts or schema is None else schema.empty_table()
    if encoder is not None and parts:
        encoder.seal(table)
    return table


def encoded_rows(table: pa.Table) -> bytes | None:
    """The Parquet bytes encoded alongside for this very table, or None when it was not encoded so."""
    encoder = _ENCODER.get()
    if encoder is None or encoder.table is not table:
        return None
    return encoder.encoded()
