"""The column path of choice extraction (replies without option texts read once per distinct text, replies equal to
an option's text, the rest row by row) gives extract_choice's reading row for row, on replies built to meet every
rule and every trap: option texts inside replies, in another case, letters that are option texts, the Turkish İ."""
import random

import numpy as np
import pyarrow as pa
import pytest

from stages.kinds.multiple_choice.columns import cleaned_replies, extracted_choices, options_type
from stages.kinds.multiple_choice.extraction import extract_choice

OPTION_POOL = ["Paris", "paris", "PARIS", "London", "B", "b", "是", "否", "37.8°C", "37°C", "维生素C", "维生素D", "",
               "。", "sq", "SQ", "İstanbul", "istanbul", "ıspanak", "Ispanak", "3", "1000000", "**Rome**", "Berlin.",
               "A型血", "C++", "以上都不对", "the answer is C", "答案是A", "none of the above", "Ǆ", "ǆ", "Straße",
               "STRASSE", "ﬁsh", "fish"]
FRAGMENTS = ["{L}", "({L})", "答案是{L}", "答案：{L}", "The answer is {L}.", "I choose {L}", "故选{L}", "{L}. {T}", "{T}",
             "{t}", "{U}", "我认为{T}是对的", "不是{T}", "{L} {T}", "\\boxed{{{L}}}", "{L}或{M}", "{L} is correct",
             "{T}。因为它最合适", "I cannot tell.", "**{L}**", "<think>maybe {M}</think>{L}", "  ", "维生素{L}",
             "Type {L} blood", "{T} and {T2}", "vitamin {L}", "{L}型", "none", "İ", "ı {L}", "{t} or {M}", "ıspanak",
             "İSTANBUL", "so {L}", "THE ANSWER: {L}", "the anſwer is {L}", "I PICK {L}", "I go with {L}", "choİce {L}",
             "{L} İs correct", "正确选项是{L}", "我选{L}", "{L}正确", "{L}是对的", "not {T}", "NOT {T}", "except {T}",
             "经过分析，{M}项不对，{T}符合题意。故选{L}", "I think {T} is the most likely answer, so {M}.", "none of above",
             "{T}s", "{L} {t}", "The answer is {t}", "({t})", "{T}。\\boxed{{{L}}}", "<th**ink>maybe {M}</think>{L}",
             "e**\u0301 {L}"]


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


def assert_read_as_extract_choice(seed: int) -> None:
    """Options as B1 writes them (options_type; seed 3: a slice of a larger column, whose dictionary holds texts
    none of its rows has) or as plain lists of texts (seeds 0, 1)."""
    rng = random.Random(seed)
    replies, options = random_rows(rng, 3000)
    column = pa.array(options, pa.list_(pa.string()) if seed < 2 else options_type())
    if seed == 3:
        column = pa.array([["not", "an option", "here"], *options], options_type()).slice(1)
    found = extracted_choices(cleaned_replies(pa.array(replies, pa.string())), column, 0.7, 0.1)
    letters, rules, scores = (found[name].to_pylist() for name in ("letter", "rule", "score"))
    rules_met = set()
    for i, (reply, opts) in enumerate(zip(replies, options)):
        one = extract_choice(reply, opts, 0.7, 0.1)
        assert (letters[i], rules[i], scores[i]) == (one.letter, one.rule, one.score), (reply, opts)
        rules_met.add(one.rule)
    assert {"bare_letter", "answer_statement", "leading_letter", "option_text", "option_text_contained", "boxed",
            "positive_mention", "lone_letter", "missing", "ambiguous_answer_statement",
            "ambiguous_letter_or_option_text", "option_text_below_threshold", "option_text_similar",
            "leading_letter_with_text"} <= rules_met


def _numbered_lists(monkeypatch) -> list[int]:
    """How many times extraction numbers the rows' option lists (list_row_codes) to find repeated pairs."""
    from stages.kinds.multiple_choice import columns as module

    calls = []
    numbered = module.list_row_codes
    monkeypatch.setattr(module, "list_row_codes", lambda *args: calls.append(1) or numbered(*args))
    return calls


@pytest.mark.parametrize("seed", range(4))
def test_the_column_path_reads_every_reply_as_extract_choice_does(seed, monkeypatch):
    """These rows' option lists mostly differ: each row is read as a pair of its own, ordered by reply."""
    calls = _numbered_lists(monkeypatch)
    assert_read_as_extract_choice(seed)
    assert calls == []


@pytest.mark.parametrize("seed", [0, 3])
def test_option_lists_that_mostly_repeat_are_numbered_and_read_alike(seed, monkeypatch):
    from stages.kinds.multiple_choice import columns as module

    monkeypatch.setattr(module, "REPEATED_OPTIONS", 1.0)  # every column counts as repeating
    calls = _numbered_lists(monkeypatch)
    assert_read_as_extract_choice(seed)
    assert calls == [1]


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


