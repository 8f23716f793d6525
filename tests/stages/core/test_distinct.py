"""per_distinct_row: one call per distinct row, results back in row order; values of other types stay apart."""
from stages.core.distinct import per_distinct_row


def test_one_call_per_distinct_row_and_results_in_row_order():
    calls = []
    rows = ["b", "a", "b", None, "a", "b"]
    assert per_distinct_row(lambda v: calls.append(v) or f"<{v}>", rows) == [f"<{v}>" for v in rows]
    assert calls == ["b", "a", None]


def test_lists_and_tables_are_keys_and_equal_numbers_of_other_types_stay_apart():
    calls = []
    options = [["x", "y"], {"A": "x"}, ["x", "y"], {"A": "x"}]
    assert per_distinct_row(lambda r, o: calls.append((r, o)) or len(o), ["r"] * 4, options) == [2, 1, 2, 1]
    assert len(calls) == 2
    assert per_distinct_row(str, [True, 1, 1.0, "1"]) == ["True", "1", "1.0", "1"]


def test_grouped_rows_are_computed_one_group_after_another():
    calls = []
    replies, options = ["r1", "r2", "r3", "r4", "r1"], [["a"], ["b"], ["a"], ["b"], ["a"]]
    per_distinct_row(lambda r, o: calls.append((r, o[0])), replies, options, grouped_by=1)
    assert calls == [("r1", "a"), ("r3", "a"), ("r2", "b"), ("r4", "b")]
