"""Rows numbered by their distinct value, list or combination: every row's number leads back to its own value."""
import math

import numpy as np
import pyarrow as pa
import pytest

from stages.core.distinct import (
    codes_of,
    combined_codes,
    distinct_estimate,
    first_rows,
    first_rows_as_seen,
    list_codes,
    list_item_codes,
    list_row_codes,
    mostly_repeated,
    mostly_repeated_lists,
    per_distinct_value,
    shared_floats,
    shared_values,
    value_codes,
    value_counts,
)


def test_values_and_nulls_are_numbered_once_each():
    values, codes = value_codes(pa.chunked_array([["b", "a"], ["b", None, "a"]]))
    assert len(values) == 3 and set(values) == {"a", "b", None}
    assert [values[c] for c in codes] == ["b", "a", "b", None, "a"]


def test_lists_are_equal_only_item_for_item():
    lists = [["x", "y"], ["x"], ["x", "y"], ["y", "x"], ["x", "y", ""], ["x", "y"], [""]]
    values, codes = list_codes(pa.array(lists))
    assert len(values) == 5
    assert [values[c] for c in codes] == lists


def test_list_items_are_numbered_once_each_and_lists_by_those_numbers():
    lists = pa.array([["x", None], ["y"], ["x", None], [], ["y"], [None, "x"]], pa.list_(pa.string()))
    items, codes = list_item_codes(lists)
    assert [items[c].as_py() for c in codes] == ["x", None, "y", "x", None, "y", None, "x"] and len(items) == 3
    first, rows = list_row_codes(lists, codes)
    python_lists = lists.to_pylist()
    assert sorted(first.tolist()) == [0, 1, 3, 5]  # each distinct list's first row
    assert [python_lists[first[row]] for row in rows] == python_lists
    assert [r.tolist() for r in list_row_codes(lists)] == [first.tolist(), rows.tolist()]


def test_dictionary_encoded_items_are_numbered_by_their_dictionary_unless_it_does_not_fit():
    kind = pa.list_(pa.dictionary(pa.int32(), pa.string()))
    lists = [["x", "y"], ["y"], ["z", "x", "y"], ["x", "y"]]
    encoded = pa.array(lists, kind)
    items, codes = list_item_codes(encoded)
    assert items.equals(encoded.values.dictionary)  # taken as it is, not hashed again
    assert [items[c].as_py() for c in codes] == [item for row in lists for item in row]
    tail = encoded.slice(3)  # the dictionary of the whole column: more values than the slice's two items
    items, codes = list_item_codes(tail)
    assert sorted(items.to_pylist()) == ["x", "y"] and [items[c].as_py() for c in codes] == ["x", "y"]
    with_null = pa.array([["x", None], [None, "y"]], kind)
    items, codes = list_item_codes(with_null)
    assert [items[c].as_py() for c in codes] == ["x", None, None, "y"] and len(items) == 3
    first, rows = list_row_codes(encoded)
    assert [lists[first[row]] for row in rows] == lists and len(first) == 3


def test_codes_of_number_equal_values_alike_null_among_them():
    codes = codes_of(pa.array(["b", None, "a", "b", None, "c"]))
    assert codes.dtype == np.int64 and len(set(codes.tolist())) == 4
    assert codes[0] == codes[3] and codes[1] == codes[4] and len({codes[0], codes[1], codes[2], codes[5]}) == 4


def test_combinations_come_grouped_by_their_first_column():
    distinct, rows = combined_codes(np.array([1, 0, 1, 0, 1]), np.array([5, 5, 7, 5, 5]))
    assert distinct.tolist() == [[0, 5], [1, 5], [1, 7]]
    assert rows.tolist() == [1, 0, 2, 0, 1]
    first, rows = first_rows(np.array([1, 0, 1, 0, 1]), np.array([5, 5, 7, 5, 5]))
    assert first.tolist() == [1, 0, 2] and rows.tolist() == [1, 0, 2, 0, 1]


def test_combinations_of_codes_too_large_to_multiply_are_numbered_in_the_same_order():
    rng = np.random.default_rng(3)
    columns = [rng.integers(0, size, 2_000) for size in (3, 1 << 40, 5, 1 << 35, 1 << 20)]
    columns = [np.concatenate([column, column[:500]]) for column in columns]  # repeated combinations too
    distinct, rows = combined_codes(*columns)
    combinations = list(zip(*(column.tolist() for column in columns)))
    assert [tuple(row) for row in distinct.tolist()] == sorted(set(combinations))
    assert [tuple(distinct[row]) for row in rows.tolist()] == combinations


