import random

import pytest

from stages import boundary_similarity, compare_boundaries


@pytest.mark.parametrize(
    "hypothesis, reference, expected",
    [  # segeval's own published test values (similarity/boundary_test.py)
        ([2, 3, 6], [5, 6], 0.5),
        ([2, 3, 6], [2, 3, 3, 3], 2 / 3),
        ([2, 3, 6], [2, 2, 7], 0.75),
        ([2, 3, 6], [1, 1, 3, 1, 5], 0.5),
        ([11], [5, 6], 0.0),
        ([5, 6], [11], 0.0),
        ([11], [11], 1.0),
        # Hearst (1997) Stargazer: hypotheses h1, h2 against coders 1 and 2
        ((2, 6, 4, 2, 4, 3), (2, 3, 3, 1, 3, 6, 3), 0.57142857),
        ((2, 1, 1, 1, 5, 8, 2, 1), (2, 3, 3, 1, 3, 6, 3), 0.38888888),
        ((2, 6, 4, 2, 4, 3), (2, 8, 2, 4, 2, 3), 0.42857142),
        ((2, 1, 1, 1, 5, 8, 2, 1), (2, 8, 2, 4, 2, 3), 0.33333333),
    ],
)
def test_published_examples(hypothesis, reference, expected):
    assert boundary_similarity(list(hypothesis), list(reference)) == pytest.approx(expected, abs=1e-8)


def test_edit_counts():
    # [2,3,6] vs [2,2,7]: boundary after unit 2 matches; 5 vs 4 is a near miss (span 1, weight 1/2)
    result = compare_boundaries([2, 3, 6], [2, 2, 7])
    assert (result.matches, result.near_misses, result.insertions, result.deletions) == (1, 1, 0, 0)
    assert result.transposition_weight == 0.5
    # [2,3,6] vs [5,6]: hypothesis adds a boundary after unit 2 (insertion), boundary after 5 matches
    result = compare_boundaries([2, 3, 6], [5, 6])
    assert (result.matches, result.near_misses, result.insertions, result.deletions) == (1, 0, 1, 0)


def test_invalid_segmentations():
    with pytest.raises(ValueError, match="cover"):
        boundary_similarity([2, 3], [6])
    with pytest.raises(ValueError, match="positive integers"):
        boundary_similarity([0, 5], [5])


def test_agrees_with_segeval_on_random_segmentations():
    segeval = pytest.importorskip("segeval")
    rng = random.Random(7)
    for _ in range(400):
        units = rng.randint(1, 40)
        masses = []
        for _ in range(2):
            cuts = sorted(rng.sample(range(1, units), rng.randint(0, units - 1))) if units > 1 else []
            bounds = [0, *cuts, units]
            masses.append([b - a for a, b in zip(bounds, bounds[1:])])
        if len(masses[0]) == len(masses[1]) == 1:
            continue  # no boundary on either side: segeval raises (max of no boundary types); B is 1, tested above
        for n_t in (2, 3, 5):
            expected = float(segeval.boundary_similarity(masses[0], masses[1], n_t=n_t))
            assert boundary_similarity(masses[0], masses[1], n_t=n_t) == pytest.approx(expected, abs=1e-12), masses
