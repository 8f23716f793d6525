"""The FEVER score beside label accuracy, as the official scorer (sheffieldnlp/fever-scorer) computes it with
max_evidence = 5: a claim whose gold label is not NOT ENOUGH INFO is strictly right only when some gold evidence group
lies wholly inside the first five predicted sentences; evidence precision and recall are averaged over those claims.
Computed on whole Arrow columns: sentences are numbered, and (row, sentence) keys looked up in sorted arrays."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.arrow_strings import list_lengths, list_starts
from ...core.stats import Stats, share
from ...text.verdict import UNCERTAIN

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

MAX_EVIDENCE = 5
BATCH_ROWS = 200_000


def fever_columns(gold_labels: pa.Array, evidence: pa.Array, predicted: pa.Array,
                  correct: pa.Array) -> dict[str, pa.Array]:
    """B4's FEVER columns: the gold evidence group found whole in the first five predicted sentences (its index, or
    null), strict correctness, and the row's evidence precision (1 when nothing is predicted) and recall (1 when the
    gold has no evidence); null for NOT ENOUGH INFO claims, which are strictly right when their label is. Rows are
    taken in batches, which bounds the memory of the sentence keys."""
    import pyarrow as pa

    parts = [_fever_batch(*(column.slice(start, BATCH_ROWS) for column in (gold_labels, evidence, predicted, correct)))
             for start in range(0, len(gold_labels), BATCH_ROWS)] or [_fever_batch(gold_labels, evidence, predicted,
                                                                                    correct)]
    return {name: pa.concat_arrays([part[name] for part in parts]) for name in parts[0]}


def _fever_batch(gold_labels: pa.Array, evidence: pa.Array, predicted: pa.Array,
                 correct: pa.Array) -> dict[str, pa.Array]:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = len(gold_labels)
    judged = pc.fill_null(pc.not_equal(gold_labels, UNCERTAIN), True).to_numpy(zero_copy_only=False)
    groups = _without_nulls(evidence, pa.list_(pa.list_(pa.string())))
    first = pc.list_slice(_without_nulls(predicted, pa.list_(pa.string())), 0, MAX_EVIDENCE)
    group_rows = pc.list_parent_indices(groups).to_numpy()
    items = pc.list_flatten(groups)
    item_groups = pc.list_parent_indices(items).to_numpy()
    sentences = pc.list_flatten(items)
    chosen = pc.list_flatten(first)
    codes = pc.dictionary_encode(pa.concat_arrays([sentences, chosen])).indices.to_numpy().astype(np.int64)
    width = int(codes.max()) + 1 if len(codes) else 1
    item_keys = group_rows[item_groups] * width + codes[:len(sentences)]
    chosen_rows = pc.list_parent_indices(first).to_numpy()
    chosen_keys = chosen_rows * width + codes[len(sentences):]

    found = _among(item_keys, np.sort(chosen_keys))
    group_sizes = list_lengths(items)
    complete = np.bincount(item_groups, weights=found, minlength=len(group_rows)) == group_sizes
    evidence_group = np.full(rows, -1, np.int64)
    complete_groups = np.flatnonzero(complete)
    complete_rows = group_rows[complete_groups]  # ascending: groups come row after row
    opens_row = np.ones(len(complete_rows), bool)
    opens_row[1:] = complete_rows[1:] != complete_rows[:-1]
    first_whole = np.flatnonzero(opens_row)
    whole_rows = complete_rows[first_whole]
    group_lengths = list_lengths(groups)
    group_starts = list_starts(group_lengths)
    evidence_group[whole_rows] = complete_groups[first_whole] - group_starts[whole_rows]

    named = ~pc.fill_null(pc.ends_with(sentences, "\t"), False).to_numpy(zero_copy_only=False)
    hits = _among(chosen_keys, np.sort(item_keys[named]))
    chosen_counts = list_lengths(first)
    hit_counts = np.bincount(chosen_rows, weights=hits, minlength=rows)
    precision = np.where(chosen_counts > 0, hit_counts / np.maximum(chosen_counts, 1), 1.0)
    recall = np.where((group_lengths == 0) | (evidence_group >= 0), 1.0, 0.0)
    right = pc.fill_null(correct, False).to_numpy(zero_copy_only=False)
    return {"evidence_group": pa.array(evidence_group, mask=~judged | (evidence_group < 0)),
            "strict": pa.array(right & (~judged | (evidence_group >= 0))),
            "evidence_precision": pa.array(precision, mask=~judged),
            "evidence_recall": pa.array(recall, mask=~judged)}


def _without_nulls(lists: pa.Array | pa.ChunkedArray, kind: pa.DataType) -> pa.Array:
    """Lists as one array of `kind`, a null row as an empty list."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    return pc.fill_null(lists.cast(kind), pa.scalar([], kind))


def _among(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Whether each key is one of `sorted_keys` (ascending, repeats allowed)."""
    import numpy as np

    if not len(sorted_keys):
        return np.zeros(len(keys), bool)
    where = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[where] == keys


def fever_stats(matched: pa.Table) -> Stats:
    """Counts and sums behind the FEVER metrics (summed in row order, as the official scorer does)."""
    import pyarrow.compute as pc

    precision = matched.column("evidence_precision")
    return {"strict": pc.sum(pc.fill_null(matched.column("strict"), False).cast("int64")).as_py() or 0,
            "evidence_rows": len(precision) - precision.null_count,
            "precision": sum_in_row_order(precision),
            "recall": sum_in_row_order(matched.column("evidence_recall"))}


def sum_in_row_order(column: pa.ChunkedArray) -> float:
    """A column's values, nulls left out, added one at a time in row order as the official scorer's `+=` adds them
    (numpy's cumulative sum adds in order; its plain sum adds pairwise, and Python 3.12's sum() compensates)."""
    import numpy as np

    values = column.drop_null().to_numpy()
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def fever_metrics(stats: Stats, rows: int) -> dict[str, Any]:
    """fever_score (strict accuracy) and evidence precision / recall / F1 as the official scorer reports them:
    precision 1 and recall 0 when no claim needs evidence."""
    precision = share(stats["precision"], stats["evidence_rows"])
    recall = share(stats["recall"], stats["evidence_rows"])
    precision = 1.0 if precision is None else precision
    recall = 0.0 if recall is None else recall
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"fever_score": share(stats["strict"], rows), "evidence_precision": precision, "evidence_recall": recall,
            "evidence_f1": f1}
