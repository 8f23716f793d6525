"""Answer normalization for EM/F1: official SQuAD v1.1, HotpotQA (same text rule), CJK-aware, and CMRC 2018's
first step (its segmentation happens when answers are matched)."""
from __future__ import annotations

import re
import string
import sys
import unicodedata
from functools import cache

from .cmrc import normalize_cmrc

QA_MODES = ("squad", "hotpot", "cjk", "cmrc")
_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
CJK_CHARACTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_CJK_TOKENS = re.compile(f"[{CJK_CHARACTERS}]|[^\\s{CJK_CHARACTERS}]+")
_ARTICLE_TOKENS = frozenset({"a", "an", "the"})


def normalize_squad(text: str) -> str:
    """Official SQuAD v1.1 normalize_answer: lowercase, drop ASCII punctuation, drop a/an/the, collapse spaces."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_ASCII_PUNCTUATION)).split())


@cache
def _unicode_punctuation_and_symbols() -> dict[int, None]:
    return {
        code: None
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code))[0] in "PS"
    }


def normalize_cjk(text: str) -> str:
    """NFKC, lowercase, drop all Unicode punctuation and symbols, CJK characters as single tokens, drop a/an/the."""
    text = unicodedata.normalize("NFKC", text).lower().translate(_unicode_punctuation_and_symbols())
    return " ".join(token for token in _CJK_TOKENS.findall(text) if token not in _ARTICLE_TOKENS)


NORMALIZERS = {"squad": normalize_squad, "hotpot": normalize_squad, "cjk": normalize_cjk, "cmrc": normalize_cmrc}


def has_cjk(text: str) -> bool:
    """True when the text holds at least one CJK (Chinese, Japanese, Korean) character."""
    return _CJK.search(text) is not None


def choose_mode(golds: list[str], question: str | None = None) -> str:
    """The mode for one row under mode='auto': cjk when the question or every gold answer has CJK text, else squad."""
    if (question and has_cjk(question)) or (golds and all(has_cjk(gold) for gold in golds)):
        return "cjk"
    return "squad"
