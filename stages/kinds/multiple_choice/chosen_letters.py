"""Replies that end in 故选D / 应选择 (C) read on a whole column: where the only answer-statement cue in the reply is
its one 选 and nothing else could decide first or mark the letter as part of a term, RE2 takes the letter that
read_letters' answer-statement rule would, with no Python step per reply."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ...core.arrow_strings import python_space_class
from ...text.normalize import has_cjk_column
from .extraction import STATEMENT_CUES
from .leading_letters import letters_read_on_column
from .letter_context import CJK_AFTER

if TYPE_CHECKING:
    import numpy as np

CHOSEN = "选"  # the cue of extraction's 选 pattern; every other statement cue (and 或 / or / "/", which may offer a
# second letter) sends the reply to the rules one by one


@cache
def _chosen_pattern() -> str:
    """extraction's 选 pattern in RE2 for a reply with one 选 (so no 选项 after it), with the character after the
    letter taken instead of looked ahead at."""
    space = python_space_class()
    return f"{CHOSEN}(?:择)?{space}*[(（]?{space}*(?P<letter>[A-Ja-j])(?P<after>[^A-Za-z]|$)"


def chosen_letters(texts: list[str | None]) -> np.ndarray:
    """Per reply text (as reply_text gives it; None when missing), the index in LETTERS of the letter read_letters
    reads it by — its answer-statement rule, on the reply as its own mask, with no other letter offered — or -1
    where another rule or pattern may take part (such replies are read one by one). Whether the letter is one of
    the row's options is the caller's to check."""
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = pa.array(texts, pa.string())
    found = pc.extract_regex(replies, _chosen_pattern())
    after = found.field("after")
    term = pc.or_(pc.is_in(after, value_set=pa.array(["+", "#", "-"])),
                  pc.and_(has_cjk_column(pc.fill_null(after, "")),
                          pc.invert(pc.is_in(after, value_set=pa.array(sorted(CJK_AFTER))))))
    unsure = pc.or_(term, pc.not_equal(pc.count_substring(replies, CHOSEN), 1))
    return letters_read_on_column(replies, [cue for cue in STATEMENT_CUES if cue != CHOSEN] + ["或", "or", "/"],
                                  found.field("letter"), unsure)
