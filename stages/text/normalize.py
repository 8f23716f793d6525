"""Answer normalization for EM/F1: official SQuAD v1.1, HotpotQA (same text rule), CJK-aware, and CMRC 2018's
first step (its segmentation happens when answers are matched)."""
from __future__ import annotations

import re
import string
import sys
import unicodedata
from functools import cache
from typing import TYPE_CHECKING

from ..core.arrow_strings import byte_counts, byte_ranges, offsets_of, re2_class, without_bytes
from .cmrc import normalize_cmrc

if TYPE_CHECKING:
    import pyarrow as pa

QA_MODES = ("squad", "hotpot", "cjk", "cmrc")
_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
CJK_CHARACTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_CJK_TOKENS = re.compile(f"[{CJK_CHARACTERS}]|[^\\s{CJK_CHARACTERS}]+")
_ARTICLE_TOKENS = frozenset({"a", "an", "the"})
_PUNCTUATION_BYTES = byte_ranges(string.punctuation.encode())
# Text the Arrow path leaves to Python: non-ASCII (Unicode case and \b) and control characters other than the
# whitespace ascii_split_whitespace knows (\x1c-\x1f are whitespace to str.split; the others are not \b word chars).
_PYTHON_ONLY_BYTES = byte_ranges(bytes([*range(0x00, 0x09), *range(0x0e, 0x20), *range(0x7f, 0x100)]))


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


def normalize_squad_column(texts: pa.Array) -> pa.Array:
    """normalize_squad on a string column. Printable ASCII text goes through Arrow kernels (lowercase, drop
    punctuation, split at whitespace, drop a/an/the tokens — once punctuation is gone, tokens are exactly the words
    `\\b` delimits); other rows (Unicode case and word boundaries, control characters) through normalize_squad."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = texts.cast(pa.string())
    redo = byte_counts(texts, _PYTHON_ONLY_BYTES) > 0
    tokens = pc.ascii_split_whitespace(without_bytes(pc.ascii_lower(texts), _PUNCTUATION_BYTES))
    words = pc.list_flatten(tokens)
    kept = pc.and_(pc.invert(pc.is_in(words, value_set=pa.array(sorted(_ARTICLE_TOKENS)))),
                   pc.greater(pc.binary_length(words), 0)).to_numpy(zero_copy_only=False)
    counts = np.bincount(pc.list_parent_indices(tokens).to_numpy()[kept], minlength=len(texts))
    joined = pc.binary_join(pa.ListArray.from_arrays(offsets_of(counts), words.filter(kept), mask=pc.is_null(texts)),
                            " ")
    return _in_python(joined, pa.array(redo), texts, normalize_squad)


def _in_python(computed: pa.Array, redo: pa.Array, texts: pa.Array, normalize) -> pa.Array:
    """`computed` with the rows where `redo` is true replaced by `normalize` of their text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not redo.true_count:
        return computed
    redone = pa.array([normalize(text) for text in texts.filter(redo).to_pylist()], pa.string())
    return pc.replace_with_mask(computed, redo, redone)


def normalize_column(texts: pa.Array, modes: pa.Array) -> pa.Array:
    """Each text normalized by its row's mode (NORMALIZERS); nulls stay null. squad / hotpot rows use Arrow kernels,
    cjk / cmrc rows only their own normalizer."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = texts.cast(pa.string())
    squad = pc.fill_null(pc.is_in(modes, value_set=pa.array(["squad", "hotpot"])), False)
    if squad.true_count == len(texts):
        return normalize_squad_column(texts)
    result = pa.nulls(len(texts), pa.string())
    if squad.true_count:
        result = pc.replace_with_mask(result, squad, normalize_squad_column(texts.filter(squad)))
    for mode in ("cjk", "cmrc"):
        rows = pc.and_(pc.equal(modes, mode), pc.is_valid(texts))
        result = _in_python(result, rows, texts, NORMALIZERS[mode])
    return result


def has_cjk_column(texts: pa.Array) -> pa.Array:
    """has_cjk per row of a string column (false for nulls; only non-ASCII text is searched)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    result = pa.array(np.zeros(len(texts), dtype=bool))
    wide = pc.invert(pc.fill_null(pc.string_is_ascii(texts), True))
    if not wide.true_count:
        return result
    found = pc.fill_null(pc.match_substring_regex(texts.filter(wide), re2_class(CJK_CHARACTERS, ranges=True)), False)
    return pc.replace_with_mask(result, wide, found)


NORMALIZERS = {"squad": normalize_squad, "hotpot": normalize_squad, "cjk": normalize_cjk, "cmrc": normalize_cmrc}


def has_cjk(text: str) -> bool:
    """True when the text holds at least one CJK (Chinese, Japanese, Korean) character."""
    return _CJK.search(text) is not None


def choose_mode(golds: list[str], question: str | None = None) -> str:
    """The mode for one row under mode='auto': cjk when the question or every gold answer has CJK text, else squad."""
    if (question and has_cjk(question)) or (golds and all(has_cjk(gold) for gold in golds)):
        return "cjk"
    return "squad"
