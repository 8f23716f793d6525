"""The final answer of a math reply, taken as reasoning leaderboards take it: the last \\boxed{…} / \\fbox{…}, else the
text after the last answer cue, else the last math expression or number; with how it was taken."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...text.numbers import parse_chinese_numeral

BOXED, ANSWER_CUE, LAST_EXPRESSION, NO_FINAL_ANSWER = "boxed", "answer_cue", "last_expression", "no final answer"

_BOX_COMMANDS = ("\\boxed", "\\fbox")
_CUE = re.compile(r"final answer(?: is)?|the answer is|answer\s*[:：]|####|答案是|答案为|最终答案(?:是|为)?|答案\s*[:：]",
                  re.IGNORECASE)
_MATH_SEGMENT = re.compile(  # $$…$$, $…$ (an escaped \$ inside is a dollar sign), \(…\), \[…\]
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$((?:\\\$|[^$])+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_NUMBER = re.compile(r"-?\d+(?:,\d{3})+(?:\.\d+)?%?|-?\d+/\d+|-?\d*\.?\d+(?:[eE][+-]?\d+)?%?")
_WORDS = re.compile(r"\s+[^\W\d_]+(?: [^\W\d_]+)*|\s*[\u4e00-\u9fff]+")  # units or words after a number: 18 dollars, 5 个
_CLAUSE_END = re.compile(r"\n|。|；|，|(?<!\d)[.,;](?!\d)|[.,;](?=\s|$)")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_FRACTION_ZH = re.compile(r"(-?[\d零〇一二两三四五六七八九十百千万]+)\s*分之\s*([\d零〇一二两三四五六七八九十百千万]+)")
_SCIENTIFIC = re.compile(r"(?<![\w\\])(-?\d+(?:\.\d+)?)[eE]([+-]?\d+)(?![\w])")


@dataclass(frozen=True)
class FinalAnswer:
    """The answer text taken from a reply (None when there is none) and the rule that took it."""

    text: str | None
    how: str


def extract_final_answer(reply: str | None) -> FinalAnswer:
    """The reply's final answer: its last box, else what follows its last answer cue, else its last expression."""
    if reply is None or not reply.strip():
        return FinalAnswer(None, NO_FINAL_ANSWER)
    boxed = last_boxed(reply)
    if boxed is not None and boxed.strip():
        return FinalAnswer(math_text(boxed), BOXED)
    cued = _after_last_cue(reply)
    if cued:
        return FinalAnswer(math_text(cued), ANSWER_CUE)
    last = _last_expression(reply)
    return FinalAnswer(math_text(last), LAST_EXPRESSION) if last else FinalAnswer(None, NO_FINAL_ANSWER)


def last_boxed(text: str) -> str | None:
    """The contents of the last \\boxed{…} or \\fbox{…} (braces nested), or None when there is none or it never
    closes."""
    start = max(text.rfind(command) for command in _BOX_COMMANDS)
    if start < 0:
        return None
    opening = text.find("{", start)
    if opening < 0:
        return None
    depth = 0
    for position in range(opening, len(text)):
        if text[position] == "{":
            depth += 1
        elif text[position] == "}":
            depth -= 1
            if depth == 0:
                return text[opening + 1:position]
    return None


def _after_last_cue(reply: str) -> str | None:
    """The answer that follows the reply's last answer cue: its first math segment, else the clause up to the next
    sentence end."""
    cues = list(_CUE.finditer(reply))
    if not cues:
        return None
    rest = reply[cues[-1].end():].lstrip(" \t:：*")
    segment = _MATH_SEGMENT.match(rest)
    if segment:
        return next(group for group in segment.groups() if group is not None).strip()
    end = _CLAUSE_END.search(rest)
    clause = (rest if end is None else rest[:end.start()]).strip(" \t*$")
    number = _NUMBER.match(clause)
    if number and _WORDS.fullmatch(clause[number.end():]):
        return number.group()
    return clause or None


def _last_expression(reply: str) -> str | None:
    """The reply's last math segment ($…$, \\(…\\), \\[…\\]) or last number, whichever ends later."""
    segment = number = None
    for segment in _MATH_SEGMENT.finditer(reply):
        pass
    for number in _NUMBER.finditer(reply):
        pass
    if segment is not None and (number is None or number.end() <= segment.end()):
        return next(group for group in segment.groups() if group is not None).strip() or None
    return number.group() if number is not None else None


def math_text(text: str) -> str:
    """An answer as LaTeX math-verify reads: full-width characters as ASCII, Chinese N分之M as a fraction, 1.5e3 as
    1.5\\times 10^{3}, a bare % escaped; trailing full stops and $ signs dropped."""
    text = text.translate(_FULL_WIDTH).strip().rstrip(".。").strip("$ ").strip()
    text = _FRACTION_ZH.sub(lambda m: f"\\frac{{{_chinese_number(m[2])}}}{{{_chinese_number(m[1])}}}", text)
    text = _SCIENTIFIC.sub(r"\1\\times 10^{\2}", text)
    return re.sub(r"(?<!\\)%", r"\\%", text)


def _chinese_number(text: str) -> str:
    """Digits as they are; a Chinese numeral (三, 十二, 一百零五) as digits."""
    if text.lstrip("-").isdigit():
        return text
    value = parse_chinese_numeral(text)
    return text if value is None else f"{value:g}"
