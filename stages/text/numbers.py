"""Numbers in answers: separators, signs, %, currency, scale words (k, million, 万, 亿), Chinese numerals, 1e3."""
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
_CN_CHARS = "零〇一二两三四五六七八九十百千万亿"
_ARABIC = re.compile(
    r"(?P<currency>[$€£¥])?\s*(?P<sign>[-+])?\s*(?P<currency2>[$€£¥])?"
    r"(?P<number>(?<![A-Za-z0-9_.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![A-Za-z0-9_.,])\d+(?:\.\d+)?"
    r"|(?<![A-Za-z0-9_.])\.\d+)"
    r"(?:[eE](?P<exponent>[-+]?\d+))?"
    r"(?:\s?(?P<scale>万亿|十万|百万|千万|thousand|million|billion|trillion|mn|bn)(?![A-Za-z])"
    r"|(?P<scale_letter>[kKMBT千万亿])(?![A-Za-z]))?"
    r"(?:\s?(?P<percent>%|percent\b|per cent\b))?"
)
_CHINESE = re.compile(f"[{_CN_CHARS}]+(?:点[{_CN_CHARS[:12]}]+)?(?:\\s?(?P<percent>%))?")


@dataclass(frozen=True)
class NumberMention:
    """A number found in text: its value (percentages as fractions: 15% → 0.15), where it is, and its unit."""

    value: float
    start: int
    end: int
    text: str
    unit: str | None = None


def prepare(text: str) -> str:
    """NFKC (full-width digits, ％, －) and the Unicode minus sign as '-'."""
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-")


def parse_chinese_numeral(text: str) -> float | None:
    """三百 → 300, 一千二百 → 1200, 两万三千 → 23000, 十五 → 15, 二〇二三 → 2023, 一点五 → 1.5."""
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
    mentions = []
    taken = [False] * len(text)
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
        mentions.append(NumberMention(value, start, match.end(), text[start:match.end()], unit))
        taken[start:match.end()] = [True] * (match.end() - start)
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
    return sorted(mentions, key=lambda m: m.start)


_CUE = re.compile(r"(?i:answer|total|result|equals|is|was|are|=|≈|approximately|about)\s*[:：]?\s*$|(?:为|是|共|合计|总计|答案|约|:|：)\s*$")


NUMBER_CHOICES = ("auto", "first", "last", "only")


def choose_number(text: str, mentions: list[NumberMention], choice: str = "auto") -> NumberMention | None:
    """The answer among the numbers: 'first', 'last', 'only' (None unless exactly one), or 'auto' — the only one,
    else the last one stated after a cue ('answer is', 'total is', '=', '为', '是', '共'), else the last."""
    if not mentions:
        return None
    if choice == "first":
        return mentions[0]
    if choice == "last":
        return mentions[-1]
    if choice == "only":
        return mentions[0] if len(mentions) == 1 else None
    if len(mentions) == 1:
        return mentions[0]
    return choose_cued_number(prepare(text), mentions)


def choose_cued_number(prepared: str, mentions: list[NumberMention]) -> NumberMention:
    """Among several numbers of prepared text: the last one stated after a cue, else the last."""
    cued = [m for m in mentions if _CUE.search(prepared[max(0, m.start - 20):m.start].rstrip("$€£¥ "))]
    return (cued or mentions)[-1]
