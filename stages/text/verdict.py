"""Verdict reading for fact verification (seed 002): public vocabularies (FEVER, HoVer, ExFEVER, FEVEROUS, VitaminC,
AVeriTeC, SciFact) and English / Chinese replies → T / F / uncertain, or a dataset's own classes through a label map.
Graded verdicts (half-true, mostly false, 部分成立) and anything else unclear are 'unparsed', never a guess."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

TRUE, FALSE, UNCERTAIN, UNPARSED = "T", "F", "uncertain", "unparsed"
VERDICT_LABELS = (TRUE, FALSE, UNCERTAIN)

# Whole replies (after verdict_key: NFKC, lower case, '_' and '-' as spaces, edges and markup stripped).
_EXACT = {
    TRUE: (
        "t", "true", "yes", "y", "supports", "supported", "support", "成立", "正确", "支持", "对", "是", "属实", "真",
        "真实", "屬實", "正確", "確實",
    ),
    FALSE: (
        "f", "false", "no", "n", "refutes", "refuted", "refute", "not supported", "not supports", "contradict",
        "contradicts", "contradicted", "不成立", "错误", "不支持", "错", "否", "不属实", "假", "虚假", "不正确",
        "錯誤", "不屬實", "不正確",
    ),
    UNCERTAIN: (
        "u", "uncertain", "unknown", "nei", "not enough info", "not enough information", "not enough evidence",
        "insufficient", "insufficient evidence", "unverifiable", "not verifiable", "不确定", "证据不足", "无法判断",
        "无法确定", "信息不足", "證據不足", "無法判斷", "不確定",
    ),
}
_EXACT_LOOKUP = {form: label for label, forms in _EXACT.items() for form in forms}

# A verdict that is neither true nor false: a hedge before a verdict word, or a mixed rating.
_GRADED = re.compile(
    r"\b(?:half|mostly|partly|partially|largely|somewhat|barely|mainly|generally|slightly)\s*"
    r"(?:true|false|correct|incorrect|accurate|inaccurate|supported|refuted|right|wrong)\b|"
    r"\bnot\s+(?:entirely|completely|fully|wholly|totally|quite|exactly)\s+"
    r"(?:true|false|correct|incorrect|accurate|supported|refuted|right|wrong)\b|"
    r"\b(?:mixture|mixed|partly|partially|half true|half false|conflicting evidence|cherry ?picking|misleading)\b|"
    r"(?:部分|基本上?|大体上?|大致|大部分|大多|半|不完全|并不完全|不全)[^。，,；;！？!?]{0,4}?"
    r"(?:成立|属实|正确|真实|错误|不成立|不属实|不正确|虚假|对|错)|半真半假|真假参半|有真有假"
)
_KEYWORDS = (  # order: uncertain phrases, then negations, then affirmations ("不成立" before "成立")
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
_LABELED = re.compile(
    r"(?:final answer|答案|结论|判定|判断|结果|verdict|answer|label|prediction|conclusion)\s*(?:is|为|是)?\s*[:：]\s*"
    r"([^\n。！？!?;；]+)"
)
_LABELED_LETTER = re.compile(
    r"(?:答案|结论|判定|判断|结果|verdict|answer|label|prediction)\s*(?:is|为|是)?\s*[:：]?\s*\**\s*([tfu])(?![\w'])"
)
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)
SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?:\s|$)")  # where a sentence of a reply ends
_EDGE = " \t\r\n*_`'\"“”‘’.,;:!?。，；：！？()[]{}（）【】「」<>"
_SEPARATORS = re.compile(r"[\s_\-]+")


@dataclass(frozen=True)
class VerdictReading:
    """The label read from a reply (a class, or 'unparsed') and the rule that decided it."""

    label: str
    rule: str


def strip_think(text: str) -> str:
    """Remove <think>…</think> reasoning blocks (an unclosed block runs to the end)."""
    return _THINK.sub(" ", text)


def verdict_key(text: str) -> str:
    """A label as compared with vocabularies: NFKC, lower case, '_' / '-' / runs of spaces as one space, edges
    (quotes, brackets, markup, punctuation) stripped. NOT_SUPPORTED, not-supported and 'Not Supported' meet."""
    cleaned = unicodedata.normalize("NFKC", text).lower().strip(_EDGE)
    return _SEPARATORS.sub(" ", cleaned).strip(_EDGE)


class VerdictReader:
    """Reads verdicts with the built-in vocabularies, and a dataset's label map first: {label: class}, where a class
    spelled as a built-in verdict (SUPPORTS, 成立) is that verdict and any other value is a class of its own."""

    def __init__(self, label_map: Mapping[str, str] | None = None) -> None:
        self.label_map = {verdict_key(k): _class_name(v) for k, v in (label_map or {}).items()}
        mapped = set(self.label_map.values())
        self.classes = tuple(dict.fromkeys(self.label_map.values())) if mapped - set(VERDICT_LABELS) else VERDICT_LABELS
        self.read = lru_cache(maxsize=1 << 16)(self._read)

    def _read(self, text: str) -> VerdictReading:
        reading = _builtin_reading(strip_think(text), self.label_map)
        if reading.label != UNPARSED and reading.label not in self.classes:
            return VerdictReading(UNPARSED, f"not_a_class ({reading.label})")
        return reading

    def label(self, text: object) -> str:
        """The class of a reply, or 'unparsed'."""
        return UNPARSED if text is None else self.read(str(text)).label


def _class_name(value: str) -> str:
    """A label map's class: a built-in verdict where the value reads exactly as one, else the value itself."""
    return _EXACT_LOOKUP.get(verdict_key(str(value)), str(value).strip())


