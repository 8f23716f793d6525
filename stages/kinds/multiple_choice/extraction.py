"""Which option letter a reply gives: ordered rules, each recorded; ambiguity and silence give None, never a guess."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ...text.similarity import text_similarity
from ...text.verdict import strip_think
from .letter_context import names_a_thing
from .option_mentions import MASK, OptionMentions, fold_spaces, has_dotted_i, option_mentions, option_texts
from .options import LETTERS, options_as_dict

_TAGS = re.compile(r"</?\s*response\s*>", re.IGNORECASE)
_MARKUP = re.compile(r"\*\*|__|`|\$")
_BOXED = re.compile(r"\\boxed\s*\{\s*\(?\s*([A-Ja-j])\s*\)?\s*\}")
EDGES = " \t\r\n.,;:!?。，；：！？()[]{}<>\"'“”‘’*_"
_LETTER_AFTER = (
    r"\s*[:：=]?\s*(?:option\s+|choice\s+|选项\s*)?"
    r"(?:\(([A-Ja-j])\)|\[([A-Ja-j])\]|([A-J])(?![A-Za-z0-9'’])|([a-j])(?=\s*(?:[.,;:!)\]]|$)))"
)
_STATEMENTS = (
    # "the correct answer is": spelled as what may stand before the keyword (a word edge, or an adjective glued to
    # it), so the search opens on a/o/c (three times as fast); the captured letters are the same
    re.compile(
        r"(?i:(?=[aoc])(?:\b|(?<=\bcorrect)|(?<=\bright)|(?<=\bfinal)|(?<=\bbest))(?:answer|option|choice)\s*"
        r"(?:is|would be|should be|will be|must be)?)" + _LETTER_AFTER
    ),
    re.compile(r"(?i:\bI\s+(?:would\s+)?(?:choose|pick|select|go\s+with))" + _LETTER_AFTER),
    re.compile(
        r"(?:正确答案|最终答案|正确选项|答案)\s*(?:应该是|应当是|应是|应为|是|为)?\s*[:：]?\s*(?:选项)?\s*"
        r"[\(（]?\s*([A-Ja-j])(?![A-Za-z])"
    ),
    # 应该选 / 故选 / 我选 …: the word before 选 changes no captured letter, so the pattern opens on 选 (searched for
    # as a literal, twice as fast)
    re.compile(r"选(?:择)?\s*(?:选项)?\s*[\(（]?\s*([A-Ja-j])(?![A-Za-z])"),
)
_LEADING = re.compile(r"^\s*(?:\(([A-Ja-j])\)|([A-Ja-j])\s*[).:、:：])\s*(.*)$", re.DOTALL)
_LEADING_WORD = re.compile(r"^\s*([A-J])\s+(\S.*)$", re.DOTALL)
_POSITIVE = re.compile(  # "选项 C 正确": the words before the letter change no captured letter, so are not spelled
    r"([A-J])\s*(?:(?<!不)是对的|(?<!不)是正确的|(?<![不是])正确|(?<![不是])对(?:的)?(?![应])|"
    r"(?i:\s+is\s+(?:the\s+)?(?:correct|right)(?:\s+answer)?\b))"
)
_ALTERNATIVES = re.compile(  # opens on what a match starts with, "(" or the letter, so the search skips the rest
    r"(?=[(A-J])(?<![A-Za-z])\(?([A-J])\)?\s*(?:\bor\b|或者|或|/)\s*\(?([A-J])(?![A-Za-z])")
_LONE = re.compile(r"(?<![A-Za-z0-9'’])([A-J])(?![A-Za-z0-9'’])")
NO_MENTIONS = OptionMentions((), (), (), "")  # a reply that holds none of its options' texts
# Each pattern with texts one of which every match of it holds (in the case-folded reply): a reply with none of
# them is not searched.
_BOXED_CUED = ((_BOXED, ("\\boxed",)),)
ANSWER_CUES = ("answer", "option", "choice")  # the cues of the first statement, "the correct answer is"
_STATEMENTS_CUED = tuple(zip(_STATEMENTS, (ANSWER_CUES, ("choose", "pick", "select", "go"),
                                           ("答案", "正确选项"), ("选",))))
STATEMENT_CUES = tuple(cue for _, cues in _STATEMENTS_CUED for cue in cues)  # a reply without any: no statement
_POSITIVE_CUED = ((_POSITIVE, ("对", "正确", "correct", "right")),)


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


def case_folded(text: str) -> str | None:
    """The reply as patterns' cues are looked up in: case-folded, or None (every cue present) when it holds the
    Turkish İ or ı, which `re` matches ignoring case as i but case folding does not."""
    return None if has_dotted_i(text) else text.casefold()


def _letters(patterns: tuple[tuple[re.Pattern, tuple[str, ...]], ...], text: str, masked: str,
             folded: str | None) -> set[str]:
    """The letters the patterns' groups capture, less capitals inside an option's text (masked) or belonging to a
    term (°C, 维生素C, B超, Type A); a pattern none of whose cues the reply (folded: case_folded) holds is skipped."""
    found = set()
    for pattern, cues in patterns:
        if folded is not None and not _holds_any(folded, cues):
            continue
        for match in pattern.finditer(text):
            for index, group in enumerate(match.groups(), start=1):
                if group and masked[match.start(index)] != MASK and not names_a_thing(text, match.start(index)):
                    found.add(group.upper())
    return found


@lru_cache(maxsize=1 << 10)
def letter_by_rule(letter: str | None, rule: str) -> ChoiceExtraction:
    """The ChoiceExtraction of a letter rule (no score), one shared object per (letter, rule): a frozen dataclass
    is slow to build, and a million rows read by a few rules need only a few."""
    return ChoiceExtraction(letter, rule)


def _holds_any(text: str, parts: tuple[str, ...]) -> bool:
    """Whether the text holds any of the parts (a loop: cheaper than any() over a generator for a few parts)."""
    for part in parts:
        if part in text:
            return True
    return False


def _decide(letters: set[str], valid: str, rule: str) -> ChoiceExtraction | None:
    if not letters:
        return None
    letters &= set(valid)
    if len(letters) == 1:
        return letter_by_rule(letters.pop(), rule)
    if len(letters) > 1:
        return letter_by_rule(None, f"ambiguous_{rule}")
    return None


def _best_option(text: str, options: dict[str, str], threshold: float, margin: float) -> ChoiceExtraction | None:
    scored = sorted(((text_similarity(text, body), letter) for letter, body in options.items()), reverse=True)
    if not scored:
        return None
    best_score, best_letter = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    return similarity_reading(best_letter, best_score, best_score >= threshold and best_score - runner_up >= margin)


def similarity_reading(letter: str, score: float, chosen: bool) -> ChoiceExtraction:
    """The reading of the last rule: the most similar option's letter when it is chosen (above the threshold, ahead
    of the runner-up by the margin), else none; its similarity rounded either way."""
    if chosen:
        return ChoiceExtraction(letter, "option_text_similar", round(score, 4))
    return ChoiceExtraction(None, "option_text_below_threshold", round(score, 4))


def extract_choice(
    prediction: str | None,
    options: dict[str, str] | list[str] | str | None = None,
    similarity_threshold: float = 0.7,
    margin: float = 0.1,
) -> ChoiceExtraction:
    """The option letter a reply gives. Rules in order: boxed, bare letter, answer statement, leading letter, the
    reply equal to one option's text, the reply naming exactly one option's text, positive mention, lone capital
    letter (never one inside an option text or a term such as °C or 维生素C), then text similarity to the options
    (best above the threshold and `margin` ahead of the runner-up). Two different letters from one rule →
    ambiguous (None)."""
    if prediction is None:
        return ChoiceExtraction(None, "missing")
    option_map = options_as_dict(options)
    text = reply_text(prediction)
    if not text:
        return ChoiceExtraction(None, "empty")
    mentions = (option_mentions(text, _compared_options(tuple(option_map.items())))
                if option_map else OptionMentions((), (), (), text))
    valid = "".join(option_map) if option_map else LETTERS[:8]
    return read_reply(text, mentions, valid, option_map or {}, similarity_threshold, margin)


def reply_text(prediction: str) -> str:
    """A reply as the rules read it: cleaned (clean_reply) and its spaces folded."""
    return fold_spaces(clean_reply(prediction))


def read_reply(text: str, mentions: OptionMentions, valid: str, option_map: dict[str, str] | None,
               similarity_threshold: float = 0.7, margin: float = 0.1) -> ChoiceExtraction | None:
    """extract_choice's rules on a reply text (non-empty, as reply_text gives) with the option texts it mentions
    (NO_MENTIONS: none), the valid letters and the options ({}: none). With option_map None the options are unknown
    here: a reply the letter rules leave undecided gives None (its options decide)."""
    masked = mentions.masked or text
    folded = case_folded(text)
    return (read_letters(text, masked, mentions.equal_exactly, valid, folded)
            or read_past_letters(text, mentions, valid, option_map, similarity_threshold, margin, folded))


def read_past_letters(text: str, mentions: OptionMentions, valid: str, option_map: dict[str, str] | None,
                      similarity_threshold: float, margin: float, folded: str | None) -> ChoiceExtraction | None:
    """read_reply's rules after read_letters' (which left the reply undecided): leading letter with its option's
    text, option text equal or contained, positive mention, lone letter, similarity to the options."""
    masked = mentions.masked or text
    word = _LEADING_WORD.match(text)
    if word and option_map != {} and word.group(1) in valid and masked[word.start(1)] != MASK:
        if option_map is None:
            return None
        match = _best_option(word.group(2), option_map, similarity_threshold, margin)
        if match and match.letter == word.group(1):
            return ChoiceExtraction(match.letter, "leading_letter_with_text", match.score)
    named = read_option_texts(mentions)
    if named:
        return named
    for rule, found in (
        ("positive_mention", _letters(_POSITIVE_CUED, text, masked, folded)),
        ("lone_letter", _lone_letters(text, masked)),
    ):
        decided = _decide(found, valid, rule)
        if decided:
            return decided
    if option_map is None:
        return None
    if option_map:
        return _best_option(text, option_map, similarity_threshold, margin)
    return ChoiceExtraction(None, "no_letter_no_options")


def read_option_texts(mentions: OptionMentions) -> ChoiceExtraction | None:
    """The rules that read option texts: the reply equal to one option's text, else naming exactly one (None when
    neither decides)."""
    for rule, letters in (("option_text", mentions.equal), ("option_text_contained", mentions.named)):
        if len(letters) == 1:
            return option_text_reading(letters[0], rule)
    return None


@lru_cache(maxsize=1 << 6)
def option_text_reading(letter: str, rule: str) -> ChoiceExtraction:
    """The ChoiceExtraction of an option-text rule (score 1.0), one shared object per (letter, rule)."""
    return ChoiceExtraction(letter, rule, 1.0)


def read_letters(text: str, masked: str, equal_exactly: tuple[str, ...], valid: str,
                 folded: str | None) -> ChoiceExtraction | None:
    """read_reply's first rules, which read letters only: boxed, bare letter, answer statement, leading letter (None
    when none decides). `masked` and `equal_exactly` are the reply's OptionMentions', `folded` its case_folded."""
    bare = text.strip(EDGES)
    for rule, found in (
        ("boxed", _letters(_BOXED_CUED, text, masked, folded)),
        ("bare_letter", {bare.upper()} if len(bare) == 1 else set()),
    ):
        decided = _decide(found, valid, rule)
        if decided and equal_exactly and equal_exactly != (decided.letter,):
            return letter_by_rule(None, "ambiguous_letter_or_option_text")  # "D" where option C's text is "D"
        if decided:
            return decided
    decided = _decide(_letters(_STATEMENTS_CUED, text, masked, folded), valid, "answer_statement")
    if decided:
        offered = {letter for pair in _ALTERNATIVES.findall(text) for letter in pair if decided.letter in pair}
        return letter_by_rule(None, "ambiguous_answer_statement") if len(offered) > 1 else decided
    leading = _LEADING.match(text)
    if leading and masked[leading.start(1) if leading.group(1) else leading.start(2)] != MASK:
        letter = (leading.group(1) or leading.group(2)).upper()
        if letter in valid:
            return letter_by_rule(letter, "leading_letter")
    return None


def is_one_character(text: str) -> bool:
    """Whether the reply text is a single character once its edges (brackets, punctuation, markup) are off: the
    bare-letter rule's case."""
    return len(text.strip(EDGES)) == 1


