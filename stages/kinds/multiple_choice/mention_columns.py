"""Which rows' replies hold one of their options' texts, on whole columns: a case-folded substring search per
(reply, option) pair in numpy, and the rows whose reply is exactly one option's text."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.distinct import value_codes
from .extraction import compared_option_text, is_one_character
from .option_mentions import has_dotted_i, whole_reply
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

SEARCH_PAIRS = 500_000


@dataclass(frozen=True)
class OptionTextMentions:
    """Per row, whether the reply holds any of its options' texts (ignoring case); and the rows whose reply is
    exactly one option's text (and not a lone character), with that option's letter."""

    any_mention: np.ndarray
    equal_rows: list[int]
    equal_letters: list[str]
    compared: dict[str, str]

    def compared_options(self, options: list[str]) -> dict[str, str]:
        """A row's options as _compared_options gives them, from the texts compared here."""
        bodies = ((letter, self.compared[option]) for letter, option in zip(LETTERS, options))
        return {letter: body for letter, body in bodies if body}


def option_text_mentions(texts: list[str | None], reply_codes: np.ndarray, options: pa.Array,
                         counts: np.ndarray) -> OptionTextMentions:
    """Mentions of each row's options (`options`: lists of texts, `counts` their lengths) in its reply
    (texts[reply_codes[row]], as reply_text gives, None when missing), as option_mentions finds them: a reply
    without a mention here has none there, and an equal one is an equal one there."""
    import numpy as np
    import pyarrow.compute as pc

    strings = np.dtypes.StringDType()
    rows = len(reply_codes)
    body_values, body_codes = value_codes(pc.list_flatten(options))
    bodies = ["" if value is None else compared_option_text(value) for value in body_values]
    row_of = np.repeat(np.arange(rows, dtype=np.int64), counts)
    present = np.array([bool(body) for body in bodies], bool)[body_codes]
    pairs = np.flatnonzero(present)
    pair_rows, pair_bodies = row_of[pairs], body_codes[pairs]
    pair_texts = reply_codes[pair_rows]
    folded_texts = np.array([text.casefold() if text else "" for text in texts], strings)
    folded_bodies = np.array([body.casefold() for body in bodies], strings)
    written = np.array([bool(text) for text in texts], bool)  # a missing or empty reply mentions nothing
    dotted_texts = np.array([bool(text) and has_dotted_i(text) for text in texts], bool)
    dotted_bodies = np.array([has_dotted_i(body) for body in bodies], bool)
    hits = np.zeros(len(pairs), bool)
    for start in range(0, len(pairs), SEARCH_PAIRS):  # a batch of (reply, option) texts gathered at a time
        batch = slice(start, start + SEARCH_PAIRS)
        hits[batch] = written[pair_texts[batch]] & (
            dotted_texts[pair_texts[batch]] | dotted_bodies[pair_bodies[batch]]
            | (np.strings.find(folded_texts[pair_texts[batch]], folded_bodies[pair_bodies[batch]]) >= 0))
    any_mention = np.zeros(rows, bool)
    any_mention[pair_rows[hits]] = True

    hit_pairs = pairs[hits]
    hit_rows, hit_bodies = row_of[hit_pairs], body_codes[hit_pairs]
    wholes = np.array([whole_reply(text) if text else "" for text in texts], strings)
    equal = wholes[reply_codes[hit_rows]] == np.array(bodies, strings)[hit_bodies]
    equal_count = np.bincount(hit_rows[equal], minlength=rows)
    one_character = np.array([bool(text) and is_one_character(text) for text in texts], bool)
    chosen = equal & (equal_count[hit_rows] == 1) & ~one_character[reply_codes[hit_rows]]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    positions = hit_pairs[chosen] - starts[hit_rows[chosen]]
    return OptionTextMentions(any_mention, hit_rows[chosen].tolist(), [LETTERS[p] for p in positions.tolist()],
                              dict(zip(body_values, bodies)))
