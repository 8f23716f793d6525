"""Choice extraction on real-world reply forms, table-driven: option texts with capitals inside (units, vitamins,
medical terms, names), English and Chinese statements; where a reading would be a guess the reply stays unparsed."""
import pytest

from stages import extract_choice

TEMPERATURE = {"A": "36°C", "B": "37.8°C", "C": "36.5°C", "D": "37°C"}
VITAMINS = {"A": "维生素A", "B": "维生素B1", "C": "维生素C", "D": "维生素D"}
EXAMS = {"A": "X线检查", "B": "B超", "C": "CT", "D": "核磁共振"}
PERSONALITY = {"A": "A型人格", "B": "B型人格", "C": "C型人格", "D": "D型人格"}
IMMUNE = {"A": "B-cell", "B": "T-cell", "C": "macrophage", "D": "neutrophil"}
ENGLISH_VITAMINS = {"A": "Vitamin A", "B": "Vitamin B12", "C": "Vitamin C", "D": "Vitamin D"}
CAPITALS = {"A": "London", "B": "Paris", "C": "Berlin", "D": "Rome"}
NESTED = {"A": "北京", "B": "北京和上海", "C": "上海", "D": "广州"}
PLAIN = {"A": "土地", "B": "劳动力", "C": "资金", "D": "农业生产工具"}

CASES = [  # (reply, options, letter, rule)
    ("37.8°C", TEMPERATURE, "B", "option_text"),
    ("37.8 °C", TEMPERATURE, None, "option_text_below_threshold"),  # spaced: no option's text, and C is no letter
    ("正常腋下体温上限约为37°C。", TEMPERATURE, "D", "option_text_contained"),
    ("体温达到37.8°C即为发热", TEMPERATURE, "B", "option_text_contained"),
    ("维生素C", VITAMINS, "C", "option_text"),
    ("缺乏维生素C会导致坏血病。", VITAMINS, "C", "option_text_contained"),
    ("应补充维生素D，而不是维生素A。", VITAMINS, "D", "option_text_contained"),
    ("B超", EXAMS, "B", "option_text"),
    ("首选B超检查，因为无辐射。", EXAMS, "B", "option_text_contained"),
    ("C型人格", PERSONALITY, "C", "option_text"),
    ("这种表现属于C型人格特征", PERSONALITY, "C", "option_text_contained"),
    ("T-cell", IMMUNE, "B", "option_text"),
    ("Antibodies are made by the B-cell lineage.", IMMUNE, "A", "option_text_contained"),
    ("Vitamin C", ENGLISH_VITAMINS, "C", "option_text"),
    ("The deficiency is of vitamin D.", ENGLISH_VITAMINS, "D", "option_text_contained"),
    ("Paris is the capital, not London.", CAPITALS, "B", "option_text_contained"),
    ("北京和上海", NESTED, "B", "option_text"),
    ("我认为是北京", NESTED, "A", "option_text_contained"),
    ("北京还是上海？很难说。", NESTED, None, "option_text_below_threshold"),
    ("最主要的基本生产资料是土地。", PLAIN, "A", "option_text_contained"),
    # letters stay letters next to the words that introduce them
    ("B", TEMPERATURE, "B", "bare_letter"),
    ("答案：B", TEMPERATURE, "B", "answer_statement"),
    ("(B)", TEMPERATURE, "B", "bare_letter"),
    ("B. 37.8°C", TEMPERATURE, "B", "leading_letter"),
    ("我选B，因为37.8°C已经超过正常范围。", TEMPERATURE, "B", "answer_statement"),
    ("The answer is B.", TEMPERATURE, "B", "answer_statement"),
    ("<think>36°C太低，37°C正常……</think>答案是B", TEMPERATURE, "B", "answer_statement"),
    ("**B**", TEMPERATURE, "B", "bare_letter"),
    ("选项C正确", VITAMINS, "C", "positive_mention"),
    ("C项是对的", VITAMINS, "C", "lone_letter"),
    ("所以选C吧", VITAMINS, "C", "answer_statement"),
    ("I choose C.", ENGLISH_VITAMINS, "C", "answer_statement"),
    # a capital inside a term is never an answer letter
    ("答案是维生素C", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("应做B超进一步检查", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("属于C型人格", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("The answer is C-section.", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("Type A personalities are competitive.", {"A": "x", "B": "y", "C": "z", "D": "w"}, None,
     "option_text_below_threshold"),
    ("Hepatitis B is spread by blood.", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("It was written in C++.", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
    ("Water boils at 100 °C at sea level, so D.", {"A": "x", "B": "y", "C": "z", "D": "w"}, "D", "lone_letter"),
    ("At point A the speed is zero.", {"A": "x", "B": "y", "C": "z", "D": "w"}, None, "option_text_below_threshold"),
]


@pytest.mark.parametrize("reply, options, letter, rule", CASES)
def test_reply_table(reply, options, letter, rule):
    result = extract_choice(reply, options)
    assert (result.letter, result.rule) == (letter, rule)


def test_table_is_large_enough():
    assert len(CASES) >= 30


def test_the_kind_reads_each_distinct_pair_at_most_once_with_the_same_result_row_for_row(monkeypatch):
    import random

    import pyarrow as pa

    from stages import get_kind
    from stages.kinds.multiple_choice import columns as module
    from stages.kinds.multiple_choice.extraction import clean_reply, gold_choice

    kind = get_kind("multiple_choice")
    asked = []
    for name in ("read_reply", "read_by_options"):
        read = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, read=read: asked.append(args[0]) or read(*args))
    rng = random.Random(7)
    rows = [rng.choice(CASES) for _ in range(600)] + [(None, CAPITALS, None, "missing")]  # repeats, and one no reply
    options = [list(o.values()) for _, o, _, _ in rows]
    golds = [[rng.choice(["A", " b ", "C.", "答案是D", "Paris"])] for _ in rows]
    joined = pa.table({"id": [str(i) for i in range(len(rows))], "golds": golds, "options": options,
                       "prediction": [reply for reply, _, _, _ in rows]})
    normalized, _ = kind.normalize(joined, kind.defaults)
    matched, _ = kind.match(normalized, kind.defaults)
    matched = matched.to_pydict()
    distinct = {(reply and clean_reply(reply), tuple(o)) for (reply, _, _, _), o in zip(rows, options)}
    assert len(asked) <= len(distinct) < len(rows)
    for i, (reply, _, _, _) in enumerate(rows):
        one = extract_choice(None if reply is None else clean_reply(reply), options[i])
        assert (matched["letter"][i], matched["rule"][i], matched["score"][i]) == (one.letter, one.rule, one.score)
        assert matched["gold_letter"][i] == gold_choice(golds[i][0], options[i])
        assert matched["correct"][i] == (one.letter is not None and one.letter == matched["gold_letter"][i])
