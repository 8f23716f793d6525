"""The column path of choice extraction (replies without option texts read once per distinct text, replies equal to
an option's text, the rest row by row) gives extract_choice's reading row for row, on replies built to meet every
rule and every trap: option texts inside replies, in another case, letters that are option texts, the Turkish İ."""
import random

import pyarrow as pa
import pytest

from stages.kinds.multiple_choice.columns import extracted_choices
from stages.kinds.multiple_choice.extraction import extract_choice

OPTION_POOL = ["Paris", "paris", "PARIS", "London", "B", "b", "是", "否", "37.8°C", "37°C", "维生素C", "维生素D", "",
               "。", "sq", "SQ", "İstanbul", "istanbul", "ıspanak", "Ispanak", "3", "1000000", "**Rome**", "Berlin.",
               "A型血", "C++", "以上都不对", "the answer is C", "答案是A", "none of the above", "Ǆ", "ǆ", "Straße",
               "STRASSE", "ﬁsh", "fish"]
FRAGMENTS = ["{L}", "({L})", "答案是{L}", "答案：{L}", "The answer is {L}.", "I choose {L}", "故选{L}", "{L}. {T}", "{T}",
             "{t}", "{U}", "我认为{T}是对的", "不是{T}", "{L} {T}", "\\boxed{{{L}}}", "{L}或{M}", "{L} is correct",
             "{T}。因为它最合适", "I cannot tell.", "**{L}**", "<think>maybe {M}</think>{L}", "  ", "维生素{L}",
             "Type {L} blood", "{T} and {T2}", "vitamin {L}", "{L}型", "none", "İ", "ı {L}", "{t} or {M}", "ıspanak",
             "İSTANBUL", "so {L}"]


def random_rows(rng: random.Random, count: int) -> tuple[list, list]:
    replies, options = [], []
    for _ in range(count):
        opts = rng.sample(OPTION_POOL, rng.choice([2, 3, 4, 4, 5]))
        letters = "ABCDE"[:len(opts)]
        pick = rng.randrange(len(opts))
        parts = [rng.choice(FRAGMENTS) for _ in range(rng.choice([1, 1, 2]))]
        reply = " ".join(parts).format(L=rng.choice(letters + "FZ"), M=rng.choice(letters), T=opts[pick],
                                       t=opts[pick].lower(), U=opts[pick].upper(), T2=rng.choice(opts))
        replies.append(None if rng.random() < 0.01 else reply)
        options.append(opts)
    return replies, options


@pytest.mark.parametrize("seed", range(4))
def test_the_column_path_reads_every_reply_as_extract_choice_does(seed):
    rng = random.Random(seed)
    replies, options = random_rows(rng, 3000)
    found = extracted_choices(pa.array(replies, pa.string()), pa.array(options, pa.list_(pa.string())), 0.7, 0.1)
    letters, rules, scores = (found[name].to_pylist() for name in ("letter", "rule", "score"))
    rules_met = set()
    for i, (reply, opts) in enumerate(zip(replies, options)):
        one = extract_choice(reply, opts, 0.7, 0.1)
        assert (letters[i], rules[i], scores[i]) == (one.letter, one.rule, one.score), (reply, opts)
        rules_met.add(one.rule)
    assert {"bare_letter", "answer_statement", "leading_letter", "option_text", "option_text_contained", "boxed",
            "positive_mention", "lone_letter", "missing", "ambiguous_answer_statement",
            "ambiguous_letter_or_option_text", "option_text_below_threshold"} <= rules_met


def reference_spans(body: str, ignore_case: bool, text: str) -> list[tuple[int, int]]:
    """Where the option text occurs as a pattern finds it: Latin edges only at word edges."""
    import re

    edge = r"(?<![A-Za-z0-9])" if body[0].isascii() and body[0].isalnum() else ""
    end = r"(?![A-Za-z0-9])" if body[-1].isascii() and body[-1].isalnum() else ""
    return [m.span() for m in re.finditer(edge + re.escape(body) + end, text, re.IGNORECASE if ignore_case else 0)]


def test_option_texts_are_found_where_a_pattern_finds_them_with_or_without_case():
    from stages.kinds.multiple_choice.option_mentions import _occurrences

    texts = [fragment.format(L="B", M="C", T=body, t=body.lower(), U=body.upper(), T2="Paris")
             for fragment in FRAGMENTS for body in OPTION_POOL if body] + ["xParis", "Parisx", "PARISparis Paris"]
    for body in filter(None, OPTION_POOL):
        for text in texts:
            for ignore_case in (False, True):
                assert _occurrences(body, ignore_case, text) == reference_spans(body, ignore_case, text), \
                    (body, ignore_case, text)
    assert _occurrences("Ispanak", True, "ıspanak") == [(0, 7)]
