"""Number reading, table-driven: Chinese numerals with any scale, traditional forms, full-width digits, units, and
which of several numbers a reply asserts (with the rule that chose it), in English and Chinese."""
import pytest

from stages import compare_numeric, read_number
from stages.text.numbers import parse_chinese_numeral

VALUES = [  # (text, value, unit)
    ("三点五亿", 3.5e8, None),
    ("3.5亿", 3.5e8, None),
    ("两千三百万", 2.3e7, None),
    ("十二万五千", 125_000, None),
    ("一百零五", 105, None),
    ("1.2万亿", 1.2e12, None),
    ("三点五万亿", 3.5e12, None),
    ("12萬", 120_000, None),
    ("3億", 3e8, None),
    ("兩千", 2000, None),
    ("１２．５", 12.5, None),
    ("１２万人", 120_000, "人"),
    ("12万5千", 125_000, None),
    ("1亿2000万", 1.2e8, None),
    ("三百万元", 3e6, "元"),
    ("净利润为1,234.5万元", 12_345_000, "元"),
    ("15%", 0.15, "%"),
    ("$1,234", 1234, "$"),
    ("42 km", 42, "km"),
    ("100美元", 100, "美元"),
    ("30岁", 30, "岁"),
    ("2.5 million people", 2.5e6, "people"),
]

ASSERTED = [  # (reply, value, rule)
    ("去年为10万人，今年增至12.5万人", 125_000, "assertion_cue"),
    ("答案是12。验证：12×2=24", 12, "answer_cue"),
    ("The answer is 12, not 13.", 12, "answer_cue"),
    ("Step 1 gives 3. Final answer: 7", 7, "answer_cue"),
    ("I counted 3 apples and 4 pears, so the total is 7.", 7, "assertion_cue"),
    ("总计为300万元，其中100万元为借款", 3e6, "assertion_cue"),
    ("人口从50万达到了80万", 800_000, "last_number"),
    ("人口从50万增长到80万", 800_000, "assertion_cue"),
    ("营收约为3.5亿元，同比增长20%", 3.5e8, "assertion_cue"),
    ("第1步得6，结果为42", 42, "answer_cue"),
    ("2 cats and 5 dogs", 5, "last_number"),
    ("It was 5 in 2019 and rose to 8 in 2020", 8, "assertion_cue"),
    ("三点五亿", 3.5e8, "only_number"),
    ("No number here.", None, "no_number"),
    ("x ≈ 3.14，误差0.01", 3.14, "assertion_cue"),
]


@pytest.mark.parametrize("text, value, unit", VALUES)
def test_number_values_and_units(text, value, unit):
    reading = read_number(text)
    assert reading.value == pytest.approx(value)
    assert reading.unit == unit


@pytest.mark.parametrize("reply, value, rule", ASSERTED)
def test_the_asserted_number_is_compared(reply, value, rule):
    reading = read_number(reply)
    assert (reading.value if value is None else pytest.approx(value)) == reading.value
    assert reading.rule == rule


def test_chinese_numeral_parser():
    assert parse_chinese_numeral("三点五亿") == 3.5e8
    assert parse_chinese_numeral("一亿零五百万") == 105_000_000
    assert parse_chinese_numeral("一萬") == 10_000
    assert parse_chinese_numeral("点五") is None


@pytest.mark.parametrize("golden, prediction", [
    ("3.5亿", "三点五亿"), ("12萬", "120000"), ("125000", "十二万五千"), ("12.5万人", "去年为10万人，今年增至12.5万人"),
    ("2300万", "两千三百万"), ("105", "一百零五"),
])
def test_readings_that_used_to_fail_now_match(golden, prediction):
    result = compare_numeric(golden, prediction)
    assert result["numeric_match"] is True and result["label"] == "correct"


def test_compare_numeric_reports_units_and_rules():
    result = compare_numeric("12.5万人", "去年为10万人，今年增至12.5万人")
    assert (result["gold_value"], result["gold_unit"], result["gold_rule"]) == (125_000, "人", "only_number")
    assert (result["predicted_value"], result["predicted_unit"], result["predicted_rule"]) == (
        125_000, "人", "assertion_cue")


def test_tables_are_large_enough():
    assert len(VALUES) + len(ASSERTED) >= 30