def test_combinations_numbered_as_seen_are_those_of_first_rows_in_order_of_their_first_row():
    rng = np.random.default_rng(5)
    columns = [rng.integers(0, size, 5_000) for size in (4, 1 << 40, 7, 1 << 35)]
    columns = [np.concatenate([column, column[::-3]]) for column in columns]
    first, rows = first_rows_as_seen(*columns)
    combinations = list(zip(*(column.tolist() for column in columns)))
    assert first.tolist() == sorted({combination: row for row, combination in reversed(list(enumerate(combinations)))}
                                    .values())  # each combination's first row, in row order
    assert [combinations[first[row]] for row in rows.tolist()] == combinations
    assert first_rows_as_seen(np.array([1, 0, 1, 0]), np.array([5, 5, 7, 5]))[1].tolist() == [0, 1, 2, 1]
    assert [len(part) for part in first_rows_as_seen(np.zeros(0, np.int64))] == [0, 0]


def test_long_lists_of_many_items_are_numbered_item_for_item():
    rng = np.random.default_rng(4)
    lists = [[f"t{value}" for value in rng.integers(0, 100_000, rng.integers(0, 9))] for _ in range(3_000)]
    lists += lists[:700] + [lists[1][:-1], lists[2] + ["t1"]]
    first, rows = list_row_codes(pa.array(lists, pa.list_(pa.string())))
    assert [lists[first[row]] for row in rows.tolist()] == lists
    assert len(first) == len({tuple(items) for items in lists})


@pytest.mark.parametrize("distinct", [1_000, 20_000, 200_000, 1_000_000])
def test_the_distinct_values_a_sample_holds_lead_back_to_how_many_there_are(distinct):
    rows, sample = 2_000_000, 50_000
    values = np.arange(rows) % distinct  # equally common values
    seen = len(np.unique(np.random.default_rng(1).choice(values, sample, replace=False)))
    assert distinct_estimate(seen, sample, rows) == pytest.approx(distinct, rel=0.05)
    assert distinct_estimate(sample, sample, rows) == math.inf


def test_a_column_mostly_repeats_when_few_of_its_values_differ_sampled_or_counted():
    rows = 400_000
    repeated = pa.array([f"answer {i % 30_000}" for i in range(rows)])
    distinct = pa.array([f"answer {i}" for i in range(rows)])
    half = pa.array([f"answer {i % (rows // 2)}" for i in range(rows)])
    assert mostly_repeated(repeated, 1 / 3) and not mostly_repeated(distinct, 1 / 3)
    assert not mostly_repeated(half, 1 / 3) and mostly_repeated(half, 0.6)
    assert mostly_repeated(pa.array(["a", "b", "a", None, None, "a"]), 0.5)  # short: counted (nulls one value)
    assert not mostly_repeated(pa.array(["a", "b", "c", None]), 0.5)


def test_a_list_column_mostly_repeats_when_few_of_its_lists_differ_item_for_item():
    rows = 200_000
    repeated = pa.array([[f"option {i % 1_000}", "same"] for i in range(rows)])
    distinct = pa.array([[f"option {i % 1_000}", f"{i // 1_000}"] for i in range(rows)])  # each item repeats
    assert mostly_repeated_lists(repeated, 1 / 3) and not mostly_repeated_lists(distinct, 1 / 3)
    assert mostly_repeated_lists(pa.array([["a", "b"], ["a", "b"], ["b", "a"], ["a", "b"]]), 0.5)  # short: counted
    assert not mostly_repeated_lists(pa.array([["a", "b"], ["b", "a"], ["a"], ["a", "b"]]), 0.5)


def test_one_call_per_distinct_value():
    calls = []
    results, codes = per_distinct_value(lambda v: calls.append(v) or f"<{v}>", pa.array(["b", "a", "b", "b"]))
    assert sorted(calls) == ["a", "b"]
    assert [results[c] for c in codes] == ["<b>", "<a>", "<b>", "<b>"]
    assert value_counts(pa.array(["b", "a", "b"])) == {"b": 2, "a": 1}


def test_shared_values_keep_every_value_and_hold_one_object_per_distinct_value():
    scores = [float(x) / 4 for x in (0, 4, 1, 0, 4, 3, 2)] + [None, 0.25]
    shared = shared_values(scores)
    assert shared == scores
    assert len({id(value) for value in shared}) == len(set(scores))  # 0.0, 1.0, 0.25, 0.75, 0.5, None
    assert shared[2] is shared[-1] and shared[0] is shared[3]


def test_shared_floats_read_an_arrow_column_as_shared_values_do():
    scores = [float(x) / 4 for x in (0, 4, 1, 0, 4, 3, 2)] + [None, 0.25]
    column = pa.chunked_array([pa.array(scores[:4]), pa.array(scores[4:])])
    shared = shared_floats(column)
    assert shared == scores
    assert len({id(value) for value in shared}) == len(set(scores))
    assert shared[2] is shared[-1] and shared[0] is shared[3] and shared[-2] is None
    assert shared_floats(pa.array([1, None, 1], pa.int8())) == [1.0, None, 1.0]
