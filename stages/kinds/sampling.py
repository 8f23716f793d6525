"""Several replies per item, item by item (B5): how many replies each item has and how many are right, each paired
metric's mean over the item's replies, and whether the majority answer of its first k replies is right (maj@k)."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from math import comb
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

RIGHT = ("right",)  # every right answer equals the gold, so all of them are one answer in a vote
GROUPED_ANSWERS = 64  # an item's first distinct answers compared pair by pair by answer_groups; later ones by value


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


def answer_groups(ids: Sequence[Any], answers: Sequence[Any],
                  same: Callable[[list[tuple[Any, Any]]], list[bool | None]]) -> list[Any]:
    """Each answer replaced by the first answer of its item (in row order) that it equals by `same` — the kind's own
    equality, asked for a batch of pairs — directly or through others; None stays None: what maj@k votes on."""
    keys: dict[tuple[str, Any], int] = {}  # (item, distinct answer) → its number, in the order first seen
    by_item: dict[str, list[Any]] = {}
    for item, answer in zip(ids, answers):
        if answer is not None and (str(item), answer) not in keys:
            keys[(str(item), answer)] = len(keys)
            by_item.setdefault(str(item), []).append(answer)
    pairs, numbers = [], []
    for item, distinct in by_item.items():
        compared = distinct[:GROUPED_ANSWERS]
        for i, first in enumerate(compared):
            for second in compared[i + 1:]:
                pairs.append((first, second))
                numbers.append((keys[(item, first)], keys[(item, second)]))
    leader = list(range(len(keys)))

    def root(number: int) -> int:
        while leader[number] != number:
            leader[number] = leader[leader[number]]
            number = leader[number]
        return number

    for (first, second), equal in zip(numbers, same(pairs) if pairs else []):
        if equal:
            one, two = root(first), root(second)
            leader[max(one, two)] = min(one, two)
    answer_of = {number: answer for (_, answer), number in keys.items()}
    return [None if answer is None else answer_of[root(keys[(str(item), answer)])]
            for item, answer in zip(ids, answers)]


def grouping_decides(ids: Sequence[Any], right: Sequence[bool | None], answers: Sequence[Any]) -> set[str]:
    """The items whose maj@k, for some k of their first replies (rows in order), depends on which of their wrong
    `answers` are equal: all of them merged and none merged give different winners. Only these need answer_groups."""
    replies: dict[str, list[tuple[bool | None, Any]]] = {}
    for item, verdict, answer in zip(ids, right, answers):
        replies.setdefault(str(item), []).append((verdict, answer))
    return {item for item, rows in replies.items() if _grouping_decides(rows)}


def _grouping_decides(rows: list[tuple[bool | None, Any]]) -> bool:
    right, right_first, counts, firsts = 0, 0, {}, {}
    for rank, (verdict, answer) in enumerate(rows):
        if verdict is True:
            right_first = rank if right == 0 else right_first
            right += 1
        elif verdict is False and answer is not None:
            counts[answer] = counts.get(answer, 0) + 1
            firsts.setdefault(answer, rank)
        if right == 0 or not counts:
            continue  # no right vote: wrong wins however they group; no wrong vote: right wins
        wrong, wrong_first = sum(counts.values()), min(firsts.values())
        if right > wrong or (right == wrong and right_first < wrong_first):
            continue  # right beats all wrong answers merged into one
        if any(n > right or (n == right and firsts[a] < right_first) for a, n in counts.items()):
            continue  # one wrong answer alone beats right
        return True
    return False


def item_means(ids: Sequence[Any], values: dict[str, Sequence[float | None]]) -> tuple[list[str], dict[str, list]]:
    """Each item once (in the order items first appear) with each metric's mean over its rows (None where none is
    defined): a model's per-item values when it has several replies per item."""
    codes, items = _item_codes(ids)
    return items, {metric: _means(codes, len(items), column) for metric, column in values.items()}


