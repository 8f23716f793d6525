"""chosen_letters: the letter of a reply's one 选, read on a column only where read_letters reads it by its
answer-statement rule and no other pattern, rule or offered letter could take part."""
import random

from stages.kinds.multiple_choice.chosen_letters import chosen_letters
from stages.kinds.multiple_choice.extraction import reply_text
from tests.stages.kinds.multiple_choice.column_readings import readings_taken_as_read_letters_reads

BEFORE = ["经过分析，A项不对，水彩画符合题意。", "", "I think ", "维生素C很重要，", "答案：", "正确选项", "The answer is B. ",
          "不", "  ", "ſo ", "选", "B. "]
CHOSEN = ["故选{L}", "应选择 ({L})", "我选 {L}", "选{L}", "选{l}", "选择（{L}）", "选{L}型", "选{L}+", "选{L}-cell", "选{L}和{M}",
          "选{L}或{M}", "选{L}/{M}", "选{L} or {M}", "选项{L}", "选{L}项", "选{L}B", "选{L}1", "选 K", "选J", "\\boxed{{{L}}}选{M}"]
AFTER = ["", "。", "!", " because", "正确", "超", "ﬁ", "İ", "选{M}"]


def built_replies(rng: random.Random, count: int) -> list[str]:
    replies = []
    for _ in range(count):
        letter, other = rng.choice("ABCDJab"), rng.choice("ABCD")
        parts = [rng.choice(BEFORE), rng.choice(CHOSEN), rng.choice(AFTER)]
        replies.append(reply_text("".join(parts).format(L=letter, l=letter.lower(), M=other)))
    return replies


def test_a_column_reading_is_read_letters_answer_statement_reading():
    replies = built_replies(random.Random(13), 8_000) + [None]
    chosen = chosen_letters(replies)
    assert readings_taken_as_read_letters_reads(replies, chosen.tolist(), "answer_statement") > 1_000
    assert chosen[-1] == -1


def test_replies_another_rule_or_letter_may_read_are_left_to_the_rules():
    replies = ["故选A或B", "选A or B", "选A/B", "答案选A", "the answer: 选A", "选A型", "选A+", "选A-cell", "选A超",
               "\\boxed{B}选A", "选项A", "选A选B", "ſo 选A", "选", None]
    assert chosen_letters(replies).tolist() == [-1] * len(replies)
    assert chosen_letters(["经过分析,A项不对,水彩画符合题意。故选D", "应选择 (c)", "我选B正确"]).tolist() == [3, 2, 1]
