"""Boundary Similarity B (Fournier 2013) for one boundary type, as segeval computes it: near misses
(transpositions within n_t positions, weighted by span / n_t) cost less than additions or deletions."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoundaryComparison:
    """B and the edits behind it: boundaries placed exactly, near misses, insertions (hypothesis only) and
    deletions (reference only)."""

    similarity: float
    matches: int
    near_misses: int
    insertions: int
    deletions: int
    transposition_weight: float


def boundary_string(masses: list[int] | tuple[int, ...]) -> list[bool]:
    """One flag per potential boundary position between units: True where a segment ends ([2, 3] → F T F F)."""
    if not masses or any(not isinstance(m, int) or m < 1 for m in masses):
        raise ValueError(f"segment masses must be positive integers, got {list(masses)}")
    flags = [False] * (sum(masses) - 1)
    position = 0
    for mass in masses[:-1]:
        position += mass
        flags[position - 1] = True
    return flags


def compare_boundaries(hypothesis_masses: list[int], reference_masses: list[int], n_t: int = 2) -> BoundaryComparison:
    """Boundary edit distance between two segmentations of the same units, and B from it."""
    hypothesis, reference = boundary_string(hypothesis_masses), boundary_string(reference_masses)
    if len(hypothesis) != len(reference):
        raise ValueError(f"segmentations cover {sum(hypothesis_masses)} and {sum(reference_masses)} units")
    transposed: set[int] = set()
    spans: list[int] = []
    for span in range(1, n_t):
        for i in range(len(hypothesis) - span):
            j = i + span
            if (
                hypothesis[i] != reference[i] and hypothesis[j] != reference[j] and hypothesis[i] != hypothesis[j]
                and i not in transposed and j not in transposed
            ):
                transposed.update((i, j))
                spans.append(span)
    insertions = deletions = matches = 0
    for position, (h, r) in enumerate(zip(hypothesis, reference)):
        if h and r:
            matches += 1
        elif h != r and position not in transposed:
            insertions += h
            deletions += r
    weight = sum(spans) / n_t
    denominator = insertions + deletions + len(spans) + matches
    edits = insertions + deletions + weight
    similarity = (denominator - edits) / denominator if denominator else 1.0
    return BoundaryComparison(similarity, matches, len(spans), insertions, deletions, weight)


def boundary_similarity(hypothesis_masses: list[int], reference_masses: list[int], n_t: int = 2) -> float:
    """Boundary Similarity B in [0, 1] between two segmentations given as segment masses (segeval's default)."""
    return compare_boundaries(hypothesis_masses, reference_masses, n_t).similarity
