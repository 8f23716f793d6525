"""Replies that open on their answer letter ("B. 种子表面…", "(C) Paris") read on a whole column: where read_letters
would come to its leading-letter rule with nothing before it deciding — no answer-statement cue in the reply's case
fold, not boxed, not a lone character — RE2 takes the letter, with no Python step per reply."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from ...core.arrow_strings import python_space_class, re2_class
from .extraction import EDGES, STATEMENT_CUES
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np

LAST_FOLDED_APART = 0xFB17  # no later character's case fold differs from its lower case (tests check every one)


@cache
def _leading_pattern() -> str:
    """extraction's leading-letter rule in RE2 (Python's whitespace spelled out), up to the letter's punctuation."""
    space = python_space_class()
    return f"^{space}*(?:\\((?P<bracketed>[A-Ja-j])\\)|(?P<plain>[A-Ja-j]){space}*[).:、:：])"


@cache
def folded_apart_class() -> str:
    """An RE2 class of the characters whose case fold is not their lower case (ß, ſ, ﬁ…), and the Turkish İ and ı
    (which `re` matches ignoring case as i): a reply holding one is left to the rules one by one."""
    return re2_class("".join(chr(code) for code in range(LAST_FOLDED_APART + 1)
                             if chr(code).casefold() != chr(code).lower()) + "İı")


def leading_letters(texts: list[str | None]) -> np.ndarray:
    """Per reply text (as reply_text gives it; None when missing), the index in LETTERS of the letter read_letters
    reads it by — its leading-letter rule, on the reply as its own mask — or -1 where an earlier rule may decide or
    none applies (such replies are read one by one). Whether the letter is one of the row's options is the
    caller's to check."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = pa.array(texts, pa.string())
    cued = pc.match_substring_regex(pc.utf8_lower(replies), "|".join(re.escape(cue) for cue in STATEMENT_CUES))
    other_rules = pc.or_(pc.or_(cued, pc.match_substring(replies, "\\boxed")),
                         pc.or_(pc.match_substring_regex(replies, folded_apart_class()),
                                pc.equal(pc.utf8_length(pc.utf8_trim(replies, EDGES)), 1)))
    opening = pc.extract_regex(replies, _leading_pattern())
    bracketed = opening.field("bracketed")
    letter = pc.utf8_upper(pc.coalesce(pc.if_else(pc.equal(bracketed, ""), pa.scalar(None, pa.string()), bracketed),
                                       opening.field("plain")))
    index = pc.fill_null(pc.index_in(letter, value_set=pa.array(list(LETTERS))), -1).to_numpy(zero_copy_only=False)
    return np.where(pc.fill_null(other_rules, True).to_numpy(zero_copy_only=False), -1, index).astype(np.int64)
