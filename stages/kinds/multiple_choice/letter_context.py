"""Whether a capital letter in a reply is an answer letter or part of a name, unit or word: °C, 维生素C, B超, C型人格,
Vitamin C, Type A, T-cell, C++ are never answer letters."""
from __future__ import annotations

from ...core.arrow_strings import python_spaces
from ...text.normalize import has_cjk

# CJK characters that may stand right before or after an answer letter (选C, 答案为C, C项, C正确, C和D); any other
# CJK neighbour makes the letter part of a term (维生素C, B超, C型, A股, C语言).
_CJK_BEFORE = frozenset("选择是为案即故应和或与及项在把将以就则且中比答于：")
CJK_AFTER = frozenset("项选是为正对错不和或与及都也最更符吧啊呢吗了的说比较等这那")
_UNIT_BEFORE = frozenset("°º℃℉")
_SYMBOL_AFTER = frozenset("+#")
# English words that make the following capital a name: Vitamin C, Type A, Hepatitis B, point A, Figure B.
_NAME_WORDS = frozenset(
    "vitamin vitamins type types hepatitis class group grade plan model section category schedule appendix exhibit "
    "blood serotype subtype genotype allele level tier phase block building room zone region site series size cup "
    "chapter article figure fig table point line segment angle triangle vertex side plane circle team player person "
    "company country city factory patient subject sample star key note chord shell orbital ring strain protein "
    "form row column box bag cell tube lane gate floor unit area road route version".split()
)
_AFTER_WORD = python_spaces() + "."  # what may stand between the name word and its letter ("Type A", "fig. B")


def names_a_thing(text: str, index: int) -> bool:
    """True when the capital at text[index] belongs to a term rather than standing for an option."""
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if before in _UNIT_BEFORE or after in _SYMBOL_AFTER:
        return True
    if before and before not in _CJK_BEFORE and has_cjk(before):
        return True
    if after and after not in CJK_AFTER and has_cjk(after):
        return True
    if after == "-" and text[index + 2:index + 3].isalnum():
        return True  # T-cell, C-section, A-level
    if before == "-" and text[index - 2:index - 1].isalpha():
        return True  # type-A, hepatitis-B
    return _word_before(text[max(0, index - 24):index]).lower() in _NAME_WORDS


def _word_before(window: str) -> str:
    """The run of Latin letters that ends the window but for spaces and dots ("" when none): a scan from the end,
    three times as fast as a pattern searched from the start."""
    stem = window.rstrip(_AFTER_WORD)
    start = len(stem)
    while start and stem[start - 1].isascii() and stem[start - 1].isalpha():
        start -= 1
    return stem[start:]
