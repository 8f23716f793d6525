"""Verdict normalization for fact verification (seed 002): English and Chinese forms → T / F / uncertain."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

TRUE, FALSE, UNCERTAIN, UNPARSED = "T", "F", "uncertain", "unparsed"
VERDICT_LABELS = (TRUE, FALSE, UNCERTAIN)

_EXACT = {
    TRUE: ("t", "true", "yes", "y", "成立", "正确", "支持", "对", "是", "属实", "supports", "supported", "support"),
    FALSE: ("f", "false", "no", "n", "不成立", "错误", "不支持", "错", "否", "不属实", "refutes", "refuted", "refute"),
    UNCERTAIN: (
        "u", "uncertain", "unknown", "不确定", "证据不足", "无法判断", "not enough info", "not enough information",
        "nei", "insufficient", "unverifiable", "not verifiable",
    ),
}
_EXACT_LOOKUP = {form: label for label, forms in _EXACT.items() for form in forms}

# Order matters: uncertain phrases, then negations, then affirmations ("不成立" before "成立", "not true" before "true").
_KEYWORDS = (
    (UNCERTAIN, r"证据不足|无法判断|无法确定|不能确定|难以判断|不确定|无法验证|信息不足|"
                r"\bnot enough (?:info|information|evidence)\b|\binsufficient (?:evidence|information|info)\b|"
                r"\bcan(?:not|'t) be (?:determined|verified)\b|\bcannot determine\b|\bunverifiable\b|"
                r"\bnot verifiable\b|\buncertain\b|\bundetermined\b"),
    (FALSE, r"不成立|不支持|不正确|不属实|不真实|虚假|被反驳|反驳|错误|"
            r"\brefute[sd]?\b|\bnot supported\b|\bunsupported\b|\bnot true\b|\bnot correct\b|\bfalse\b|"
            r"\bincorrect\b|\bdoes not hold\b|\bdoesn't hold\b"),
    (TRUE, r"成立|支持|正确|属实|真实|\bsupport(?:s|ed)?\b|\btrue\b|\bcorrect\b|\bholds\b"),
)
_KEYWORD_PATTERNS = tuple((label, re.compile(pattern)) for label, pattern in _KEYWORDS)
_LABELED_LETTER = re.compile(
    r"(?:答案|结论|判定|判断|结果|verdict|answer|label|prediction)\s*(?:is|为|是)?\s*[:：]?\s*\**\s*([tfu])(?![\w'])"
)
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?:\s|$)")
_EDGE = " \t\r\n*_`'\"“”‘’.,;:!?。，；：！？()[]{}（）【】「」<>"


def strip_think(text: str) -> str:
    """Remove <think>…</think> reasoning blocks (an unclosed block runs to the end)."""
    return _THINK.sub(" ", text)


def normalize_verdict(text: object) -> str:
    """T, F or uncertain for a verdict in English or Chinese (FEVER labels too); 'unparsed' when none is found."""
    return UNPARSED if text is None else _verdict_of(str(text))


@lru_cache(maxsize=1 << 16)
def _verdict_of(text: str) -> str:
    """normalize_verdict on text, remembered: labels and short replies repeat across rows."""
    cleaned = unicodedata.normalize("NFKC", strip_think(text)).lower().strip(_EDGE)
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        return UNPARSED
    if cleaned in _EXACT_LOOKUP:
        return _EXACT_LOOKUP[cleaned]
    labeled = _LABELED_LETTER.findall(cleaned)
    if labeled:
        return {"t": TRUE, "f": FALSE, "u": UNCERTAIN}[labeled[-1]]
    sentences = [s for s in _SENTENCE_END.split(cleaned) if s.strip(_EDGE)]
    for scope in ([sentences[-1]] if len(sentences) > 1 else []) + [cleaned]:
        for label, pattern in _KEYWORD_PATTERNS:
            if pattern.search(scope):
                return label
    return UNPARSED
