"""Acceptance on every CMMLU test question: the right option's text, and ten realistic reply styles, read as the
right letter; a reading that is not right is unparsed, almost never a wrong letter."""
from collections import Counter

import pytest

from stages import extract_choice
from tests.stages.kinds.multiple_choice.cmmlu_replies import REPLY_STYLES, cmmlu_questions


@pytest.fixture(scope="module")
def outcomes(real_data):
    """style → Counter of right / wrong / unparsed over the 11,582 questions."""
    counts = {style: Counter() for style in REPLY_STYLES}
    for _, options, gold in cmmlu_questions(real_data / "cmmlu" / "test"):
        for style, reply in REPLY_STYLES.items():
            letter = extract_choice(reply(gold, options), options).letter
            counts[style]["right" if letter == gold else "unparsed" if letter is None else "wrong"] += 1
    return counts


def test_the_right_options_text_reads_as_its_letter(outcomes):
    counts = outcomes["option text"]
    assert sum(counts.values()) == 11582
    assert counts["wrong"] == 0
    assert counts["right"] / 11582 >= 0.999, counts


def test_ten_reply_styles(outcomes):
    total = Counter()
    for style, counts in outcomes.items():
        total.update(counts)
        assert counts["right"] / 11582 >= 0.995, (style, counts)
    rows = sum(total.values())
    assert rows == 10 * 11582
    assert total["right"] / rows >= 0.995 and total["wrong"] / rows <= 0.001, total