def _lookup(key: str, label_map: dict[str, str]) -> VerdictReading | None:
    if key in label_map:
        return VerdictReading(label_map[key], "label_map")
    if key in _EXACT_LOOKUP:
        return VerdictReading(_EXACT_LOOKUP[key], "exact")
    return None


def _builtin_reading(text: str, label_map: dict[str, str]) -> VerdictReading:
    key = verdict_key(text)
    if not key:
        return VerdictReading(UNPARSED, "empty")
    exact = _lookup(key, label_map)
    if exact:
        return exact
    if _GRADED.fullmatch(key):
        return VerdictReading(UNPARSED, "graded")
    cleaned = " ".join(unicodedata.normalize("NFKC", text).lower().split())
    labeled = [_lookup(verdict_key(value), label_map) for value in _LABELED.findall(cleaned)]
    if labeled and labeled[-1]:
        return VerdictReading(labeled[-1].label, f"labeled_{labeled[-1].rule}")
    letters = _LABELED_LETTER.findall(cleaned)
    if letters:
        return VerdictReading({"t": TRUE, "f": FALSE, "u": UNCERTAIN}[letters[-1]], "labeled_letter")
    sentences = [s for s in SENTENCE_END.split(cleaned) if s.strip(_EDGE)]
    scopes = ([("final_sentence", sentences[-1])] if len(sentences) > 1 else []) + [("reply", cleaned)]
    for scope_name, scope in scopes:
        if _GRADED.search(_SEPARATORS.sub(" ", scope)):
            return VerdictReading(UNPARSED, "graded")
        for label, pattern in _KEYWORD_PATTERNS:
            if pattern.search(scope):
                return VerdictReading(label, f"keyword_{scope_name}")
    return VerdictReading(UNPARSED, "no_verdict")


def label_map_problem(value: object) -> str | None:
    """Why a label_map value is not usable (a parameter rule), or None: a table of label → class, both text, with
    no two labels that read alike (SUPPORTED / supported) sent to different classes."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                              for k, v in value.items()):
        return 'must be a table of label = "class" (both text, e.g. entailment = "SUPPORTS")'
    seen: dict[str, tuple[str, str]] = {}
    for label, target in value.items():
        key, cls = verdict_key(label), _class_name(target)
        if key in seen and seen[key][1] != cls:
            return f"maps {seen[key][0]!r} and {label!r}, which read alike, to different classes"
        seen[key] = (label, cls)
    return None


@lru_cache(maxsize=64)
def _reader(items: tuple[tuple[str, str], ...]) -> VerdictReader:
    return VerdictReader(dict(items))


def verdict_reader(label_map: Mapping[str, str] | None = None) -> VerdictReader:
    """The reader for a label map (one per distinct map, kept for the process)."""
    return _reader(tuple(sorted((label_map or {}).items())))


def read_verdict(text: object, label_map: Mapping[str, str] | None = None) -> VerdictReading:
    """The verdict in a reply and the rule that found it: label_map, exact, labeled_*, keyword_final_sentence,
    keyword_reply; unparsed by graded, no_verdict, empty, missing or not_a_class."""
    if text is None:
        return VerdictReading(UNPARSED, "missing")
    return verdict_reader(label_map).read(str(text))


def normalize_verdict(text: object, label_map: Mapping[str, str] | None = None) -> str:
    """T, F or uncertain (or a label_map class) for a verdict in English or Chinese; 'unparsed' when none is found."""
    return read_verdict(text, label_map).label
