"""Replies that open on their answer letter ("B. 种子表面…", "(C) Paris") read on a whole column: where read_letters
would come to its leading-letter rule with nothing before it deciding — no answer-statement cue in the reply's case
fold, not boxed, not a lone character — RE2 takes the letter, with no Python step per reply."""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from ...core.arrow_strings import python_space_class, re2_class
from .extraction import EDGES, STATEMENT_CUES
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

LAST_FOLDED_APART = 0xFB17  # no later character's case fold differs from its lower case (tests check every one)


@cache
def leading_pattern() -> str:
    """extraction's leading-letter rule in RE2 (Python's whitespace spelled out), up to the letter's punctuation."""
    space = python_space_class()
    return f"^{space}*(?:\\((?P<bracketed>[A-Ja-j])\\)|(?P<plain>[A-Ja-j]){space}*[).:、:：])"


@cache
def folded_apart_class() -> str:
    """An RE2 class of the characters whose case fold is not their lower case (ß, ſ, ﬁ…), and the Turkish İ and ı
    (which `re` matches ignoring case as i): a reply holding one is left to the rules one by one."""
    return re2_class("".join(chr(code) for code in range(LAST_FOLDED_APART + 1)
                             if chr(code).casefold() != chr(code).lower()) + "İı")


def other_rules_may_read(replies: pa.Array, cues: Iterable[str], unsure: pa.Array | None = None) -> np.ndarray:
    """Per reply, whether a rule or pattern may read it beyond those a column reading accounts for: it holds one of
    `cues` in lower case, is boxed or a lone character, holds a character whose case fold is not its lower case,
    `unsure` (when given) is true, or it is missing."""
    import pyarrow.compute as pc

    left = [pc.match_substring_regex(pc.utf8_lower(replies), "|".join(re.escape(cue) for cue in cues)),
            pc.match_substring(replies, "\\boxed"), pc.match_substring_regex(replies, folded_apart_class()),
            pc.equal(pc.utf8_length(pc.utf8_trim(replies, EDGES)), 1)] + ([] if unsure is None else [unsure])
    elsewhere = left[0]
    for more in left[1:]:
        elsewhere = pc.or_(elsewhere, more)
    return pc.fill_null(elsewhere, True).to_numpy(zero_copy_only=False)


def letters_read_on_column(replies: pa.Array, cues: Iterable[str], letters: pa.Array,
                           unsure: pa.Array | None = None) -> np.ndarray:
    """Per reply, the index in LETTERS of its letter (`letters`, A–J or a–j, null where none) where no rule or pattern
    but the one that took it can take part (other_rules_may_read is false), else -1."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    index = pc.fill_null(pc.index_in(pc.utf8_upper(letters), value_set=pa.array(list(LETTERS))), -1)
    return np.where(other_rules_may_read(replies, cues, unsure), -1,
                    index.to_numpy(zero_copy_only=False)).astype(np.int64)


def leading_letters(texts: list[str | None]) -> np.ndarray:
    """Per reply text (as reply_text gives it; None when missing), the index in LETTERS of the letter read_letters
    reads it by — its leading-letter rule, on the reply as its own mask — or -1 where an earlier rule may decide or
    none applies (such replies are read one by one). Whether the letter is one of the row's options is the
    caller's to check."""
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = pa.array(texts, pa.string())
    letters = first_captured(pc.extract_regex(replies, leading_pattern()), ("bracketed", "plain"))
    return letters_read_on_column(replies, STATEMENT_CUES, letters)


def first_captured(found: pa.StructArray, names: tuple[str, ...]) -> pa.Array:
    """Per row of extract_regex's result, the first of the named groups that captured something (RE2 gives "" for a
    group on another branch), null where none did or the pattern did not match."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.coalesce(*[pc.if_else(pc.equal(found.field(name), ""), pa.scalar(None, pa.string()), found.field(name))
                         for name in names])
