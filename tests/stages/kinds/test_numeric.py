import pytest

from stages import compare_numeric, extract_numbers, get_kind, parse_chinese_numeral
from stages.text.numbers import choose_number


@pytest.mark.parametrize(
    "text, value",
    [
        ("1,234,567", 1234567), ("1,234.5", 1234.5), ("-3.25", -3.25), ("−5", -5), ("+7", 7), ("15%", 0.15),
        ("１５％", 0.15), ("$1,234", 1234), ("€3.5", 3.5), ("¥100", 100), ("3.5k", 3500), ("2 thousand", 2000),
        ("1.2 million", 1_200_000), ("3.4M", 3_400_000), ("$1.2B", 1.2e9), ("2.5bn", 2.5e9), ("净利润为1,234.5万元", 12_345_000),
        ("1.2亿", 1.2e8), ("三百", 300), ("一千二百", 1200), ("两万三千", 23000), ("十五", 15), ("一点五", 1.5),
        ("二〇二三", 2023), ("三百万元", 3_000_000), ("1e3", 1000), ("2.5E-2", 0.025), ("１２３", 123), (".5", 0.5),
    ],
)
def test_single_number_forms(text, value):
    mentions = extract_numbers(text)
    assert len(mentions) == 1
    assert mentions[0].value == pytest.approx(value)


def test_spaced_lowercase_m_is_not_million_and_words_hide_no_numbers():
    assert [m.value for m in extract_numbers("The room is 5 m wide")] == [5]
    assert extract_numbers("v2 release of GPT4") == []
    assert extract_numbers("一些问题") == []  # a lone numeral inside prose is not a number


def test_chinese_numerals():
    assert parse_chinese_numeral("一亿零五百万") == 105_000_000
    assert parse_chinese_numeral("十") == 10
    assert parse_chinese_numeral("甲") is None


@pytest.mark.parametrize(
    "text, choice, expected",
    [
        ("I counted 3 apples and 4 pears, so the total is 7.", "auto", 7),
        ("The answer is 12, not 13.", "auto", 12),
        ("总计为300万元，其中100万元为借款", "auto", 3_000_000),
        ("2 cats and 5 dogs", "auto", 5),
        ("2 cats and 5 dogs", "first", 2),
        ("2 cats and 5 dogs", "only", None),
        ("only 9", "only", 9),
    ],
)
def test_which_number_is_the_answer(text, choice, expected):
    chosen = choose_number(text, extract_numbers(text), choice)
    assert (chosen.value if chosen else None) == expected


def test_compare_numeric_near_miss_is_not_correct():
    result = compare_numeric("1234569", "1234561")
    assert result["numeric_match"] is False
    # numeric similarity 1 - 8/1234569; text similarity: Indel ratio of "1234569" vs "1234561" = 12/14
    assert result["numeric_similarity"] == pytest.approx(1 - 8 / 1234569)
    assert result["text_similarity"] == pytest.approx(12 / 14)
    assert result["overall"] == pytest.approx(0.7 * (1 - 8 / 1234569) + 0.3 * 12 / 14)
    assert result["label"] == "partial"


def test_compare_numeric_units_and_scales():
    assert compare_numeric("净利润为1,234.5万元", "净利润是12,345,000元")["label"] == "correct"
    assert compare_numeric("1.2 million", "1200000")["numeric_match"] is True
    assert compare_numeric("三百", "300")["numeric_match"] is True
    assert compare_numeric("15%", "0.15")["exact_match"] is True
    assert compare_numeric("15%", "15")["numeric_match"] is False  # a percentage is not its bare number
    assert compare_numeric("−5", "-5")["exact_match"] is True
    assert compare_numeric("-2.5", "2.5")["exact_match"] is False


def test_tolerances():
    assert compare_numeric("3.14159", "3.14")["numeric_match"] is True  # |diff| 0.0016 ≤ 0.01
    assert compare_numeric("100", "101")["numeric_match"] is False
    assert compare_numeric("100", "101", rel_tol=0.02)["numeric_match"] is True
    assert compare_numeric("100", "101", abs_tol=1.0)["numeric_match"] is True


