"""Seed 000's text similarity: the max of word containment, character containment, keyword Jaccard and ratio."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rapidfuzz import fuzz

from .normalize import CJK_CHARACTERS

STOPWORDS = frozenset(
    "a an the is are was were be been being of to in on at for with by from and or but not no it its this that "
    "these those there here as so do does did have has had i you he she we they them his her their our your my "
    "me us what which who whom whose how why when where than then there's it's".split()
) | frozenset("的 了 是 在 和 与 及 或 也 都 就 而 吗 呢 吧 啊 之 其 这 那 个 有".split())
_TOKENS = re.compile(f"[{CJK_CHARACTERS}]|[^\\W{CJK_CHARACTERS}_]+")
_PUNCTUATION = re.compile(r"[^\w\s]|_")


def normalize_text(text: str) -> str:
    """NFKC, lowercase, punctuation to spaces, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(_PUNCTUATION.sub(" ", text).split())


def tokens(text: str) -> list[str]:
    """Latin words and single CJK characters of normalized text."""
    return _TOKENS.findall(text)


@lru_cache(maxsize=1 << 16)
def _features(text: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """A text as text_similarity compares it: normalized, its words, its words less stopwords (once per text)."""
    normalized = normalize_text(text)
    words = frozenset(tokens(normalized))
    return normalized, words, words - STOPWORDS


def text_similarity(first: str, second: str) -> float:
    """Max of: all words of one inside the other (0.9), substring (short/long + 0.5, at most 1),
    keyword Jaccard without stopwords, and rapidfuzz's Indel ratio (≥ difflib's SequenceMatcher ratio)."""
    (a, words_a, keys_a), (b, words_b, keys_b) = _features(first), _features(second)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    scores = [fuzz.ratio(a, b) / 100]
    if (keys_a and keys_b and (keys_a <= keys_b or keys_b <= keys_a)) or (
        words_a and words_b and (words_a <= words_b or words_b <= words_a)
    ):
        scores.append(0.9)
    if a in b or b in a:
        shorter, longer = sorted((len(a), len(b)))
        scores.append(min(1.0, shorter / longer + 0.5))
    if keys_a or keys_b:
        scores.append(len(keys_a & keys_b) / len(keys_a | keys_b))
    return max(scores)