def cue_texts() -> list[str]:
    """Replies for every letter pattern, with their cue words in other cases and spelled with letters `re` matches
    ignoring case (ſ for s, the Turkish İ and ı for i), and replies near a cue but without one."""
    texts = [fragment.format(L=letter, M="C", T=body, t=body.lower(), U=body.upper(), T2="Paris")
             for fragment in FRAGMENTS for letter in "Bb" for body in ("Paris", "维生素C", "以上都不对")]
    return texts + ["The ANSWER is B", "the anſwer is B", "the optıon is C", "the Option is C", "Correct OPTION: (c)", "my choice: B", "choİce: D", "I PİCK A", "I Go With B",
                    "I would select (c)", "\\boxed{B}", "\\BOXED{B}", "最终答案为 B", "正确选项：C", "应选择 D", "B 是对的",
                    "C 正确", "D is the RIGHT answer", "D İs correct", "answers B", "selection B", "it is B", "B"]


def test_a_reply_without_a_patterns_cue_has_no_match_of_it():
    from stages.kinds.multiple_choice.extraction import (
        _BOXED_CUED,
        _POSITIVE_CUED,
        _STATEMENTS_CUED,
        _letters,
        case_folded,
    )

    skipped = 0
    for text in cue_texts():
        for cued in (_BOXED_CUED, _STATEMENTS_CUED, _POSITIVE_CUED):
            for one in cued:
                assert _letters((one,), text, text, case_folded(text)) == _letters((one,), text, text, None), text
                skipped += case_folded(text) is not None and not any(cue in case_folded(text) for cue in one[1])
    assert skipped > 100


def test_a_negation_is_found_where_its_pattern_finds_it():
    from stages.kinds.multiple_choice.option_mentions import _NEGATED, _negated

    windows = ["不是", "并非 ", "而非", "我不选", "排除", "并不是", "NOT ", "isn't", "Never", "EXCEPT", "knot", "cannot",
               "是", "nothing", "a note", "不对", "", "ok", "foot n't", "Nøt"]
    for window in windows + [window[-12:] for window in cue_texts()]:
        assert _negated(window) == (_NEGATED.search(window) is not None), window


STATEMENT_AS_WRITTEN = (r"(?i:\b(?:the\s+)?(?:correct|right|final|best)?\s*(?:answer|option|choice)\s*"
                        r"(?:is|would be|should be|will be|must be)?)")
CHOSEN_AS_WRITTEN = r"(?:应该|应当|应|故|因此|所以|我)?\s*选(?:择)?\s*(?:选项)?\s*[\(（]?\s*([A-Ja-j])(?![A-Za-z])"
POSITIVE_AS_WRITTEN = (r"(?:选项)?\s*([A-J])\s*(?:(?<!不)是对的|(?<!不)是正确的|(?<![不是])正确|(?<![不是])对(?:的)?(?![应])|"
                       r"(?i:\s+is\s+(?:the\s+)?(?:correct|right)(?:\s+answer)?\b))")
ALTERNATIVES_AS_WRITTEN = r"(?<![A-Za-z])\(?([A-J])\)?\s*(?:\bor\b|或者|或|/)\s*\(?([A-J])(?![A-Za-z])"
PATTERN_PIECES = ["the", "The ", " ", "  ", "correct", "Correct", "right", "final", "best", "answer", "ANSWER", "option",
                  "choice", "is", " would be", "x", "A", "B", "c", "(C)", "[d]", ":", "：", "选项", "选", "择", "应该", "故",
                  "因此", "我", "（", "(", "不", "是", "对", "的", "正确", "应", "项", "ſ", "K", "İ", "ı", "-", ".", "1",
                  " or ", "or", "或", "或者", "/", ")", "D", "J"]


def test_patterns_spelled_for_speed_capture_what_they_were_written_as():
    import re

    from stages.kinds.multiple_choice.extraction import _ALTERNATIVES, _LETTER_AFTER, _POSITIVE, _STATEMENTS

    pairs = [(_STATEMENTS[0], re.compile(STATEMENT_AS_WRITTEN + _LETTER_AFTER)),
             (_STATEMENTS[3], re.compile(CHOSEN_AS_WRITTEN)), (_POSITIVE, re.compile(POSITIVE_AS_WRITTEN)),
             (_ALTERNATIVES, re.compile(ALTERNATIVES_AS_WRITTEN))]
    rng = random.Random(7)
    texts = cue_texts() + ["".join(rng.choice(PATTERN_PIECES) for _ in range(rng.randrange(1, 10)))
                           for _ in range(60_000)]
    matched = 0
    for pattern, written in pairs:
        for text in texts:
            captured = [[(m.start(i), m.group(i)) for i in range(1, m.re.groups + 1) if m.group(i)]
                        for m in pattern.finditer(text)]
            assert captured == [[(m.start(i), m.group(i)) for i in range(1, m.re.groups + 1) if m.group(i)]
                                for m in written.finditer(text)], (written.pattern, text)
            matched += bool(captured)
    assert matched > 1_000


