"""Reasoning replies (`<think>…</think>` and the like): the answer is the text after the last closing tag; a reply
whose reasoning never closes has no answer at all, never one read from inside the reasoning."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.arrow_strings import may_hold_bytes
from ..core.records import Rows

if TYPE_CHECKING:
    import pyarrow as pa

CLOSED, UNFINISHED = "closed", "unfinished"  # a reply's reasoning state; null: the reply shows no reasoning tags


@dataclass(frozen=True)
class ReasoningTags:
    """The tag pair a model wraps its reasoning in (dataset.toml [reasoning] open / close)."""

    open: str = "<think>"
    close: str = "</think>"

    def described(self) -> dict[str, str]:
        return {"open": self.open, "close": self.close}


def read_reasoning_tags(table: dict[str, Any], origin: str) -> ReasoningTags:
    """dataset.toml's [reasoning] table (every key optional); a tag that is not a non-blank string is refused."""
    from ..core.errors import UsageError

    unknown = sorted(set(table) - {"open", "close"})
    if unknown:
        raise UsageError(f"{origin}: [reasoning] has unknown key(s) {', '.join(unknown)} (allowed: open, close)")
    for key in ("open", "close"):
        if key in table and (not isinstance(table[key], str) or not table[key].strip()):
            raise UsageError(f"{origin}: [reasoning] {key} must be a non-blank string, got {table[key]!r}")
    return ReasoningTags(**table)


def split_reasoning(reply: str | None, tags: ReasoningTags = ReasoningTags()) -> tuple[str | None, str | None]:
    """(the answer after the reasoning, the reasoning state): a reply without tags is all answer (state None); after
    the last closing tag, an opening tag left open means the reply ended inside its reasoning (answer '')."""
    if reply is None or (tags.open not in reply and tags.close not in reply):
        return reply, None
    cut = reply.rfind(tags.close)
    after = reply if cut < 0 else reply[cut + len(tags.close):]
    if tags.open in after:
        return "", UNFINISHED
    return after.lstrip(), CLOSED


def cut_reasoning(replies: pa.Array | pa.ChunkedArray,
                  tags: ReasoningTags = ReasoningTags()) -> tuple[pa.Array, pa.Array] | None:
    """split_reasoning over a column of replies: (answers, states), or None when no reply holds either tag (the
    column is used as it is)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = replies.chunks if isinstance(replies, pa.ChunkedArray) else [replies]
    if not any(may_hold_bytes(chunk, tag.encode()) for chunk in chunks for tag in (tags.open, tags.close)):
        return None  # one search of the column's bytes, not a pass over every reply
    replies = replies.combine_chunks() if isinstance(replies, pa.ChunkedArray) else replies
    tagged = pc.or_(pc.match_substring(replies, tags.open), pc.match_substring(replies, tags.close))
    if not pc.any(tagged).as_py():
        return None
    after = pc.replace_substring_regex(replies, "(?s)^.*" + re.escape(tags.close), "", max_replacements=1)
    unfinished = pc.and_(tagged, pc.match_substring(after, tags.open))
    answers = pc.if_else(unfinished, "", pc.if_else(tagged, pc.utf8_ltrim_whitespace(after), replies))
    states = pc.if_else(tagged, pc.if_else(unfinished, UNFINISHED, CLOSED), pa.scalar(None, pa.string()))
    return answers, states


def reasoning_counts(states: pa.Array | list[str | None]) -> dict[str, int]:
    """How many replies closed their reasoning and how many ended inside it."""
    if isinstance(states, list):
        found = Counter(states)
    else:
        from ..core.distinct import value_counts

        found = value_counts(states)
    return {"closed_reasoning": found.get(CLOSED, 0), "unfinished_reasoning": found.get(UNFINISHED, 0)}


def answers_after_reasoning(joined: Rows, tags: ReasoningTags = ReasoningTags()) -> tuple[Rows, dict[str, int]]:
    """Joined rows whose `prediction` is the answer after the reasoning (empty where the reasoning never closed), with a
    `reasoning` column of each reply's state when any reply has reasoning (tags in its text, or the reasoning a server
    returned apart in `reasoning_content`: closed when an answer follows); and the counts of each state."""
    import pyarrow as pa

    if isinstance(joined, dict):
        cut = [split_reasoning(reply, tags) if isinstance(reply, str) else (reply, None)
               for reply in joined["prediction"]]
        apart = joined.get("reasoning_content") or [None] * len(cut)
        states = [_apart_state(answer) if state is None and isinstance(reasoning, str) else state
                  for (answer, state), reasoning in zip(cut, apart)]
        if not any(states):
            return joined, reasoning_counts([])
        return {**joined, "prediction": [answer for answer, _ in cut], "reasoning": states}, reasoning_counts(states)
    replies = joined.column("prediction")
    found = cut_reasoning(replies, tags) if pa.types.is_string(replies.type) else None
    if found is None and "reasoning_content" not in joined.column_names:
        return joined, reasoning_counts([])
    answers, states = (replies.combine_chunks(), pa.nulls(joined.num_rows, pa.string())) if found is None else found
    if "reasoning_content" in joined.column_names:
        states = _with_apart_states(answers, states, joined.column("reasoning_content"))
    if states.null_count == joined.num_rows:
        return joined, reasoning_counts([])
    table = joined.set_column(joined.column_names.index("prediction"), "prediction", answers)
    return table.append_column("reasoning", states), reasoning_counts(states)


def _apart_state(answer: str | None) -> str:
    """A reply whose reasoning came apart from it: closed when an answer follows, else it ended in its reasoning."""
    return CLOSED if answer is not None and answer.strip() else UNFINISHED


def _with_apart_states(answers: pa.Array, states: pa.Array, apart: pa.ChunkedArray) -> pa.Array:
    """_apart_state for the rows without tags whose reasoning the server returned apart."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_string(apart.type):
        return states
    answered = pc.fill_null(pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(answers)), 0), False)
    own = pc.if_else(answered, CLOSED, UNFINISHED)
    return pc.if_else(pc.and_(pc.is_null(states), pc.is_valid(apart.combine_chunks())), own, states)
