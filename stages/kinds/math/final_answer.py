"""The final answer of a math reply, taken in math-verify's order of rules: a "final answer … is" statement after the
last box, else the last \\boxed{…} / \\fbox{…} (with the boxes beside it), else the answer after the last answer cue,
else the last math expression or number; with how it was taken. A gold is read the same way when it is prose."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...text.numbers import parse_chinese_numeral

BOXED, ANSWER_CUE, LAST_EXPRESSION, NO_FINAL_ANSWER = "boxed", "answer_cue", "last_expression", "no final answer"

_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_FINAL_CUE = re.compile(r"final answer(?: is)?", re.IGNORECASE)
_CUE = re.compile(r"final answer(?: is)?|the answer is|answer\s*[:：]|####|答案是|答案为|最终答案(?:是|为)?|答案\s*[:：]",
                  re.IGNORECASE)
_BETWEEN_BOXES = re.compile(  # what may stand between boxes that answer together: `\boxed{-2} \quad \text{and} \boxed{1}`
    r"(?:\s|[$,;&]|\\[,;!]|\\q?quad\b|\\text\s*\{\s*(?:and|or)?\s*\}|\b(?:and|or)\b)*")
_MATH_SEGMENT = re.compile(  # $$…$$, $…$ (an escaped \$ inside is a dollar sign), \(…\), \[…\]
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$((?:\\\$|[^$])+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_JOINED = re.compile(r"\s*(?:,?\s*(?:and|or)|,)\s*")  # between math segments that answer together: $1$, $2$ and $3$
_LEADING = re.compile(r"[\s:：*]*(?:\\?[\"'“])?\s*")  # before an answer: spaces, a colon, bold, an opening quote
_FRACTION = re.compile(r"-?\\[dt]?frac\{-?\d+(?:\.\d+)?\}\{-?\d+(?:\.\d+)?\}")  # \frac{10}{9} outside $…$
_NUMBER = re.compile(  # a number standing alone (not the 2 of AZYUK2A, x^2 or 3.2): 1 000, 1,234.5, 1000,99, 1/2, .4
    r"(?<![A-Za-z0-9_.\\^])(?:(?P<grouped>-?[1-9]\d{0,2}(?P<sep>[ ,])\d{3}(?:(?P=sep)\d{3})*(?:\.\d+)?)"
    r"|-?\d+/\d+|(?P<comma>-?\d+,\d+)|-?\d*\.?\d+(?:[eE][+-]?\d+)?)%?")
_WORDS = re.compile(r"\s+[^\W\d_]+(?: [^\W\d_]+)*|\s*[\u4e00-\u9fff]+")  # units or words after a number: 18 dollars, 5 个
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")  # a word, not a LaTeX command (\frac) nor one letter (x)
_BRACED = re.compile(r"\{[^{}]*\}")
_UNITS = re.compile(r"(?:\s+[A-Za-z]{2,}\.?)+\s*$")  # words after a gold's math: 5 cm, 8\sqrt{2} square inches
_MATHS = re.compile(r"[\d\\$+\-*/^=]")  # a digit, a LaTeX command, $ or an operator
_WORDS_ANSWER = re.compile(r"[A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,2}")  # Evelyn, no solution
_NUMBER_WORDS = re.compile(  # words that start with a number: five, twenty-one, a half, five cm
    r"(?:an? )?(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|"
    r"billion|half|halves|thirds?|quarters?)(?:[ -]|$)", re.IGNORECASE)
_IS = re.compile(r"(?:^|\s)(?:is|are)\b\s*:?\s*", re.IGNORECASE)
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
    """The reply's final answer: a "final answer" statement after its last box, else that box (with the boxes beside
    it), else what follows its last answer cue, else its last expression."""
    if reply is None or not reply.strip():
        return FinalAnswer(None, NO_FINAL_ANSWER)
    boxes = _last_boxes(reply)
    if boxes is not None:
        text, end = boxes
        stated = _cued_answer(reply, _FINAL_CUE, end)
        return FinalAnswer(math_text(stated), ANSWER_CUE) if stated else FinalAnswer(math_text(text), BOXED)
    cued = _cued_answer(reply, _CUE)
    if cued:
        return FinalAnswer(math_text(cued), ANSWER_CUE)
    last = _last_expression(reply)
    return FinalAnswer(math_text(last), LAST_EXPRESSION) if last else FinalAnswer(None, NO_FINAL_ANSWER)


def gold_answer(gold: str) -> str | None:
    """A gold's answer: the gold itself when it is math (MATH's `\\frac{1}{2}`, `-2,1`, `\\text{Evelyn}`), else taken
    as a reply's is (`The answer is 5.` → 5, a worked solution → its box; `8\\sqrt{2} cm` → its math), else a word
    answer of up to three words (`Evelyn`, lm-eval's minerva gold; math-verify compares it as text); None for a number
    in words (`five`) or a sentence without an answer."""
    if not (_BOX.search(gold) or _CUE.search(gold)):
        if not _is_prose(gold):
            return math_text(gold) or None
        head = _UNITS.sub("", gold)  # 8\sqrt{2} cm: the math before the words, not the reply's last number (2)
        if _MATHS.search(head) and not _is_prose(head):
            return math_text(head) or None
    found = extract_final_answer(gold).text
    if found:
        return found
    words = _last_words(gold)
    return words if _WORDS_ANSWER.fullmatch(words) and not _NUMBER_WORDS.match(words) else None


def gold_problem(gold: str) -> str | None:
    """Why a gold has no answer to compare (None when it has one)."""
    if gold_answer(gold) is not None:
        return None
    shown = gold if len(gold) <= 80 else gold[:77] + "..."
    if _NUMBER_WORDS.match(_last_words(gold)):
        return f"gold {shown!r} is a number in words: write it in digits"
    return f"gold {shown!r} has no answer to compare (no box, answer cue, math, number or word answer)"


def _last_words(gold: str) -> str:
    """What follows the gold's last answer cue (the whole gold when it has none), without punctuation around it."""
    cues = list(_CUE.finditer(gold))
    return (gold[cues[-1].end():] if cues else gold).strip(" \t\n:：*$.。\"'")


def last_boxed(text: str) -> str | None:
    """The contents of the last \\boxed{…} or \\fbox{…} (braces nested), or None when there is none or it never
    closes."""
    found = None
    for box in _BOX.finditer(text):
        found = box
    if found is None:
        return None
    end = _closing_brace(text, found.end() - 1)
    return None if end is None else text[found.end():end]


def _closing_brace(text: str, opening: int) -> int | None:
    """The position of the brace closing the one at `opening` (None when it never closes)."""
    depth = 0
    for position in range(opening, len(text)):
        if text[position] == "{":
            depth += 1
        elif text[position] == "}":
            depth -= 1
            if depth == 0:
                return position
    return None


def _last_boxes(text: str) -> tuple[str, int] | None:
    """The contents of the last non-empty box, joined (`-2, 1`) with the boxes just before it that nothing but `and`,
    commas, spaces and `$` separate from it, and where the last one ends; None when no box closes."""
    together: list[tuple[int, str]] = []  # (start, contents) of the boxes answering together
    last_end = -1
    for box in reversed(list(_BOX.finditer(text))):
        end = _closing_brace(text, box.end() - 1)
        closed = end is not None and text[box.end():end].strip()
        if together and not (closed and end < together[0][0]
                             and _BETWEEN_BOXES.fullmatch(text, end + 1, together[0][0])):
            break
        if closed:
            together.insert(0, (box.start(), text[box.end():end].strip()))
            last_end = max(last_end, end)
    return (", ".join(contents for _, contents in together), last_end) if together else None


def _cued_answer(reply: str, cues: re.Pattern, after: int = 0) -> str | None:
    """The answer after the last of `cues` (past position `after`) that is followed by one; earlier cues are tried
    when a later one is followed by prose alone."""
    for cue in reversed(list(cues.finditer(reply, after))):
        answer = _answer_after(reply[cue.end():])
        if answer:
            return answer
    return None


def _answer_after(rest: str) -> str | None:
    """The answer at the start of `rest`: its first math segment, else its clause up to the sentence's end — the
    number of `18 dollars`, the clause itself when it is math (`x = 5`, `\\frac{1}{2}`), and in prose (`The largest $n$
    is 34`) the math after its first `is`, else its first math."""
    rest = rest[_LEADING.match(rest).end():]
    segment = _MATH_SEGMENT.match(rest)
    if segment:
        return _segments_text([segment, *_segments_after(rest, segment)])
    end = _CLAUSE_END.search(rest)
    clause = (rest if end is None else rest[:end.start()]).strip(" \t*$")
    number = _NUMBER.match(clause)
    if number and (number.end() == len(clause) or _WORDS.fullmatch(clause, number.end())):
        return _number_text(number)
    if not _is_prose(clause):
        return clause or None
    stated = _IS.search(clause)
    return _first_math(clause[stated.end():] if stated else clause) or (_first_math(clause) if stated else None)


def _is_prose(text: str) -> bool:
    """Whether the text holds a word (two letters or more outside math, braces and LaTeX commands)."""
    text = _MATH_SEGMENT.sub(" ", text)
    while True:
        unbraced = _BRACED.sub(" ", text)
        if unbraced == text:
            return _PROSE_WORD.search(text) is not None
        text = unbraced


def _first_math(text: str) -> str | None:
    """The first math segment, bare fraction or number in the text, whichever starts first."""
    found = [m for m in (_MATH_SEGMENT.search(text), _FRACTION.search(text), _NUMBER.search(text)) if m is not None]
    return _match_text(min(found, key=lambda m: m.start())) if found else None


def _last_expression(reply: str) -> str | None:
    """The reply's last math segment ($…$, \\(…\\), \\[…\\]) with those joined to it by `and` or commas, bare
    fraction or number, whichever ends later."""
    last, segments = None, list(_MATH_SEGMENT.finditer(reply))
    for match in [*segments, *_FRACTION.finditer(reply), *_NUMBER.finditer(reply)]:
        if last is None or match.end() > last.end():  # on a tie the segment (the whole) is kept
            last = match
    if last is None or last.re is not _MATH_SEGMENT:
        return _match_text(last) if last is not None else None
    chain = [last]
    for segment in reversed(segments[:segments.index(last)][-5:]):
        if not _JOINED.fullmatch(reply, segment.end(), chain[0].start()):
            break
        chain.insert(0, segment)
    return _segments_text(chain)


def _segments_after(text: str, segment: re.Match) -> list[re.Match]:
    """The math segments (five at most) joined to `segment` by `and`, `or` or commas after it."""
    joined = []
    while len(joined) < 5:
        gap = _JOINED.match(text, segment.end())
        segment = _MATH_SEGMENT.match(text, gap.end()) if gap else None
        if segment is None:
            return joined
        joined.append(segment)
    return joined


def _segments_text(segments: list[re.Match]) -> str | None:
    """Math segments answering together, as one list (`1, 2`)."""
    return ", ".join(filter(None, (_match_text(segment) for segment in segments))) or None


def _match_text(match: re.Match) -> str | None:
    """The answer a match of a segment, bare fraction or number stands for."""
    if match.re is _NUMBER:
        return _number_text(match)
    if match.re is _MATH_SEGMENT:
        return next(group for group in match.groups() if group is not None).strip() or None
    return match.group()


def _number_text(number: re.Match) -> str:
    """A number as math-verify reads it inside a box: `1 000` as 1000, a decimal comma (`2,74`) as a point; thousands
    commas (`1,234`) kept."""
    if number["sep"] == " ":
        return number.group().replace(" ", "")
    return number.group().replace(",", ".") if number["comma"] else number.group()


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