def test_the_word_before_a_letter_is_what_a_pattern_finds():
    import re

    from stages.kinds.multiple_choice.letter_context import _word_before

    pieces = ["Type", " ", "  ", ".", "..", "vitamin", "a", "Z", "中", "1", "\n", "\t", "é", "\u3000", "-", "x.", "ſ"]
    rng = random.Random(5)
    windows = ["".join(rng.choice(pieces) for _ in range(rng.randrange(8)))[-24:] for _ in range(50_000)]
    found = 0
    for window in windows:
        written = re.search(r"([A-Za-z]+)[\s.]*$", window)
        assert _word_before(window) == (written.group(1) if written else ""), window
        found += written is not None
    assert 10_000 < found < 45_000


def _best_options_of(texts, reply_rows, options, threshold, margin, kept=None):
    """best_options over rows given as (index into texts, list of option texts)."""
    from stages.core.arrow_strings import list_lengths
    from stages.core.distinct import list_item_codes
    from stages.kinds.multiple_choice.similar_options import best_options

    column = pa.array(options, pa.list_(pa.string()))
    bodies, codes = list_item_codes(column)
    return best_options(dict(enumerate(texts)), np.array(reply_rows, np.int64), codes, list_lengths(column),
                        bodies.to_pylist(), threshold, margin, kept)


def test_the_best_options_of_many_rows_are_each_rows_best_option():
    from stages.kinds.multiple_choice.extraction import _best_option
    from stages.kinds.multiple_choice.similar_options import KeptScores

    rng = random.Random(3)
    pool = ["none of the above", "none of above", "Paris", "paris", "Pariss", "Berlin", "以上都不对", "以上都对",
            "the capital of France", "capital France", "C++", "fish", "ﬁsh"]
    texts = ["none of above", "Paris", "pariss!", "I cannot answer this question.", "capital of france", "以上都不对吧",
             "fish"]
    rows = [(rng.randrange(len(texts)), rng.sample(pool, rng.choice([1, 2, 3, 4, 4]))) for _ in range(2000)]
    rows += [(0, ["none of the above", "none of the above"]), (1, ["paris", "Paris", "PARIS"])]  # ties
    kept = KeptScores()
    for threshold, margin in ((0.7, 0.1), (0.5, 0.0), (0.95, 0.3), (0.7, 0.1)):  # the last with scores kept before
        found = _best_options_of(texts, [text for text, _ in rows], [options for _, options in rows], threshold,
                                 margin, kept)
        rules = set()
        for (text, options), one in zip(rows, found):
            expected = _best_option(texts[text], dict(zip("ABCDEFGHIJ", options)), threshold, margin)
            assert (one.letter, one.rule, one.score) == (expected.letter, expected.rule, expected.score), \
                (texts[text], options)
            rules.add(one.rule)
        assert rules == {"option_text_similar", "option_text_below_threshold"}
        assert len(kept) == len({(texts[text], option) for text, options in rows for option in options})
    assert _best_options_of(texts, [], [], 0.7, 0.1) == []


def test_the_scores_kept_across_calls_stay_within_their_bound(monkeypatch):
    from stages.kinds.multiple_choice import similar_options

    monkeypatch.setattr(similar_options, "KEPT_SCORES", 10)
    computed = []
    kept = similar_options.KeptScores()
    sizes = []
    for start in (0, 2, 4, 4):  # four new keys a call: kept, kept (8), then emptied first (8 + 4 > 10); none new
        keys = np.array([start * 10 + offset for offset in (0, 1, 10, 11)] * 2, np.int64)  # each key twice
        scores = kept.of(keys, lambda key: computed.append(key) or key / 100)
        assert scores.tolist() == (keys / 100).tolist()
        sizes.append(len(kept))
    assert sizes == [4, 8, 4, 4]
    assert computed == [0, 1, 10, 11, 20, 21, 30, 31, 40, 41, 50, 51]  # once each, none again when kept


def test_a_reply_repeated_across_questions_is_worked_out_in_one_chunk_of_pairs_not_in_each(monkeypatch):
    """Pairs are read reply after reply: with chunks of 100 pairs, three replies over 900 distinct questions are
    folded about once each (one more per chunk boundary), not once per chunk."""
    from stages.kinds.multiple_choice import columns as module

    monkeypatch.setattr(module, "EXTRACT_ROWS", 100)
    folded = []
    fold = module.fold_spaces
    monkeypatch.setattr(module, "fold_spaces", lambda text: folded.append(text) or fold(text))
    replies = ["答案是A", "Paris", "I cannot tell."] * 300
    options = [[f"选项{i}", "Paris", f"{i}"] for i in range(900)]
    found = extracted_choices(pa.array(replies), pa.array(options, options_type()), 0.7, 0.1)
    assert len(folded) <= 3 + 900 // 100 - 1
    assert found["rule"].to_pylist() == [extract_choice(reply, opts).rule for reply, opts in zip(replies, options)]
