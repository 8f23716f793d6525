"""What the column readings (leading_letters, chosen_letters) are checked against: read_letters on each reply."""
from __future__ import annotations

from stages.kinds.multiple_choice.extraction import case_folded, read_letters
from stages.kinds.multiple_choice.options import LETTERS


def readings_taken_as_read_letters_reads(replies: list[str | None], indexes: list[int], rule: str) -> int:
    """Assert that every reply a column reading took (index ≥ 0) is read by read_letters with that letter and
    `rule`, on the reply as its own mask; how many it took."""
    taken = 0
    for reply, index in zip(replies, indexes):
        if index < 0:
            continue
        taken += 1
        reading = read_letters(reply, reply, (), LETTERS, case_folded(reply))
        assert (reading.letter, reading.rule) == (LETTERS[index], rule), reply
    return taken