def compared_option_text(body: str) -> str:
    """One option's text as _compared_options gives it ("" when nothing is left to compare)."""
    return option_texts({"A": clean_reply(body)}).get("A", "")


def read_by_options(text: str, valid: str, option_map: dict[str, str], similarity_threshold: float = 0.7,
                    margin: float = 0.1) -> ChoiceExtraction:
    """read_reply of a reply that names none of its options' texts and that its letters left undecided (read_reply
    gave None without options): its leading letter weighed against the options, else its similarity to them."""
    letter = leading_word_letter(text)
    if letter and letter in valid:
        return read_reply(text, NO_MENTIONS, valid, option_map, similarity_threshold, margin)
    return _best_option(text, option_map, similarity_threshold, margin)


def leading_word_letter(text: str) -> str:
    """The capital A–J a reply opens with as a word of its own ("B 种子…"), or "" when it opens otherwise."""
    word = _LEADING_WORD.match(text)
    return word.group(1) if word else ""


@lru_cache(maxsize=1 << 14)
def _compared_options(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """A question's option texts cleaned as replies are (markup, NFKC) and ready to compare, once per question."""
    return option_texts({letter: clean_reply(body) for letter, body in items})


def gold_choice(gold: str, options: dict[str, str] | list[str] | str | None) -> str | None:
    """The option letter of a gold answer: a lone letter of the options is that letter (an answer key names letters
    even where an option's text is a letter too), anything else is read as a reply."""
    key = answer_key_letter(gold)
    option_map = options_as_dict(options)
    if key is not None and key in (option_map or LETTERS[:8]):
        return key
    return extract_choice(gold, option_map).letter


def answer_key_letter(gold: str) -> str | None:
    """The letter A–J a gold answer is, once cleaned and stripped of brackets and punctuation (" b ", "(C)", "D."),
    or None when it is anything else."""
    key = clean_reply(gold).strip(EDGES).upper()
    return key if len(key) == 1 and key in LETTERS else None


def _lone_letters(text: str, masked: str) -> set[str]:
    """Standalone capitals outside option texts, minus the English article 'A' and the pronoun 'I' opening a phrase
    and capitals that belong to a term."""
    letters = set()
    for match in _LONE.finditer(masked):
        letter = match.group(1)
        if letter in "AI" and re.match(r"\s[a-z]", text[match.end():match.end() + 2]):
            continue
        if not names_a_thing(text, match.start(1)):
            letters.add(letter)
    return letters
