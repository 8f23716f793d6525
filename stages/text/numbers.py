"""Numbers in answers: separators, signs, %, currency, scale words (k, million, 万, 亿), Chinese numerals with any
scale (三点五亿, 十二万五千, traditional 萬 / 億 / 兩), 1e3, units; and which of several numbers a reply asserts."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

SCALES = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9,
    "t": 1e12, "trillion": 1e12, "千": 1e3, "万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8, "万亿": 1e12,
}
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_SECTIONS = {"万": 1e4, "亿": 1e8}
_CN_SCALES = ("万亿", "亿", "万", "千")  # may follow a numeral with a fraction: 三点五亿 (longest first)
_CN_CHARS = "零〇一二两三四五六七八九十百千万亿"
_TRADITIONAL = str.maketrans({"萬": "万", "億": "亿", "兩": "两"})
_ARABIC = re.compile(
    r"(?P<currency>[$€£¥])?\s*(?P<sign>[-+])?\s*(?P<currency2>[$€£¥])?"
    r"(?P<number>(?<![A-Za-z0-9_.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![A-Za-z0-9_.,])\d+(?:\.\d+)?"
    r"|(?<![A-Za-z0-9_.])\.\d+)"
    r"(?:[eE](?P<exponent>[-+]?\d+))?"
    r"(?:\s?(?P<scale>万亿|十万|百万|千万|thousand|million|billion|trillion|mn|bn)(?![A-Za-z])"
    r"|(?P<scale_letter>[kKMBT千万亿])(?![A-Za-z]))?"
    r"(?:\s?(?P<percent>%|percent\b|per cent\b))?"
)
_CHINESE = re.compile(f"[{_CN_CHARS}]+(?:点[{_CN_CHARS[:12]}]+(?:万亿|亿|万|千)?)?(?:\\s?(?P<percent>%))?")
_UNIT = re.compile(
    r"\s?(?P<unit>美元|欧元|英镑|日元|港元|人民币|公里|千米|厘米|毫米|千克|公斤|小时|分钟|平方米|立方米|毫升|"
    r"[元人个岁年月日天次件台辆家所篇页米吨度克升斤亩户位名只条张本份块倍票秒]|"
    r"(?i:km/h|m/s|km|kg|mg|cm|mm|ml|kwh|mph|usd|rmb|cny|eur|gbp|jpy|dollars?|euros?|yuan|people|persons?|"
    r"years?|days?|hours?|minutes?|seconds?|meters?|metres?|miles?|grams?|tons?|liters?|litres?|°c|°f|℃|℉)"
    r"(?![A-Za-z]))"
)


@dataclass(frozen=True)
class NumberMention:
    """A number found in text: its value (percentages as fractions: 15% → 0.15), where it is, and its unit (%, a
    currency sign, or the unit word after it: 元, 人, km)."""

    value: float
    start: int
    end: int
    text: str
    unit: str | None = None


def prepare(text: str) -> str:
    """NFKC (full-width digits, ％, －), the Unicode minus sign as '-', traditional 萬 / 億 / 兩 as 万 / 亿 / 两
    (one character for one: offsets are kept)."""
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-").translate(_TRADITIONAL)


def parse_chinese_numeral(text: str) -> float | None:
    """三百 → 300, 一千二百 → 1200, 两万三千 → 23000, 十五 → 15, 二〇二三 → 2023, 一点五 → 1.5, 三点五亿 → 3.5e8."""
    text = text.translate(_TRADITIONAL)
    if "点" in text:
        for scale in _CN_SCALES:
            if text.endswith(scale) and len(text) > len(scale):
                value = parse_chinese_numeral(text[:-len(scale)])
                return None if value is None else value * SCALES[scale]
    whole, _, fraction = text.partition("点")
    if not whole or any(ch not in _CN_CHARS for ch in whole) or any(ch not in _CN_DIGITS for ch in fraction):
        return None
    if all(ch in _CN_DIGITS for ch in whole) and len(whole) > 1:
        value = float("".join(str(_CN_DIGITS[ch]) for ch in whole))
    else:
        value = _parse_chinese_integer(whole)
        if value is None:
            return None
    if fraction:
        value += float("0." + "".join(str(_CN_DIGITS[ch]) for ch in fraction))
    return value


def _parse_chinese_integer(text: str) -> float | None:
    total, section, digit = 0.0, 0.0, None
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit = None
        elif ch in _CN_SECTIONS:
            section += digit or 0
            total = (total + section) * _CN_SECTIONS[ch] if _CN_SECTIONS[ch] > 1e4 else total + section * 1e4
            section, digit = 0.0, None
        else:
            return None
    return total + section + (digit or 0)


def extract_numbers(text: str) -> list[NumberMention]:
    """Every number in the text, in order of appearance (offsets refer to prepare(text))."""
    return numbers_in_prepared(prepare(text))


def numbers_in_prepared(text: str) -> list[NumberMention]:
    """extract_numbers for text that already went through prepare()."""
    mentions: list[NumberMention] = []
    taken = [False] * len(text)
    previous_scale = None
    for match in _ARABIC.finditer(text):
        value = float(match["number"].replace(",", ""))
        if match["exponent"]:
            value *= 10 ** int(match["exponent"])
        scale = match["scale"] or match["scale_letter"]
        if scale:
            value *= SCALES[scale.lower() if scale.isascii() else scale]
        if match["sign"] == "-":
            value = -value
        unit = "%" if match["percent"] else (match["currency"] or match["currency2"])
        if match["percent"]:
            value /= 100
        start = match.start("sign") if match["sign"] else match.start("number")
        cjk_scale = SCALES.get(scale) if scale and not scale.isascii() else None
        if (mentions and previous_scale and cjk_scale and cjk_scale < previous_scale and mentions[-1].end == start
                and not match["sign"] and not unit and not mentions[-1].unit):
            last = mentions.pop()  # 12万5千, 1亿2000万: one number written in two parts
            value, start = last.value + value, last.start
        mentions.append(NumberMention(value, start, match.end(), text[start:match.end()], unit))
        taken[start:match.end()] = [True] * (match.end() - start)
        previous_scale = cjk_scale
    for match in _CHINESE.finditer(text):
        token = match.group(0).rstrip("%").strip()
        if any(taken[match.start():match.end()]) or (len(token) == 1 and text.strip() != token):
            continue
        value = parse_chinese_numeral(token)
        if value is None:
            continue
        if match["percent"]:
            value /= 100
        mentions.append(NumberMention(value, match.start(), match.end(), match.group(0), "%" if match["percent"] else None))
    return sorted((_with_unit(text, m) for m in mentions), key=lambda m: m.start)


def _with_unit(text: str, mention: NumberMention) -> NumberMention:
    """The mention with the unit word written right after it (元, 人, km), when it has no % or currency sign."""
    if mention.unit:
        return mention
    unit = _UNIT.match(text, mention.end)
    return NumberMention(mention.value, mention.start, mention.end, mention.text, unit["unit"]) if unit else mention


NUMBER_CHOICES = ("auto", "first", "last", "only")
# What a reply asserts, strongest first: an answer cue, else a verb or sign that states a value; the last number
# after the strongest cue found is the answer.
_CUES = (
    ("answer_cue", re.compile(
        r"(?i:\b(?:final\s+answer|answer|result)\s*(?:is|=|:|would be|should be)?)\s*[:：]?\s*[$€£¥]?\s*$|"
        r"(?:答案|结果|最终答案)\s*(?:应该是|应为|是|为|等于)?\s*[:：]?\s*[$€£¥]?\s*$")),
    ("assertion_cue", re.compile(
        r"(?i:\b(?:equals?|is|was|are|were|totals?|reached|reaches|rose to|fell to|grew to|dropped to|"
        r"increased to|decreased to|approximately|about|around|roughly)\b)\s*[:：]?\s*[$€£¥]?\s*$|"
        r"(?:为|是|增至|增长到|增加到|升至|上升到|达到|达|降至|降到|下降到|减少到|减至|变为|变成|等于|约为|约|大约|"
        r"共计|共|合计|总计|≈|=|:|：)\s*[$€£¥]?\s*$")),
)


@dataclass(frozen=True)
class NumberReading:
    """The number a text answers with (None when it has none), its unit, and the rule that chose it."""

    value: float | None
    unit: str | None
    rule: str
    mention: NumberMention | None = None


def choose_number(text: str, mentions: list[NumberMention], choice: str = "auto") -> NumberMention | None:
    """The answer among the numbers: 'first', 'last', 'only' (None unless exactly one), or 'auto' — the only one,
    else the last one after the strongest cue (an answer cue such as 'answer is' / 答案是, then a value cue such as
    为 / 是 / 增至 / 达到 / 等于 / 约 / ≈ / =), else the last number of the final sentence that has one."""
    return chosen_number(prepare(text), mentions, choice)[0]


def chosen_number(prepared: str, mentions: list[NumberMention], choice: str) -> tuple[NumberMention | None, str]:
    """choose_number on prepared text, with the rule that chose it."""
    if not mentions:
        return None, "no_number"
    if choice == "first":
        return mentions[0], "first"
    if choice == "last":
        return mentions[-1], "last"
    if choice == "only":
        return (mentions[0], "only") if len(mentions) == 1 else (None, "not_only_number")
    if len(mentions) == 1:
        return mentions[0], "only_number"
    for rule, cue in _CUES:
        cued = [m for m in mentions if cue.search(prepared[max(0, m.start - 20):m.start])]
        if cued:
            return cued[-1], rule
    return mentions[-1], "last_number"  # the last number of the final sentence that holds one


def reading_among(prepared: str, mentions: list[NumberMention], choice: str) -> NumberReading:
    """The NumberReading of prepared text whose numbers are `mentions` (see choose_number)."""
    mention, rule = chosen_number(prepared, mentions, choice)
    return NumberReading(mention.value if mention else None, mention.unit if mention else None, rule, mention)


def read_number(text: str, choice: str = "auto") -> NumberReading:
    """The number a reply answers with, its unit and the rule that chose it (see choose_number)."""
    prepared = prepare(text)
    return reading_among(prepared, numbers_in_prepared(prepared), choice)
