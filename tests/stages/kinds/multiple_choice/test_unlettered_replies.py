"""unlettered_replies: how many options a row may have for no letter rule to read its reply (read_letters, whatever
the mask, and the leading-word rule), checked against those rules on built replies."""
import random

import pyarrow as pa
import pyarrow.compute as pc

from stages.kinds.multiple_choice.extraction import (
    _STATEMENTS,
    case_folded,
    leading_word_letter,
    read_letters,
    reply_text,
)
from stages.kinds.multiple_choice.leading_letters import folded_apart_class
from stages.kinds.multiple_choice.option_mentions import MASK
from stages.kinds.multiple_choice.options import LETTERS
from stages.kinds.multiple_choice.unlettered_replies import _answer_statement_pattern, unlettered_replies

OPENINGS = ["", "", "I think ", "B ", "B. ", "(c) ", "J ", "A 种子 ", "  ", "The ", "a) ", "(B", "K "]
MIDDLES = ["时白林 is the most likely answer, so {L}.", "the answer is {L}", "The answer is {l}.", "the answer is (l)",
           "answer: [{l}]", "ANSWER IS {L}", "the anſwer is {L}", "answer is {L}K", "answer is {L}\u212a", "answer isn't",
           "the answer is 时白林", "answer, so {L}", "the option {L}", "choice: {l}!", "my answer would be {L}",
           "answer option {L}", "I choose {L}", "I go with {L}", "答案是{L}", "故选{L}", "正确选项{L}", "\\boxed{{{L}}}",
           "{L}", "({L})", "{L} is correct", "维生素{L}", "Straße", "İ", "ı", "{L} or {M}", "none of the above",
           "answer: {L}", "answer is a", "answer is j.", "answer=\u3000{L}", "选项{L}", "answer选项 {L}"]


def built_replies(rng: random.Random, count: int) -> list[str]:
    replies = []
    for _ in range(count):
        letter, other = rng.choice("ABCDJ"), rng.choice("ABCD")
        parts = [rng.choice(OPENINGS), rng.choice(MIDDLES), rng.choice(["", "。", " because", "!", " 时白林"])]
        replies.append(reply_text("".join(parts).format(L=letter, l=letter.lower(), M=other)))
    return replies


def masked_somewhere(rng: random.Random, text: str) -> str:
    start = rng.randrange(len(text))
    end = rng.randrange(start, len(text) + 1)
    return text[:start] + MASK * (end - start) + text[end:]


def test_no_letter_rule_reads_a_reply_of_a_row_with_no_more_options_than_its_bound():
    rng = random.Random(5)
    replies = built_replies(rng, 6_000)
    bounds = unlettered_replies(replies + [None]).tolist()
    assert bounds[-1] == 0
    unlettered = 0
    for reply, bound in zip(replies, bounds):
        for count in range(1, bound + 1):
            valid = LETTERS[:count]
            for masked in (reply, masked_somewhere(rng, reply)):
                assert read_letters(reply, masked, (), valid, case_folded(reply)) is None, (reply, count)
            assert leading_word_letter(reply) not in valid or not leading_word_letter(reply), (reply, count)
        unlettered += bound >= 4
    assert unlettered > 1_000


def test_a_reply_a_letter_rule_may_read_has_a_bound_of_its_letter_or_none():
    replies = ["I think 时白林 is the most likely answer, so D.", "The answer is 时白林", "B 种子", "(c) Paris", "J. 3",
               "The answer is c.", "the answer: (b)", "ANSWER IS D", "answer is D\u212a", "A. x", "\\boxed{B} x", "答案 x",
               "I go with it", "the anſwer is 时白林", "D", None]
    assert unlettered_replies(replies).tolist() == [8, 10, 1, 2, 9] + [0] * 11


def test_the_answer_pattern_matches_wherever_the_statement_does_but_in_replies_left_for_folding_apart():
    pieces = ["the", " ", "  ", "\u3000", "correct", "answer", "ANSWER", "Answer", "option", "choice", "is", "IS",
              " would be", "would  be", "x", "A", "B", "c", "j", "(C)", "[d]", "(", "[", ":", "：", "=", "选项", ".", "!",
              ")", "]", "'", "’", "1", "ſ", "\u212a", "K", "k", "İ", "ı", "K"]
    rng = random.Random(3)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 9))) for _ in range(60_000)]
    found = pc.match_substring_regex(pa.array(texts), _answer_statement_pattern()).to_pylist()
    apart = pc.match_substring_regex(pa.array(texts), folded_apart_class()).to_pylist()
    stated = 0
    for text, matched, folding_apart in zip(texts, found, apart):
        if _STATEMENTS[0].search(text) and not folding_apart:
            stated += 1
            assert matched, text
    assert stated > 1_000
