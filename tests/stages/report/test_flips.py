"""Between two runs: the items that flipped on the primary metric, and each change's bootstrap interval."""
from stages.report.flips import flipped_items, item_values, with_intervals


def _columns(dataset, model, metric, values):
    ids = [str(i) for i in range(len(values))]
    n = len(values)
    return {"dataset": [dataset] * n, "model": [model] * n, "metric": [metric] * n, "test": ["binary"] * n,
            "id": ids, "value": values}


def test_only_one_and_zero_flip_on_the_primary_metric():
    before = item_values(_columns("d", "m", "em", [1.0, 0.0, 1.0, 0.5, None, 0.0, 1.0]))
    after = item_values(_columns("d", "m", "em", [0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 0.0]))
    with_f1 = {**before, **item_values(_columns("d", "m", "f1", [1.0, 1.0]))}
    flips, counts = flipped_items(with_f1, {**after, **item_values(_columns("d", "m", "f1", [0.0, 0.0]))},
                                  {"d": "em"})  # f1 is not d's primary metric: its items never flip
    assert [(f["id"], f["direction"]) for f in flips] == [("0", "right → wrong"), ("6", "right → wrong"),
                                                          ("1", "wrong → right")]
    assert counts == {("d", "m", "right → wrong"): 2, ("d", "m", "wrong → right"): 1}
    capped, counts = flipped_items(before, after, {"d": "em"}, cap=1)
    assert [f["id"] for f in capped] == ["0", "1"] and counts[("d", "m", "right → wrong")] == 2


def test_each_change_has_the_interval_of_its_paired_differences():
    before = item_values(_columns("d", "m", "em", [1.0] * 40))
    after = item_values(_columns("d", "m", "em", [0.0] * 10 + [1.0] * 30))
    comparison = {"dataset": "d", "model": "m", "metric": "em", "delta": -0.25}
    shown = with_intervals([comparison, {**comparison, "model": "other", "delta": None}], before, after)[0]
    assert shown["low"] < -0.25 < shown["high"] and -0.45 < shown["low"] and shown["high"] < -0.1
    same = with_intervals([comparison], before, before)[0]
    assert (same["low"], same["high"]) == (0.0, 0.0)
    assert with_intervals([{**comparison, "model": "other", "delta": None}], before, after)[0]["low"] is None
