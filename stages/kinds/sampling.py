"""Several replies per item, item by item (B5): how many replies each item has and how many are right, each paired
metric's mean over the item's replies, and whether the majority answer of its first k replies is right (maj@k)."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from math import comb
from typing import Any

RIGHT = ("right",)  # every right answer equals the gold, so all of them are one answer in a vote


def k_values(n: int) -> list[int]:
    """k = 1, 2, 4, … below n, and n itself."""
    found, k = [], 1
    while k < n:
        found.append(k)
        k *= 2
    return [*found, n] if n >= 1 else []


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of an item with c right of n replies: 1 − C(n−c, k) / C(n, k), the chance that k replies
    drawn from the n without replacement hold a right one; an item with fewer than k replies is read at k = n."""
    if n <= 0:
        return 0.0
    k = min(k, n)
    return 1.0 - comb(n - c, k) / comb(n, k)


def majority_right(votes: Sequence[Hashable | None]) -> bool:
    """Whether the most frequent answer among `votes` (None: a reply without an answer, no vote) is the right one;
    a tie goes to the answer seen first."""
    counts: dict[Hashable, int] = {}
    for vote in votes:
        if vote is not None:
            counts[vote] = counts.get(vote, 0) + 1
    if not counts:
        return False
    best = max(counts.values())
    return next(vote for vote in counts if counts[vote] == best) == RIGHT


def item_means(ids: Sequence[Any], values: dict[str, Sequence[float | None]]) -> tuple[list[str], dict[str, list]]:
    """Each item once (in the order items first appear) with each metric's mean over its rows (None where none is
    defined): a model's per-item values when it has several replies per item."""
    order: dict[str, list[int]] = {}
    for row, item in enumerate(ids):
        order.setdefault(str(item), []).append(row)
    return list(order), {metric: [_mean([column[row] for row in rows]) for rows in order.values()]
                         for metric, column in values.items()}


def item_samples(ids: Sequence[Any], samples: Sequence[int | None], right: Sequence[float | None],
                 values: dict[str, Sequence[float | None]], answers: Sequence[Hashable | None] | None) -> dict[str, Any]:
    """Per item, in the order items first appear (their rows in sample order): `replies` (rows with a reply that the
    kind decided), `right`, `means` of each paired metric over the item's rows (None where none is defined) and,
    with the kind's `answers` to vote on, `maj` per k of k_values(the most replies of an item) as 0 / 1."""
    order: dict[str, list[int]] = {}
    for row, item in enumerate(ids):
        order.setdefault(str(item), []).append(row)
    decided = [[row for row in rows if samples[row] is not None and right[row] is not None] for rows in order.values()]
    items, means = item_means(ids, values)
    found: dict[str, Any] = {"id": items, "replies": [len(rows) for rows in decided],
                             "right": [sum(right[row] == 1.0 for row in rows) for rows in decided], "means": means}
    if answers is not None:
        votes = [[RIGHT if right[row] == 1.0 else None if answers[row] is None else ("wrong", answers[row])
                  for row in rows] for rows in decided]
        found["maj"] = {str(k): [int(majority_right(item[:k])) for item in votes]
                        for k in k_values(max(found["replies"], default=0))}
    return found


def _mean(values: list[float | None]) -> float | None:
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None
