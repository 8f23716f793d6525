"""The option a reply resembles most, for many rows at once: what extract_choice's last rule gives each row, with
text_similarity computed once per distinct (reply, option text) pair (a refusal read against a million questions'
options meets each option text many times)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.arrow_strings import list_lengths, list_starts
from ...core.distinct import combined_codes, value_codes
from ...text.similarity import text_similarity
from .extraction import ChoiceExtraction, similarity_reading
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

KEPT_SCORES = 200_000  # (reply, option text) scores kept across calls (~200 bytes each with its key)


def best_options(texts: list[str], text_codes: np.ndarray, options: pa.Array, threshold: float, margin: float,
                 scores: dict[tuple[str, str], float] | None = None) -> list[ChoiceExtraction]:
    """Per row, the option its reply (texts[text_codes[row]]) resembles most among its options (a list column of
    one or more texts each): its letter when the score reaches `threshold` and leads the runner-up by `margin`
    (ties go to the later letter), else none; the rounded score either way. `scores` keeps text_similarity's
    results by (reply, option text) across calls (emptied first when this call's pairs would take it past
    KEPT_SCORES)."""
    import numpy as np
    import pyarrow.compute as pc

    counts = list_lengths(options)
    if not len(counts):
        return []
    body_values, body_codes = value_codes(pc.list_flatten(options))
    pairs, pair_of_item = combined_codes(np.repeat(text_codes, counts), body_codes)
    known = {} if scores is None else scores
    keys = [(texts[text], body_values[body]) for text, body in pairs.tolist()]
    if len(known) + len(keys) > KEPT_SCORES:
        known.clear()
    for key in keys:
        if key not in known:
            known[key] = text_similarity(*key)
    similarity = np.array([known[key] for key in keys], np.float64)[pair_of_item]
    rows, width = len(counts), int(counts.max(initial=0))
    grid = np.full((rows, width), -np.inf)
    grid[np.repeat(np.arange(rows), counts),
         np.arange(len(similarity)) - np.repeat(list_starts(counts), counts)] = similarity
    best = grid.max(axis=1, initial=-np.inf)
    best_position = width - 1 - np.argmax(grid[:, ::-1] == best[:, None], axis=1)
    runner_up = np.where(counts > 1, np.sort(grid, axis=1)[:, -2] if width > 1 else 0.0, 0.0)
    chosen = (best >= threshold) & (best - runner_up >= margin)
    readings: dict[tuple[int, bool, float], ChoiceExtraction] = {}
    found = []
    for position, taken, score in zip(best_position.tolist(), chosen.tolist(), best.tolist()):
        key = (position, taken, score)
        if key not in readings:
            readings[key] = similarity_reading(LETTERS[position], score, taken)
        found.append(readings[key])
    return found
