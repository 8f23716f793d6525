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


def option_texts(options: dict[str, str]) -> dict[str, str]:
    """Option texts as replies are compared with them: spaces folded, trailing punctuation off, empty ones dropped."""
    return {letter: fold_spaces(body).strip(_TRAILING) for letter, body in options.items() if body.strip()}


def option_mentions(text: str, bodies: dict[str, str]) -> OptionMentions:
    """Find the options (`bodies` from option_texts) whose text the reply (spaces folded) or its first sentence
    equals, or that it contains (longest option texts first; a shorter one inside a longer one's occurrence does not
    count; Latin texts only at word edges). Case decides where options differ only by case ("SQ" / "sq"): a
    case-sensitive reading is tried first. The masked reply keeps the reply's offsets."""
    whole = text.strip(_TRAILING)
    first_sentence = SENTENCE_END.split(whole, maxsplit=1)[0].strip(_TRAILING)
    exactly = _equal(bodies, whole, first_sentence, str)
    ignoring_case = _equal(bodies, whole, first_sentence, str.casefold)
    named, masked = _named(text, bodies, 0)
    if not named:
        named, _ = _named(text, bodies, re.IGNORECASE)
    return OptionMentions(exactly or ignoring_case, exactly, named, masked)


def _equal(bodies: dict[str, str], whole: str, first_sentence: str, fold) -> tuple[str, ...]:
    """Letters whose text equals the whole reply, else its first sentence ("3。因为…")."""
    for candidate in (whole, first_sentence):
        found = tuple(letter for letter, body in bodies.items() if fold(body) == fold(candidate))
        if found:
            return found
    return ()


def _named(text: str, bodies: dict[str, str], flags: int) -> tuple[tuple[str, ...], str]:
    """Letters whose text occurs in the reply, not negated, and the reply with every occurrence masked."""
    named, masked = [], text
    for letter, body in sorted(bodies.items(), key=lambda item: -len(item[1])):
        for match in list(_occurrences(body, flags).finditer(masked)):
            negated = _NEGATED.search(masked[max(0, match.start() - 12):match.start()])
            if len(body) >= MIN_CONTAINED_LENGTH and not negated:
                named.append(letter)
            masked = masked[:match.start()] + MASK * (match.end() - match.start()) + masked[match.end():]
    return tuple(dict.fromkeys(named)), masked


@lru_cache(maxsize=1 << 14)
def _occurrences(body: str, flags: int) -> re.Pattern:
    start = r"(?<![A-Za-z0-9])" if body[0].isascii() and body[0].isalnum() else ""
    end = r"(?![A-Za-z0-9])" if body[-1].isascii() and body[-1].isalnum() else ""
    return re.compile(start + re.escape(body) + end, flags)
