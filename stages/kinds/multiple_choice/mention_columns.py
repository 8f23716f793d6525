"""Which rows' replies hold one of their options' texts, on whole columns: a case-folded substring search per
(reply, option) pair whose option text is no longer than the reply and whose characters the reply holds (by
character_bits), the rows whose reply is exactly one option's text, and for the others the options whose text the
reply may hold (the only ones option_mentions can find)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.arrow_strings import list_starts
from ...core.character_bits import character_bits, may_hold
from .extraction import compared_option_text, is_one_character
from .option_mentions import MASK, has_dotted_i, whole_reply
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

_LETTERED = re.compile(f"[A-Ja-j{MASK}]")


@dataclass(frozen=True)
class ComparedOptions:
    """Every distinct option text of a column (`values`, as written) as replies are compared with it (`texts`, ""
    when nothing is left), case-folded (`folded`, and its `lengths`), whether a case-folded search may miss where
    option_mentions finds it (`unfolded`: the Turkish İ or ı, or the mask character itself), and whether masking it
    may hide a letter the letter rules read (`lettered`: it holds A–J, a–j or the mask character), whether it is all
    ASCII once case-folded (`ascii`: a reply that is all ASCII cannot hold one that is not), and the characters of
    its case-folded form (`bits`, character_bits) — worked out once per column."""

    values: list[str | None]
    texts: list[str]
    folded: list[str]
    lengths: np.ndarray
    unfolded: np.ndarray
    lettered: np.ndarray
    ascii: np.ndarray
    bits: np.ndarray


def compared_options(values: pa.Array) -> ComparedOptions:
    """The ComparedOptions of a column's distinct option texts (a string array, null among them when present)."""
    import numpy as np

    written = values.to_pylist()
    texts = ["" if value is None else compared_option_text(value) for value in written]
    folded = [text.casefold() for text in texts]
    return ComparedOptions(written, texts, folded, np.array([len(text) for text in folded], np.int64),
                           np.array([has_dotted_i(text) or MASK in text for text in texts], bool),
                           np.array([_LETTERED.search(text) is not None for text in texts], bool),
                           np.array([text.isascii() for text in folded], bool), character_bits(folded))


@dataclass(frozen=True)
class OptionTextMentions:
    """Per row, whether the reply may hold any of its options' texts (found ignoring case); the rows whose reply is
    exactly one option's text (and not a lone character), with that option's position; per row, whether no option
    text the reply may hold can mask a letter (the letter rules then read the reply as it is); and for every row its
    options found, as row offsets into their letters' positions and codes."""

    any_mention: np.ndarray
    letters_unmasked: np.ndarray
    equal_rows: np.ndarray
    equal_positions: np.ndarray
    found_starts: np.ndarray
    found_positions: list[int]
    found_codes: list[int]

    def mentioned(self, row: int, compared: ComparedOptions) -> dict[str, str]:
        """The options a row's reply may hold, by letter, as _compared_options gives them: the only options
        option_mentions can find in the reply, so reading it with these alone finds what reading it with all does."""
        start, end = self.found_starts[row], self.found_starts[row + 1]
        return {LETTERS[position]: compared.texts[code]
                for position, code in zip(self.found_positions[start:end], self.found_codes[start:end])}


def option_text_mentions(texts: list[str | None], reply_codes: np.ndarray, option_codes: np.ndarray,
                         counts: np.ndarray, compared: ComparedOptions) -> OptionTextMentions:
    """Mentions of each row's options (`option_codes`: indices into `compared`, `counts` per row) in its reply
    (texts[reply_codes[row]], as reply_text gives, None when missing), as option_mentions finds them: a reply
    without a mention here has none there, and an equal one is an equal one there."""
    import numpy as np

    rows = len(reply_codes)
    row_of = np.repeat(np.arange(rows, dtype=np.int64), counts)
    folded_texts = [text.casefold() if text else "" for text in texts]
    dotted_texts = np.array([bool(text) and has_dotted_i(text) for text in texts], bool)
    text_lengths, body_lengths = np.array([len(text) for text in folded_texts], np.int64), compared.lengths
    ascii_texts = np.array([text.isascii() for text in folded_texts], bool)
    pair_texts = np.repeat(reply_codes, counts)
    fits = ((body_lengths[option_codes] <= text_lengths[pair_texts])
            & (compared.ascii[option_codes] | ~ascii_texts[pair_texts]))
    # a missing or empty reply mentions nothing; an option text longer than the reply, or not ASCII where the reply
    # is, is not inside it
    pairs = np.flatnonzero((body_lengths[option_codes] > 0) & (text_lengths > 0)[pair_texts]
                           & (fits | dotted_texts[pair_texts] | compared.unfolded[option_codes]))
    pair_rows, pair_bodies, pair_texts = row_of[pairs], option_codes[pairs], pair_texts[pairs]
    hits = dotted_texts[pair_texts] | compared.unfolded[pair_bodies]
    # the substring search only where the reply holds every character of the option text
    searched = np.flatnonzero(~hits & may_hold(character_bits(folded_texts)[pair_texts], compared.bits[pair_bodies]))
    hits[searched] = [compared.folded[body] in folded_texts[text] for text, body in zip(pair_texts[searched].tolist(),
                                                                                        pair_bodies[searched].tolist())]
    any_mention = np.zeros(rows, bool)
    any_mention[pair_rows[hits]] = True

    hit_pairs = pairs[hits]
    hit_rows, hit_bodies = row_of[hit_pairs], option_codes[hit_pairs]
    wholes = [whole_reply(text) if text else "" for text in texts]
    equal = np.array([wholes[text] == compared.texts[body]
                      for text, body in zip(reply_codes[hit_rows].tolist(), hit_bodies.tolist())], bool)
    equal_count = np.bincount(hit_rows[equal], minlength=rows)
    one_character = np.array([bool(text) and is_one_character(text) for text in texts], bool)
    chosen = equal & (equal_count[hit_rows] == 1) & ~one_character[reply_codes[hit_rows]]
    positions = hit_pairs - list_starts(counts)[hit_rows]
    found_starts = np.concatenate([[0], np.cumsum(np.bincount(hit_rows, minlength=rows))]).astype(np.int64)
    letters_unmasked = np.bincount(hit_rows[compared.lettered[hit_bodies]], minlength=rows) == 0
    return OptionTextMentions(any_mention, letters_unmasked, hit_rows[chosen], positions[chosen], found_starts,
                              positions.tolist(), hit_bodies.tolist())
