"""Replies that end in 故选D / 应选择 (C) read on a whole column: where the only answer-statement cue in the reply is
its one 选 and nothing else could decide first or mark the letter as part of a term, RE2 takes the letter that
read_letters' answer-statement rule would, with no Python step per reply."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from ...core.arrow_strings import python_space_class
from ...text.normalize import has_cjk_column
from .extraction import EDGES, STATEMENT_CUES
from .leading_letters import folded_apart_class
from .letter_context import CJK_AFTER
from .options import LETTERS

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
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = pa.array(texts, pa.string())
    lowered = pc.utf8_lower(replies)
    others = [re.escape(cue) for cue in STATEMENT_CUES if cue != CHOSEN] + ["或", "or", "/"]
    excluded = [pc.match_substring_regex(lowered, "|".join(others)), pc.match_substring(replies, "\\boxed"),
                pc.match_substring_regex(replies, folded_apart_class()),
                pc.not_equal(pc.count_substring(replies, CHOSEN), 1),
                pc.equal(pc.utf8_length(pc.utf8_trim(replies, EDGES)), 1)]
    found = pc.extract_regex(replies, _chosen_pattern())
    after = found.field("after")
    term = pc.or_(pc.is_in(after, value_set=pa.array(["+", "#", "-"])),
                  pc.and_(has_cjk_column(pc.fill_null(after, "")),
                          pc.invert(pc.is_in(after, value_set=pa.array(sorted(CJK_AFTER))))))
    index = pc.fill_null(pc.index_in(pc.utf8_upper(found.field("letter")), value_set=pa.array(list(LETTERS))), -1)
    unsure = excluded[0]
    for more in [*excluded[1:], term]:
        unsure = pc.or_(unsure, more)
    keep = pc.invert(pc.fill_null(unsure, True)).to_numpy(zero_copy_only=False)
    return np.where(keep, index.to_numpy(zero_copy_only=False), -1).astype(np.int64)
