"""Replies no letter rule can read, found on a whole column: not boxed, not a lone character, no answer statement
("I think 时白林 is the most likely answer, so D." holds the cue "answer" but no letter where the statement's would
stand), not opening on a letter. Such a reply is read by the option texts it holds (read_option_texts) before any
rule after them, so a reply naming one option's text needs no letter rule run on it."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ...core.arrow_strings import python_space_class
from .extraction import ANSWER_CUES, STATEMENT_CUES
from .leading_letters import first_captured, leading_pattern, other_rules_may_read
from .options import LETTERS

if TYPE_CHECKING:
    import numpy as np

_VERBS = ("is", "would be", "should be", "will be", "must be")  # extraction's verbs after "answer"


@cache
def _answer_statement_pattern() -> str:
    """An RE2 pattern every match of extraction's "the correct answer is" statement matches: the pattern as written,
    its lookbehinds dropped and its lookaheads taken; RE2 folds case as `re` does for these letters but for ı and ſ,
    whose replies other_rules_may_read leaves to the rules."""
    space = python_space_class()
    return (f"(?i:(?:{'|'.join(ANSWER_CUES)}){space}*(?:{'|'.join(_VERBS)})?){space}*[:：=]?{space}*"
            f"(?:option{space}+|choice{space}+|选项{space}*)?"
            f"(?:\\([A-Ja-j]\\)|\\[[A-Ja-j]\\]|[A-J](?:[^A-Za-z0-9'’]|$)|[a-j]{space}*(?:[.,;:!)\\]]|$))")


@cache
def _opening_letter_pattern() -> str:
    """An RE2 pattern of extraction's opening-letter rules as written, "(B)", "B." or "B 种子…" at the start (a
    reply matches both only with the same letter, its first character past the spaces)."""
    space = python_space_class()
    return f"{leading_pattern()}|^{space}*(?P<word>[A-J]){space}+[^{space[1:]}"


def unlettered_replies(texts: list[str | None]) -> np.ndarray:
    """Per reply text (as reply_text gives it; None when missing), how many options a row may have at most for
    read_letters to read nothing in the reply whatever its mask, nor read_past_letters' leading-word rule: the
    index of the letter it opens on ("I think…": nine), len(LETTERS) when it opens on none, 0 where unsure."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    replies = pa.array(texts, pa.string())
    letters = first_captured(pc.extract_regex(replies, _opening_letter_pattern()), ("bracketed", "plain", "word"))
    index = pc.fill_null(pc.index_in(pc.utf8_upper(letters), value_set=pa.array(list(LETTERS))), len(LETTERS))
    unsure = pc.match_substring_regex(replies, _answer_statement_pattern())
    return np.where(other_rules_may_read(replies, [cue for cue in STATEMENT_CUES if cue not in ANSWER_CUES], unsure),
                    0, index.to_numpy(zero_copy_only=False)).astype(np.int64)
