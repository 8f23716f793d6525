"""leading_letters: the letter a reply opens on, read on a column only where read_letters reads it by its
leading-letter rule and nothing before that rule could decide."""
import random
import sys

from stages.kinds.multiple_choice.extraction import reply_text
from stages.kinds.multiple_choice.leading_letters import LAST_FOLDED_APART, leading_letters
from tests.stages.kinds.multiple_choice.column_readings import readings_taken_as_read_letters_reads

OPENINGS = ["B. ", "(C) ", "d) ", "A:", "E、", "J. ", "b.", " (a)", "K. ", "B ", "B", "(B", "\\boxed{B} ", "B.. ", ""]
BODIES = ["种子表面着生的纤维", "Paris", "the answer is C", "The ANSWER: D", "the anſwer is C", "我选D", "答案是A",
          "Straße", "ﬁsh", "İstanbul", "ıspanak", "so I go with E", "选项C正确", "Type A blood", "维生素C", "", ".", "B",
          "C or D", "ΑΣ", "option (c)", "KELVIN", "é"]


def test_a_column_reading_is_read_letters_leading_letter_reading():
    rng = random.Random(11)
    replies = [reply_text(rng.choice(OPENINGS) + rng.choice(BODIES) + rng.choice(["", "。", " because", "!"]))
               for _ in range(6_000)] + [None]
    leads = leading_letters(replies)
    assert readings_taken_as_read_letters_reads(replies, leads.tolist(), "leading_letter") > 1_500
    assert leads[-1] == -1


def test_replies_an_earlier_rule_may_read_are_left_to_the_rules():
    replies = ["B. the answer is C", "B. THE ANSWER IS C", "B. the anſwer is C", "B. I go with C", "B. 我选C",
               "B. 正确选项C", "\\boxed{B}", "B.", "(B)", "B. Straße", "B. İstanbul", "B 种子", None]
    assert leading_letters(replies).tolist() == [-1] * len(replies)
    assert leading_letters(["B. 种子", "(c) Paris", "J: x"]).tolist() == [1, 2, 9]


def test_no_character_after_the_last_folded_apart_one_folds_apart():
    assert chr(LAST_FOLDED_APART).casefold() != chr(LAST_FOLDED_APART).lower()
    assert not any(chr(code).casefold() != chr(code).lower() for code in range(LAST_FOLDED_APART + 1,
                                                                                sys.maxunicode + 1))
