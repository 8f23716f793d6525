"""Which option letter a reply gives: ordered rules, each recorded; ambiguity and silence give None, never a guess."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ...text.similarity import normalize_text, text_similarity
from ...text.verdict import strip_think
from .options import LETTERS, options_as_dict

_TAGS = re.compile(r"</?\s*response\s*>", re.IGNORECASE)
_MARKUP = re.compile(r"\*\*|__|`|\$")
_BOXED = re.compile(r"\\boxed\s*\{\s*\(?\s*([A-Ja-j])\s*\)?\s*\}")
_EDGES = " \t\r\n.,;:!?。，；：！？()[]{}<>\"'“”‘’*_"
_LETTER_AFTER = (
    r"\s*[:：=]?\s*(?:option\s+|choice\s+|选项\s*)?"
    r"(?:\(([A-Ja-j])\)|\[([A-Ja-j])\]|([A-J])(?![A-Za-z0-9'’])|([a-j])(?=\s*(?:[.,;:!)\]]|$)))"
)
_STATEMENTS = (
    re.compile(
        r"(?i:\b(?:the\s+)?(?:correct|right|final|best)?\s*(?:answer|option|choice)\s*"
        r"(?:is|would be|should be|will be|must be)?)" + _LETTER_AFTER
    ),
    re.compile(r"(?i:\bI\s+(?:would\s+)?(?:choose|pick|select|go\s+with))" + _LETTER_AFTER),
    re.compile(
        r"(?:正确答案|最终答案|正确选项|答案)\s*(?:应该是|应当是|应是|应为|是|为)?\s*[:：]?\s*(?:选项)?\s*"
        r"[\(（]?\s*([A-Ja-j])(?![A-Za-z])"
    ),
    re.compile(r"(?:应该|应当|应|故|因此|所以|我)?\s*选(?:择)?\s*(?:选项)?\s*[\(（]?\s*([A-Ja-j])(?![A-Za-z])"),
)
_LEADING = re.compile(r"^\s*(?:\(([A-Ja-j])\)|([A-Ja-j])\s*[).:、:：])\s*(.*)$", re.DOTALL)
_LEADING_WORD = re.compile(r"^\s*([A-J])\s+(\S.*)$", re.DOTALL)
_POSITIVE = re.compile(
    r"(?:选项)?\s*([A-J])\s*(?:(?<!不)是对的|(?<!不)是正确的|(?<![不是])正确|(?<![不是])对(?:的)?(?![应])|"
    r"(?i:\s+is\s+(?:the\s+)?(?:correct|right)(?:\s+answer)?\b))"
)
_ALTERNATIVES = re.compile(r"(?<![A-Za-z])\(?([A-J])\)?\s*(?:\bor\b|或者|或|/)\s*\(?([A-J])(?![A-Za-z])")
_LONE = re.compile(r"(?<![A-Za-z0-9'’])([A-J])(?![A-Za-z0-9'’])")


@dataclass(frozen=True)
class ChoiceExtraction:
    """The extracted letter (None when unparsed or ambiguous), the rule that decided, and the similarity if any."""

    letter: str | None
    rule: str
    score: float | None = None


def clean_reply(text: str) -> str:
    """Strip <think> blocks, <RESPONSE> tags and markdown emphasis; NFKC (full-width letters and brackets)."""
    text = unicodedata.normalize("NFKC", strip_think(str(text)))
    return _MARKUP.sub("", _TAGS.sub(" ", text)).strip()


def _letters(matches: list[tuple[str, ...] | str]) -> set[str]:
    found = set()
    for match in matches:
        for group in (match if isinstance(match, tuple) else (match,)):
            if group:
                found.add(group.upper())
    return found


def _decide(letters: set[str], valid: str, rule: str) -> ChoiceExtraction | None:
    letters &= set(valid)
    if len(letters) == 1:
        return ChoiceExtraction(letters.pop(), rule)
    if len(letters) > 1:
        return ChoiceExtraction(None, f"ambiguous_{rule}")
    return None


def _best_option(text: str, options: dict[str, str], threshold: float, margin: float) -> ChoiceExtraction | None:
    exact = [letter for letter, body in options.items() if normalize_text(body) == normalize_text(text)]
    if len(exact) == 1:
        return ChoiceExtraction(exact[0], "option_text", 1.0)
    scored = sorted(((text_similarity(text, body), letter) for letter, body in options.items()), reverse=True)
    if not scored:
        return None
    best_score, best_letter = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    if best_score >= threshold and best_score - runner_up >= margin:
        return ChoiceExtraction(best_letter, "option_text", round(best_score, 4))
    return ChoiceExtraction(None, "option_text_below_threshold", round(best_score, 4))


def extract_choice(
    prediction: str | None,
    options: dict[str, str] | list[str] | str | None = None,
    similarity_threshold: float = 0.7,
    margin: float = 0.1,
) -> ChoiceExtraction:
    """The option letter a reply gives. Rules in order: boxed, bare letter, answer statement, leading letter,
    positive mention, lone capital letter, then text similarity to the options (best above the threshold and
    `margin` ahead of the runner-up). Two different letters from one rule → ambiguous (None)."""
    if prediction is None:
        return ChoiceExtraction(None, "missing")
    option_map = options_as_dict(options)
    valid = "".join(option_map) if option_map else LETTERS[:8]
    text = clean_reply(prediction)
    if not text:
        return ChoiceExtraction(None, "empty")
    for rule, found in (
        ("boxed", _letters(_BOXED.findall(text))),
        ("bare_letter", _letters([text.strip(_EDGES)]) if len(text.strip(_EDGES)) == 1 else set()),
    ):
        decided = _decide(found, valid, rule)
        if decided:
            return decided
    decided = _decide(_letters([m for p in _STATEMENTS for m in p.findall(text)]), valid, "answer_statement")
    if decided:
        offered = {letter for pair in _ALTERNATIVES.findall(text) for letter in pair if decided.letter in pair}
        return ChoiceExtraction(None, "ambiguous_answer_statement") if len(offered) > 1 else decided
    leading = _LEADING.match(text)
    if leading and (leading.group(1) or leading.group(2)).upper() in valid:
        return ChoiceExtraction((leading.group(1) or leading.group(2)).upper(), "leading_letter")
    word = _LEADING_WORD.match(text)
    if word and option_map and word.group(1) in option_map:
        match = _best_option(word.group(2), option_map, similarity_threshold, margin)
        if match and match.letter == word.group(1):
            return ChoiceExtraction(match.letter, "leading_letter_with_text", match.score)
    for rule, found in (
        ("positive_mention", _letters(_POSITIVE.findall(text))),
        ("lone_letter", _letters(_lone_letters(text, valid))),
    ):
        decided = _decide(found, valid, rule)
        if decided:
            return decided
    if option_map:
        return _best_option(text, option_map, similarity_threshold, margin)
    return ChoiceExtraction(None, "no_letter_no_options")


def _lone_letters(text: str, valid: str) -> list[str]:
    """Standalone capitals, minus the English article 'A' and the pronoun 'I' opening a phrase."""
    letters = []
    for match in _LONE.finditer(text):
        letter = match.group(1)
        after = text[match.end():match.end() + 2]
        if letter in "AI" and re.match(r"\s[a-z]", after):
            continue
        if letter in valid:
            letters.append(letter)
    return letters