def item_samples(ids: Sequence[Any] | pa.ChunkedArray, samples: Sequence[int | None], right: Sequence[float | None],
                 values: dict[str, Sequence[float | None]], answers: Sequence[Hashable | None] | None) -> dict[str, Any]:
    """Per item, in the order items first appear (their rows in sample order): `replies` (rows with a reply that the
    kind decided), `right`, `means` of each paired metric over the item's rows (None where none is defined) and,
    with the kind's `answers` to vote on, `maj` per k of k_values(the most replies of an item) as 0 / 1."""
    import numpy as np

    codes, items = _item_codes(ids)
    rights = np.array(right, dtype=np.float64)
    decided = ~np.isnan(np.array(samples, dtype=np.float64)) & ~np.isnan(rights)
    replies = np.bincount(codes[decided], minlength=len(items))
    found: dict[str, Any] = {"id": items, "replies": replies.tolist(),
                             "right": np.bincount(codes[decided & (rights == 1.0)], minlength=len(items)).tolist(),
                             "means": {metric: _means(codes, len(items), column) for metric, column in values.items()}}
    if answers is not None:
        found["maj"] = _majorities(codes[decided], len(items), (rights == 1.0)[decided],
                                   [answers[row] for row in np.flatnonzero(decided)],
                                   k_values(int(replies.max(initial=0))))
    return found


def _item_codes(ids: Sequence[Any] | pa.Array | pa.ChunkedArray) -> tuple[Any, list[str]]:
    """Each row's item number (items numbered in the order they first appear) and the items' ids (an Arrow column of
    text ids numbered as it is, by its dictionary)."""
    import pandas as pd
    import pyarrow as pa

    if isinstance(ids, (pa.Array, pa.ChunkedArray)):
        if pa.types.is_string(ids.type) and not ids.null_count:
            import pyarrow.compute as pc

            encoded = pc.dictionary_encode(ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids)
            return encoded.indices.to_numpy().astype("int64"), encoded.dictionary.to_pylist()
        ids = ids.to_pylist()
    codes, items = pd.factorize(pd.Series([str(item) for item in ids], dtype=object), sort=False)
    return codes, [str(item) for item in items]


def _means(codes: Any, items: int, column: Sequence[float | None]) -> list[float | None]:
    import numpy as np

    values = np.array(column, dtype=np.float64)
    defined = ~np.isnan(values)
    counts = np.bincount(codes[defined], minlength=items)
    sums = np.bincount(codes[defined], weights=values[defined], minlength=items)
    return [float(total / count) if count else None for total, count in zip(sums.tolist(), counts.tolist())]


def _majorities(codes: Any, items: int, right: Any, answers: list[Hashable | None], ks: list[int]) -> dict[str, list]:
    """maj@k per k as 0 / 1 per item, by majority_right's rule on whole arrays: each reply a vote (all right
    replies one answer; wrong ones grouped by their answer; no answer, no vote), an item's first k replies counted,
    the most votes winning and a tie going to the answer seen first."""
    import numpy as np
    import pandas as pd

    wrong, _ = pd.factorize(pd.Series([None if r else a for r, a in zip(right.tolist(), answers)], dtype=object))
    vote = np.where(right, 0, np.where(wrong >= 0, wrong + 1, -1))  # 0: the right answer; -1: no vote
    order = np.argsort(codes, kind="stable")  # rows by item, each item's in sample order
    codes, vote = codes[order], vote[order]
    starts = np.r_[0, np.flatnonzero(np.diff(codes)) + 1]
    rank = np.arange(len(codes)) - np.repeat(starts, np.diff(np.r_[starts, len(codes)]))
    found = {}
    for k in ks:
        keep = (rank < k) & (vote >= 0)
        majority = np.zeros(items, dtype=np.int64)
        if not keep.any():  # no reply of any item gave an answer: no item has a majority
            found[str(k)] = majority.tolist()
            continue
        pair = codes[keep].astype(np.int64) * (int(vote.max(initial=0)) + 1) + vote[keep]
        pairs, first, counts = np.unique(pair, return_index=True, return_counts=True)
        owner = codes[keep][first]
        winner = np.lexsort((rank[keep][first], -counts, owner))  # per item: most votes, then seen first
        best = winner[np.r_[True, owner[winner][1:] != owner[winner][:-1]]]
        majority[owner[best]] = (vote[keep][first][best] == 0).astype(np.int64)
        found[str(k)] = majority.tolist()
    return found
