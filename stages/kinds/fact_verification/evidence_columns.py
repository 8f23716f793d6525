"""FEVER evidence read on whole Arrow columns, as evidence.py reads each value: items of text (their integers quoted
by the loader) turned into "page<TAB>line" sentences; None where a value is one the per-value reader would read
another way or refuse."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...io.quoted_numbers import QuotedField, with_mark_before

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa


def _items(lists: pa.Array, width: int) -> pa.Array | None:
    """The items of `lists` (list<list<string>>) when none is null and each has `width` values; else None."""
    import pyarrow.compute as pc

    items = lists.flatten()
    if items.null_count or (len(items) and not pc.all(pc.equal(pc.list_value_length(items), width)).as_py()):
        return None
    return items


def _sentences(items: pa.Array, width: int) -> pa.Array | None:
    """Each item's last two values as "page<TAB>line": a null page as None, a null line as nothing; None when a line
    is not a whole number written as Python writes one (its text cast to int64 and back unchanged)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = items.flatten()
    if width == 2 and len(values) and not values.null_count:
        return _adjacent_pairs(values)
    page, line = pc.list_element(items, width - 2), pc.list_element(items, width - 1)
    if not _canonical_texts(line):
        return None  # "05", "+5": int() reads them, str() writes them otherwise
    return pc.binary_join_element_wise(pc.fill_null(page, "None"), pc.fill_null(line, ""), pa.scalar("\t"))


def _canonical_texts(texts: pa.Array) -> bool:
    """Each text that is not null is an integer as Python's str() writes it, of 1 to 18 digits."""
    import numpy as np

    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int32)[texts.offset:texts.offset + len(texts) + 1]
    data = texts.buffers()[2]
    valid = np.ones(len(texts), dtype=bool) if not texts.null_count else texts.is_valid().to_numpy(zero_copy_only=False)
    return _canonical_lines(np.zeros(0, dtype=np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8),
                            offsets[:-1][valid], offsets[1:][valid])


def _adjacent_pairs(values: pa.Array) -> pa.Array | None:
    """_sentences of items of two values, none null, `values` their values in turn: each pair's bytes with a tab put
    between them; None when a line is not a whole number written as Python writes one within 18 digits."""
    import numpy as np
    import pyarrow as pa

    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset:values.offset + len(values) + 1]
    texts = values.buffers()[2]
    data = np.zeros(0, dtype=np.uint8) if texts is None else np.frombuffer(texts, dtype=np.uint8)
    start, tab = offsets[0], offsets[1:-1:2]
    if not _canonical_lines(data, tab, offsets[2::2]):
        return None
    body = with_mark_before(texts.slice(start, offsets[-1] - start), tab - start, b"\t")
    new_offsets = offsets[0::2] - start + np.arange(len(tab) + 1, dtype=np.int32)
    return pa.StringArray.from_buffers(len(tab), pa.py_buffer(new_offsets), body)


def _canonical_lines(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    """Each data[start:end] is an integer as Python's str() writes it, of 1 to 18 digits."""
    import numpy as np

    lengths = ends - starts
    if not len(lengths):
        return True
    if lengths.min() < 1 or lengths.max() > 19:
        return False
    first = data[starts]
    negative = first == 45
    digits = lengths - negative
    if (digits < 1).any() or (digits > 18).any():
        return False
    lead = data[np.minimum(starts + negative, len(data) - 1)]
    if ((lead == 48) & ((digits > 1) | negative)).any():
        return False
    for at in range(int(lengths.max())):
        taken = lengths > at
        byte = data[starts[taken] + at]
        if not (((byte >= 48) & (byte <= 57)) | ((at == 0) & (byte == 45))).all():
            return False
    return True


def _nested(lists: pa.Array, values: pa.Array) -> pa.Array:
    """`values` (one per item of `lists`) as lists of the same lengths and nulls."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    lengths = pc.fill_null(pc.list_value_length(lists), 0).to_numpy(zero_copy_only=False)
    offsets = pa.array(np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int32))
    mask = lists.is_null() if lists.null_count else None
    return pa.ListArray.from_arrays(offsets, values, mask=mask)


def gold_evidence_column(evidence: pa.Array) -> pa.Array | None:
    """FEVER gold `evidence` (list<list<list<string>>>) as gold_evidence_groups reads each value: groups of
    "page<TAB>line"."""
    groups = evidence.flatten()
    if groups.null_count:
        return None
    items = _items(groups, 4)
    sentences = None if items is None else _sentences(items, 4)
    return None if sentences is None else _nested(evidence, _nested(groups, sentences))


def predicted_evidence_column(predicted: pa.Array) -> pa.Array | None:
    """A prediction's `predicted_evidence` (list<list<string>>) as predicted_evidence_sentences reads each value."""
    items = _items(predicted, 2)
    sentences = None if items is None else _sentences(items, 2)
    return None if sentences is None else _nested(predicted, sentences)


def quoted_question_fields() -> dict[str, QuotedField]:
    """FEVER's question fields read by pyarrow.json: `evidence` read, `all_evidence` (no stage reads it) parsed."""
    import pyarrow as pa

    return {"evidence": QuotedField(pa.list_(pa.list_(pa.list_(pa.string()))), gold_evidence_column),
            "all_evidence": QuotedField(pa.list_(pa.list_(pa.string())))}


def quoted_prediction_fields() -> dict[str, QuotedField]:
    """FEVER's prediction field read by pyarrow.json: `predicted_evidence`."""
    import pyarrow as pa

    return {"predicted_evidence": QuotedField(pa.list_(pa.list_(pa.string())), predicted_evidence_column)}
