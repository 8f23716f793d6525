"""Several replies per item: the unbiased pass@k against values worked out by hand, maj@k with ties and with answers
equal only by the kind's rule, and the per-item arrays B5 keeps."""
import random

import pytest

from stages.kinds.sampling import (
    RIGHT,
    answer_groups,
    grouping_decides,
    item_samples,
    k_values,
    majority_right,
    pass_at_k,
)

# 1 − C(5−c, k) / C(5, k), by hand: C(5, k) = 5, 10, 10, 5, 1 for k = 1 … 5.
BY_HAND = {
    0: [0.0, 0.0, 0.0, 0.0, 0.0],
    1: [1 - 4 / 5, 1 - 6 / 10, 1 - 4 / 10, 1 - 1 / 5, 1.0],
    2: [1 - 3 / 5, 1 - 3 / 10, 1 - 1 / 10, 1.0, 1.0],
    3: [1 - 2 / 5, 1 - 1 / 10, 1.0, 1.0, 1.0],
    4: [1 - 1 / 5, 1.0, 1.0, 1.0, 1.0],
    5: [1.0, 1.0, 1.0, 1.0, 1.0],
}


@pytest.mark.parametrize("right", range(6))
def test_pass_at_k_for_five_replies(right):
    assert [pass_at_k(5, right, k) for k in range(1, 6)] == pytest.approx(BY_HAND[right], abs=1e-12)


def test_pass_at_k_edges():
    assert pass_at_k(5, 0, 5) == 0.0  # no right reply is never a pass
    assert pass_at_k(0, 0, 1) == 0.0  # an item without a reply
    assert pass_at_k(2, 1, 4) == pass_at_k(2, 1, 2) == 1.0  # fewer replies than k: read at k = n
    assert k_values(8) == [1, 2, 4, 8] and k_values(5) == [1, 2, 4, 5] and k_values(1) == [1] and k_values(0) == []


def test_majority_with_ties_going_to_the_answer_seen_first():
    wrong_three = ("wrong", "3")
    assert majority_right([RIGHT, wrong_three, RIGHT, wrong_three]) is True
    assert majority_right([wrong_three, RIGHT, RIGHT, wrong_three]) is False
    assert majority_right([None, None, RIGHT]) is True  # replies without an answer do not vote
    assert majority_right([None, None]) is False