def test_weights_and_thresholds_are_parameters():
    # gold 100 vs 80: numeric similarity 1 - 20/100 = 0.8; text "100" vs "80": Indel 2·1/5 = 0.4
    default = compare_numeric("100", "80")
    assert default["overall"] == pytest.approx(0.7 * 0.8 + 0.3 * 0.4)
    assert default["label"] == "partial"
    text_only = compare_numeric("100", "80", numeric_weight=0.0)
    assert text_only["overall"] == pytest.approx(0.4) and text_only["label"] == "wrong"
    assert compare_numeric("100", "80", partial_threshold=0.7)["label"] == "wrong"


def test_no_number_on_one_side_uses_text_only():
    result = compare_numeric("about forty", "about forty")
    assert result["numeric_similarity"] is None and result["overall"] == 1.0 and result["label"] == "correct"


def test_kind_scores_unscorable_missing_and_confidence():
    kind = get_kind("numeric")
    params = dict(kind.defaults)
    joined = {"id": ["a", "b", "c", "d"], "golds": [["42"], ["7"], [], ["10"]],
              "prediction": ["The total is 42", "8", "5", None], "confidence": [0.9, 0.1, 0.5, None]}
    normalized, _ = kind.normalize(joined, params)
    matched, info = kind.match(normalized, params)
    matched = matched.to_pydict()
    assert matched["label"] == ["correct", "partial", "unscorable", "missing"]  # 8 vs 7: 0.7·(1-1/8) = 0.6125
    assert info["unscorable"] == ["c"]
    # B4 shows what was read from each side: values, units and the rule that chose the prediction's number
    assert matched["gold_value"] == [42, 7, None, 10] and matched["predicted_value"] == [42, 8, 5, None]
    assert matched["predicted_rule"] == ["only_number", "only_number", "only_number", "missing"]
    assert kind.item_view({k: v[0] for k, v in matched.items()})[1] == (
        "read 42 by only_number (gold 42), overall 0.77")  # 0.7·1 + 0.3·(2·2 / (2 + 15))
    _, metrics = kind.score(matched, params)
    assert metrics["scorable"] == 3 and metrics["unscorable"] == 1
    assert metrics["accuracy"] == pytest.approx(1 / 3)
    assert metrics["confidence_weighted_accuracy"] == pytest.approx(0.9 / (0.9 + 0.1))


def test_baseline_comparison():
    kind = get_kind("numeric")
    metrics = {"new": {"accuracy": 0.8, "mean_overall": 0.9}, "old": {"accuracy": 0.5, "mean_overall": 0.7}}
    comparison = kind.compare(metrics, {"baseline_model": "old"})
    assert comparison["vs_baseline"]["new"]["accuracy"] == pytest.approx(0.3)
    assert kind.compare(metrics, {"baseline_model": "gone"})["baseline_missing"] == "gone"


def test_columns_equal_the_per_row_comparison_row_for_row():
    """B3 / B4 read each distinct text once and compare each distinct pair once; every row equals numeric_answer and
    score_numeric on that row."""
    import random

    from stages.kinds.numeric.scoring import numeric_answer, score_numeric

    kind = get_kind("numeric")
    params = dict(kind.defaults)
    answers = ["42", "42.0", "1,234", "三百五十", "15%", "3.5 kg", "about 7", "no idea", "", "-2", "1e3", "8 或 9"]
    rng = random.Random(3)
    golds = [[rng.choice(answers[:8])] if i % 7 else [] for i in range(400)]
    predictions = [None if i % 11 == 0 else rng.choice(answers) for i in range(400)]
    joined = {"id": [str(i) for i in range(400)], "golds": golds, "prediction": predictions, "confidence": [None] * 400}
    normalized, _ = kind.normalize(joined, params)
    matched = kind.match(normalized, params)[0].to_pydict()
    tolerances = {name: params[name] for name in kind.stage_params["B4"]}
    for i, (gold, prediction) in enumerate(zip(golds, predictions)):
        if not gold:
            assert matched["label"][i] == "unscorable" and matched["overall"][i] is None
            continue
        if prediction is None:
            assert (matched["label"][i], matched["overall"][i]) == ("missing", 0.0)
            continue
        (gold_reading, gold_text), (reading, text) = numeric_answer(gold[0]), numeric_answer(prediction)
        expected = score_numeric(gold_reading.value, gold_text, reading.value, text, **tolerances)
        assert {name: matched[name][i] for name in expected} == expected
        assert (matched["predicted_unit"][i], matched["predicted_rule"][i]) == (reading.unit, reading.rule)
