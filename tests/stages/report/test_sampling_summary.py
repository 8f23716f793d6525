"""B6's figures for several replies per item: intervals over items, shards merged, short and sometimes-right items."""
from stages.report.sampling import merge_items, sampling_line, sampling_rows, sampling_summary


def _items(replies, right):
    ids = [f"i{n}" for n in range(len(replies))]
    return {"id": ids, "replies": replies, "right": right,
            "means": {"accuracy": [r / n if n else 0.0 for n, r in zip(replies, right)]}}


def test_the_interval_keeps_an_items_replies_together():
    """Copying one item's replies 100 times changes neither avg@n's interval nor its value (items are resampled,
    not replies)."""
    base = _items([4, 4, 4, 4, 4, 4], [0, 1, 2, 3, 4, 2])
    copied = _items([400, 4, 4, 4, 4, 4], [0, 1, 2, 3, 4, 2])
    first, second = sampling_summary(base)["avg"]["accuracy"], sampling_summary(copied)["avg"]["accuracy"]
    assert first == second and first["value"] == 0.5 and first["low"] < 0.5 < first["high"]


def test_summary_names_short_and_sometimes_right_items():
    summary = sampling_summary(_items([4, 2, 4, 0], [4, 1, 1, 0]))
    assert summary["n"] == 4 and summary["items"] == 4 and summary["replies"] == 10
    assert summary["short_items"] == {"count": 2, "named": [{"id": "i1", "replies": 2}, {"id": "i3", "replies": 0}]}
    assert summary["sometimes_right"]["named"] == [{"id": "i2", "right": 1, "replies": 4},
                                                   {"id": "i1", "right": 1, "replies": 2}]
    # pass@1 = mean of c / n (an item without replies 0): (1 + 0.5 + 0.25 + 0) / 4
    assert summary["pass"]["1"]["value"] == 1.75 / 4
    assert summary["pass"]["4"]["value"] == (1 + 1 + (1 - 0) + 0) / 4  # i1 read at k = 2; i2: C(3,4) = 0


def test_shards_merge_with_their_largest_k_for_larger_ones():
    one = {**_items([2, 2], [1, 2]), "maj": {"1": [0, 1], "2": [1, 1]}}
    two = {**_items([4], [3]), "maj": {"1": [1], "2": [1], "4": [1]}}
    merged = merge_items([one, two])
    assert merged["maj"] == {"1": [0, 1, 1], "2": [1, 1, 1], "4": [1, 1, 1]}
    assert merged["replies"] == [2, 2, 4] and sampling_summary(merged)["maj"]["1"] == 2 / 3


def test_without_a_single_reply_no_figure_is_given():
    """Every reply set aside (a dead server): avg@n has no value (not the 0 of unanswered items), pass@k and maj@k
    none, and the console's line and report.html's row give no figure."""
    summary = sampling_summary({**_items([0, 0, 0], [0, 0, 0]), "maj": {}})
    assert (summary["n"], summary["replies"], summary["pass"], summary["maj"]) == (0, 0, {}, {})
    assert summary["avg"]["accuracy"] == {"value": None, "low": None, "high": None}
    line = sampling_line("m", summary, "accuracy")
    assert line == "m: 3 items, not one reply: no avg@n, pass@k or maj@k"
    report = {"comparison": {"primary_metric": "accuracy"}, "samples": {"m": summary}}
    (row,) = sampling_rows(report)
    assert (row["n"], row["avg"], row["pass"], row["maj"]) == ("0", "accuracy n/a", "-", "-")
