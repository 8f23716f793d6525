"""Option texts named in a reply: a reply that equals or contains exactly one option's text names that option."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ...text.verdict import SENTENCE_END

MIN_CONTAINED_LENGTH = 2  # a one-character option (是, 3) is matched only by equality, never found inside a reply
MASK = "\x00"
_NEGATED = re.compile(r"(?:不是|并非|而非|不为|不选|排除|并不是|\bnot|n't|\bnever|\bexcept)\s*$", re.IGNORECASE)
_NEGATION_CUES = ("不是", "并非", "而非", "不为", "不选", "排除", "not", "n't", "never", "except")  # one is in every match
_TRAILING = " \t。．.；;，,"


def fold_spaces(text: str) -> str:
    """NFKC and every run of whitespace as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


@dataclass(frozen=True)
class OptionMentions:
    """Letters whose text the reply equals (case-sensitively when any does, else ignoring case), equals exactly, or
    names (not negated); and the reply with every exact occurrence of an option text masked, so capitals inside
    option texts (37.8°C, 维生素C, an option that is itself a letter) are never read as answer letters."""

    equal: tuple[str, ...]
    equal_exactly: tuple[str, ...]
    named: tuple[str, ...]
    masked: str


def whole_reply(text: str) -> str:
    """The reply as option texts are compared with it: trailing punctuation off both ends."""
    return text.strip(_TRAILING)


def has_dotted_i(text: str) -> bool:
    """Whether the text holds the Turkish İ or ı, the only letters `re` matches ignoring case whose case folds differ
    (so a case-folded search can miss what the pattern finds)."""
    return "İ" in text or "ı" in text


def option_texts(options: dict[str, str]) -> dict[str, str]:
    """Option texts as replies are compared with them: spaces folded, trailing punctuation off, those left empty
    (blank, or only punctuation such as "。") dropped."""
    texts = {letter: fold_spaces(body).strip(_TRAILING) for letter, body in options.items()}
    return {letter: text for letter, text in texts.items() if text}


def option_mentions(text: str, bodies: dict[str, str]) -> OptionMentions:
    """Find the options (`bodies` from option_texts) whose text the reply (spaces folded) or its first sentence
    equals, or that it contains (longest option texts first; a shorter one inside a longer one's occurrence does not
    count; Latin texts only at word edges). Case decides where options differ only by case ("SQ" / "sq"): a
    case-sensitive reading is tried first. The masked reply keeps the reply's offsets."""
    whole = whole_reply(text)
    candidates = (whole, _first_sentence(whole)) if SENTENCE_END.search(whole) else (whole,)
    exactly = _equal(bodies, candidates, False)
    named, masked = _named(text, bodies, False)
    if not named and any(_cased(body) for body in bodies.values()):
        named, _ = _named(text, bodies, True)
    return OptionMentions(exactly or _equal(bodies, candidates, True), exactly, named, masked)


def names_only(text: str, body: str) -> bool:
    """Whether option_mentions(text, {letter: body}) names that one option and finds the reply equal to none, decided
    for the commonest case — the text once, as written, at word edges, not negated, not the whole reply or its first
    sentence in any case; false for every other reply (which option_mentions then reads)."""
    start = text.find(body)
    if start < 0 or len(body) < MIN_CONTAINED_LENGTH or text.find(body, start + 1) >= 0:
        return False
    end = start + len(body)
    at_start, at_end = _latin_edges(body)
    if (at_start and start and _is_word_character(text[start - 1])) or \
            (at_end and end < len(text) and _is_word_character(text[end])) or _negated(text[max(0, start - 12):start]):
        return False
    whole = whole_reply(text)  # holding the text as written, it equals the text in some case only as written
    return whole != body and not (SENTENCE_END.search(whole) and _first_sentence(whole).casefold() == body.casefold())


def _first_sentence(whole: str) -> str:
    """The reply up to where its first sentence ends, trailing punctuation off."""
    return SENTENCE_END.split(whole, maxsplit=1)[0].strip(_TRAILING)


def _equal(bodies: dict[str, str], candidates: tuple[str, ...], ignore_case: bool) -> tuple[str, ...]:
    """Letters whose text equals the whole reply, else its first sentence ("3。因为…"), ignoring case or not."""
    for candidate in candidates:
        if ignore_case:
            candidate = candidate.casefold()
            found = [letter for letter, body in bodies.items() if body.casefold() == candidate]
        else:
            found = [letter for letter, body in bodies.items() if body == candidate]
        if found:
            return tuple(found)
    return ()


def _named(text: str, bodies: dict[str, str], ignore_case: bool) -> tuple[tuple[str, ...], str]:
    """Letters whose text occurs in the reply, not negated, and the reply with every occurrence masked."""
    named, masked = [], text
    for letter, body in sorted(bodies.items(), key=lambda item: -len(item[1])):
        for start, end in _occurrences(body, ignore_case, masked):
            if len(body) >= MIN_CONTAINED_LENGTH and not _negated(masked[max(0, start - 12):start]):
                named.append(letter)
            masked = masked[:start] + MASK * (end - start) + masked[end:]
    return tuple(dict.fromkeys(named)), masked


def _negated(before: str) -> bool:
    """Whether the text before an occurrence ends in a negation (不是, not, except…); lower case finds every cue,
    since no other character matches their letters ignoring case."""
    lowered = before.lower()
    for cue in _NEGATION_CUES:
        if cue in lowered:
            return _NEGATED.search(before) is not None
    return False


def _cased(body: str) -> bool:
    """Whether ignoring case can change where the text is found (it has letters with another case)."""
    return not body.lower() == body == body.upper()


def _latin_edges(body: str) -> tuple[bool, bool]:
    """Whether the text starts / ends with a Latin letter or digit (found only at a word edge there)."""
    return body[0].isascii() and body[0].isalnum(), body[-1].isascii() and body[-1].isalnum()


def _occurrences(body: str, ignore_case: bool, text: str) -> list[tuple[int, int]]:
    """The spans where an option text occurs in the reply, left to right without overlaps (a Latin letter or digit
    at the text's edge only at a word edge); a substring search, on lower case where both are ASCII, and a pattern
    compiled once per text only to ignore the case of other scripts."""
    if ignore_case and not (body.isascii() and text.isascii()):
        if not has_dotted_i(body + text) and body.casefold() not in text.casefold():
            return []  # what `re` matches ignoring case folds to equal texts, but for the Turkish dotted / dotless i
        return [match.span() for match in _pattern(body).finditer(text)]
    if ignore_case:
        body, text = body.lower(), text.lower()
    at_start, at_end = _latin_edges(body)
    spans, start = [], text.find(body)
    while start >= 0:
        end = start + len(body)
        if (at_start and start and _is_word_character(text[start - 1])) or \
                (at_end and end < len(text) and _is_word_character(text[end])):
            start = text.find(body, start + 1)
            continue
        spans.append((start, end))
        start = text.find(body, end)
    return spans


def _is_word_character(character: str) -> bool:
    """A Latin letter or an ASCII digit: what an option text with a Latin edge may not touch."""
    return character.isascii() and character.isalnum()


@lru_cache(maxsize=1 << 12)
def _pattern(body: str) -> re.Pattern:
    at_start, at_end = _latin_edges(body)
    return re.compile((r"(?<![A-Za-z0-9])" if at_start else "") + re.escape(body) + (r"(?![A-Za-z0-9])" if at_end
                                                                                       else ""), re.IGNORECASE)