def test_item_samples_vote_right_answers_as_one_answer():
    """0.5 and 1/2 are both right (equal to the gold by the kind's rule): together they outvote two 3s seen first."""
    ids = ["p", "p", "p", "p", "q", "q"]
    samples = [0, 1, 2, 3, 0, None]  # q's second row: no reply
    right = [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    answers = ["3", "3", "0.5", "1/2", "7", None]
    found = item_samples(ids, samples, right, {"accuracy": right}, answers)
    assert found["id"] == ["p", "q"] and found["replies"] == [4, 1] and found["right"] == [2, 1]
    assert found["means"] == {"accuracy": [0.5, 0.5]}
    assert found["maj"] == {"1": [0, 1], "2": [0, 1], "4": [0, 1]}  # p: 3, 3, then a tie the 3s saw first
    assert item_samples(ids, samples, right, {"accuracy": right}, None).get("maj") is None


def test_maj_on_whole_arrays_follows_the_rule_item_by_item():
    """2,000 items of random replies (right, one of three wrong answers, or none; some rows undecided): every maj@k
    equals majority_right on the item's first k decided replies."""
    rng = random.Random(7)
    ids, samples, right, answers = [], [], [], []
    for item in range(2000):
        for sample in range(rng.randint(1, 9)):
            kind = rng.choice(["right", "a", "b", "c", None, "undecided"])
            ids.append(f"i{item}")
            samples.append(None if kind == "undecided" and rng.random() < 0.5 else sample)
            right.append(None if kind == "undecided" else 1.0 if kind == "right" else 0.0)
            answers.append(None if kind in (None, "undecided") else "x" if kind == "right" else kind)
    found = item_samples(ids, samples, right, {"m": right}, answers)
    votes: dict[str, list] = {}
    for item, sample, r, answer in zip(ids, samples, right, answers):
        if sample is not None and r is not None:
            votes.setdefault(item, []).append(RIGHT if r == 1.0 else None if answer is None else ("wrong", answer))
    for k, values in found["maj"].items():
        assert values == [int(majority_right(votes.get(item, [])[:int(k)])) for item in found["id"]]
    assert found["replies"] == [len(votes.get(item, [])) for item in found["id"]]


def test_answer_groups_join_answers_equal_by_the_kinds_rule_within_an_item_only():
    """Equal through a third answer (a ~ b, b ~ c) is one group named by the item's first; another item's equal
    answer stays its own; each item's distinct pairs are asked once, in one batch."""
    asked = []

    def close(pairs):
        asked.append(pairs)
        return [abs(a - b) <= 1 for a, b in pairs]

    ids = ["p", "p", "p", "p", "q", "q", "r"]
    answers = [10.0, 12.0, 11.0, None, 11.0, 30.0, 5.0]
    assert answer_groups(ids, answers, close) == [10.0, 10.0, 10.0, None, 11.0, 30.0, 5.0]
    assert asked == [[(10.0, 12.0), (10.0, 11.0), (12.0, 11.0), (11.0, 30.0)]]
    assert answer_groups(["p", "q"], [1.0, 1.5], close) == [1.0, 1.5] and len(asked) == 1  # nothing to compare


def test_grouping_only_the_items_it_can_decide_gives_every_maj_at_k_of_grouping_them_all():
    """Random items of 1–12 replies (right, one of five wrong answers in two equality classes, no answer, not
    decided): wrong answers grouped only in the items grouping_decides names give the same maj@k for every k."""
    rng = random.Random(7)
    same_class = {"a": 0, "b": 0, "c": 1, "d": 1, "e": 1}

    def equal(pairs):
        return [same_class[x] == same_class[y] for x, y in pairs]

    ids, samples, right, answers = [], [], [], []
    for item in range(400):
        for sample in range(rng.randint(1, 12)):
            kind = rng.choice(["right", "right", "a", "b", "c", "d", "e", None, "undecided"])
            ids.append(f"i{item}")
            samples.append(sample)
            right.append(None if kind == "undecided" else kind == "right")
            answers.append(None if kind in (None, "undecided") else "x" if kind == "right" else kind)
    decides = grouping_decides(ids, right, answers)
    every = answer_groups(ids, [a if r is False else None for a, r in zip(answers, right)], equal)
    some = answer_groups(ids, [a if r is False and i in decides else None for i, a, r in zip(ids, answers, right)],
                         equal)
    all_grouped = [a if r else v for a, r, v in zip(answers, right, every)]
    some_grouped = [a if r or (r is False and i not in decides) else v for i, a, r, v in zip(ids, answers, right, some)]
    scores = [None if r is None else float(r) for r in right]
    full = item_samples(ids, samples, scores, {}, all_grouped)["maj"]
    assert item_samples(ids, samples, scores, {}, some_grouped)["maj"] == full
    assert 0 < len(decides) < 400  # some items need the grouping, most do not
    assert grouping_decides(["p"] * 3, [True, False, False], ["x", "a", "c"]) == {"p"}  # a ~ c would outvote x
    assert grouping_decides(["p"] * 3, [True, True, False], ["x", "x", "a"]) == set()


def test_maj_when_no_reply_of_any_item_gives_an_answer():
    """Two items × two replies naming no letter: no votes at all, so maj@k is 0 for every item (it was an IndexError
    that failed B5 for the dataset)."""
    found = item_samples(["a", "a", "b", "b"], [0, 1, 0, 1], [0.0] * 4, {"m": [0.0] * 4}, [None] * 4)
    assert found["maj"] == {"1": [0, 0], "2": [0, 0]} and found["right"] == [0, 0]
