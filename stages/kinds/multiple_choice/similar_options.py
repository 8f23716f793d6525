"""The option a reply resembles most, for many rows at once: what extract_choice's last rule gives each row, with
text_similarity computed once per distinct (reply, option text) pair (a refusal read against a million questions'
options meets each option text many times), pairs numbered so the bookkeeping stays in numpy."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ...core.arrow_strings import list_starts
from ...text.similarity import text_similarity
from .extraction import ChoiceExtraction, similarity_reading
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np

KEPT_SCORES = 1_000_000  # (reply, option text) scores kept across calls: 16 bytes each with its key


class KeptScores:
    """Scores by int64 key kept across calls, as sorted keys beside their scores; emptied first when a call's new
    keys would take it past KEPT_SCORES."""

    def __init__(self) -> None:
        import numpy as np

        self.keys, self.scores = np.zeros(0, np.int64), np.zeros(0, np.float64)

    def __len__(self) -> int:
        return len(self.keys)

    def of(self, keys: np.ndarray, compute: Callable[[int], float]) -> np.ndarray:
        """The score of each key: kept, or compute(key) once per distinct key not kept (then kept)."""
        import numpy as np

        distinct, inverse = np.unique(keys, return_inverse=True)
        at = np.searchsorted(self.keys, distinct).clip(max=max(len(self.keys) - 1, 0))
        kept = self.keys[at] == distinct if len(self.keys) else np.zeros(len(distinct), bool)
        scores = np.empty(len(distinct), np.float64)
        scores[kept] = self.scores[at[kept]]
        new = distinct[~kept]
        scores[~kept] = [compute(key) for key in new.tolist()]
        if len(self.keys) + len(new) > KEPT_SCORES:
            self.keys, self.scores = self.keys[:0], self.scores[:0]
        keys_now = np.concatenate([self.keys, new])
        order = np.argsort(keys_now, kind="stable")
        self.keys, self.scores = keys_now[order], np.concatenate([self.scores, scores[~kept]])[order]
        return scores[inverse.reshape(-1)]


def best_options(texts: Mapping[int, str], reply_keys: np.ndarray, option_codes: np.ndarray, counts: np.ndarray,
                 bodies: list[str], threshold: float, margin: float,
                 kept: KeptScores | None = None) -> list[ChoiceExtraction]:
    """Per row, the option its reply (texts[reply_keys[row]]) resembles most among its options (`counts[row]` of
    them, one or more, as indices into `bodies`, the rows' options laid end to end): its letter when the score
    reaches `threshold` and leads the runner-up by `margin` (ties go to the later letter), else none; the rounded
    score either way. `kept` keeps text_similarity's results across calls (by reply key and option index)."""
    import numpy as np

    if not len(counts):
        return []
    width_of_bodies = max(len(bodies), 1)
    pair_keys = np.repeat(reply_keys.astype(np.int64), counts) * width_of_bodies + option_codes
    similarity = (kept if kept is not None else KeptScores()).of(
        pair_keys, lambda key: text_similarity(texts[key // width_of_bodies], bodies[key % width_of_bodies]))
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
