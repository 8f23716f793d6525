"""IFEval's 25 verifiable instructions, each a checker of a response with the instruction's kwargs, following the
official instructions.py: (followed, a short reason when not). Registered by instruction id with the kwargs each
takes, so a row's ids and kwargs are checked before it is scored."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .text_units import count_sentences, count_words, detect_language, word_tokens

Verdict = tuple[bool, str]
RELATIONS = ("less than", "at least")


@dataclass(frozen=True)
class Instruction:
    """A checker and the kwargs it takes: name → the type its value must have."""

    check: Callable[..., Verdict]
    takes: dict[str, type | tuple[type, ...]]


INSTRUCTIONS: dict[str, Instruction] = {}


def instruction(name: str, **takes: type | tuple[type, ...]) -> Callable[[Callable[..., Verdict]], Callable[..., Verdict]]:
    """Register a checker under its instruction id, with the kwargs it takes."""
    def register(check: Callable[..., Verdict]) -> Callable[..., Verdict]:
        INSTRUCTIONS[name] = Instruction(check, takes)
        return check
    return register


def instruction_problem(name: str, kwargs: dict[str, Any]) -> str | None:
    """Why an instruction cannot be checked (an unknown id, kwargs it does not take, of the wrong type or
    missing, a relation other than "less than" / "at least"), or None."""
    found = INSTRUCTIONS.get(name)
    if found is None:
        return f"unknown instruction {name!r}"
    extra = sorted(set(kwargs) - set(found.takes))
    if extra:
        return f"{name} takes no {', '.join(extra)}"
    for key, kind in found.takes.items():
        if key not in kwargs:
            return f"{name} needs {key}"
        value = kwargs[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"{name}: {key} {value!r} is not {getattr(kind, '__name__', 'a number')}"
        if key.endswith("relation") and value not in RELATIONS:
            return f"{name}: {key} {value!r} is not 'less than' or 'at least'"
    return None


def compare(count: int, relation: str, limit: int, what: str) -> Verdict:
    """count against the limit: "less than" is <, "at least" is ≥."""
    followed = count < limit if relation == "less than" else count >= limit
    wanted = f"fewer than {limit}" if relation == "less than" else f"at least {limit}"
    return followed, "" if followed else f"{count} {what}, {wanted}"


@instruction("keywords:existence", keywords=list)
def keywords_existence(text: str, keywords: list) -> Verdict:
    missing = [word for word in keywords if not re.search(word, text, flags=re.IGNORECASE)]
    return not missing, f"no {missing[0]!r}" if missing else ""


@instruction("keywords:frequency", keyword=str, frequency=int, relation=str)
def keywords_frequency(text: str, keyword: str, frequency: int, relation: str) -> Verdict:
    return compare(len(re.findall(keyword, text, flags=re.IGNORECASE)), relation, frequency, f"× {keyword!r}")


@instruction("keywords:forbidden_words", forbidden_words=list)
def forbidden_words(text: str, forbidden_words: list) -> Verdict:
    found = [word for word in forbidden_words if re.search(r"\b" + word + r"\b", text, flags=re.IGNORECASE)]
    return not found, f"{found[0]!r} used" if found else ""


@instruction("keywords:letter_frequency", letter=str, let_frequency=int, let_relation=str)
def letter_frequency(text: str, letter: str, let_frequency: int, let_relation: str) -> Verdict:
    """The letter counted as given, also when it is not a letter (the official code draws a random letter then)."""
    return compare(text.lower().count(letter.lower()), let_relation, let_frequency, f"× {letter!r}")


@instruction("language:response_language", language=str)
def response_language(text: str, language: str) -> Verdict:
    found = detect_language(text)
    followed = found is None or found == language  # no language detected: followed, as the official code has it
    return followed, "" if followed else f"language detected: {found}, wanted: {language}"


@instruction("length_constraints:number_sentences", num_sentences=int, relation=str)
def number_sentences(text: str, num_sentences: int, relation: str) -> Verdict:
    return compare(count_sentences(text), relation, num_sentences, "sentences")


@instruction("length_constraints:number_paragraphs", num_paragraphs=int)
def number_paragraphs(text: str, num_paragraphs: int) -> Verdict:
    """Paragraphs split by the markdown divider ***; an empty one is allowed only first or last."""
    parts = re.split(r"\s?\*\*\*\s?", text)
    count = len(parts)
    for index, part in enumerate(parts):
        if not part.strip():
            if index in (0, len(parts) - 1):
                count -= 1
            else:
                return False, f"empty paragraph {index + 1} between dividers"
    return count == num_paragraphs, "" if count == num_paragraphs else f"{count} paragraphs, wanted {num_paragraphs}"


@instruction("length_constraints:number_words", num_words=int, relation=str)
def number_words(text: str, num_words: int, relation: str) -> Verdict:
    return compare(count_words(text), relation, num_words, "words")


@instruction("length_constraints:nth_paragraph_first_word", num_paragraphs=int, nth_paragraph=int, first_word=str)
def nth_paragraph_first_word(text: str, num_paragraphs: int, nth_paragraph: int, first_word: str) -> Verdict:
    """Paragraphs split by blank lines: their number, and the first word of the nth (lower-cased, up to punctuation)."""
    parts = re.split(r"\n\n", text)
    count = sum(1 for part in parts if part.strip())
    if nth_paragraph > count:
        return False, f"{count} paragraphs, no paragraph {nth_paragraph}"
    paragraph = parts[nth_paragraph - 1].strip()
    if not paragraph:
        return False, f"paragraph {nth_paragraph} is empty"
    word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
    found = ""
    for letter in word:
        if letter in ".,?!'\"":
            break
        found += letter.lower()
    if count != num_paragraphs:
        return False, f"{count} paragraphs, wanted {num_paragraphs}"
    return found == first_word, "" if found == first_word else f"paragraph {nth_paragraph} starts {found!r}"


@instruction("detectable_content:number_placeholders", num_placeholders=int)
def number_placeholders(text: str, num_placeholders: int) -> Verdict:
    return compare(len(re.findall(r"\[.*?\]", text)), "at least", num_placeholders, "[placeholders]")


@instruction("detectable_content:postscript", postscript_marker=str)
def postscript(text: str, postscript_marker: str) -> Verdict:
    if postscript_marker == "P.P.S":
        pattern = r"\s*p\.\s?p\.\s?s.*$"
    elif postscript_marker == "P.S.":
        pattern = r"\s*p\.\s?s\..*$"
    else:
        pattern = r"\s*" + postscript_marker.lower() + r".*$"
    followed = bool(re.findall(pattern, text.lower(), flags=re.MULTILINE))
    return followed, "" if followed else f"no {postscript_marker}"


@instruction("detectable_format:number_bullet_lists", num_bullets=int)
def number_bullet_lists(text: str, num_bullets: int) -> Verdict:
    count = len(re.findall(r"^\s*\*[^\*].*$", text, flags=re.MULTILINE)) + len(
        re.findall(r"^\s*-.*$", text, flags=re.MULTILINE))
    return count == num_bullets, "" if count == num_bullets else f"{count} bullets, wanted {num_bullets}"


@instruction("detectable_format:constrained_response")
def constrained_response(text: str) -> Verdict:
    followed = any(option in text.strip() for option in ("My answer is yes.", "My answer is no.",
                                                         "My answer is maybe."))
    return followed, "" if followed else "none of the given answers"


@instruction("detectable_format:number_highlighted_sections", num_highlights=int)
def number_highlighted_sections(text: str, num_highlights: int) -> Verdict:
    count = sum(1 for found in re.findall(r"\*[^\n\*]*\*", text) if found.strip("*").strip())
    count += sum(1 for found in re.findall(r"\*\*[^\n\*]*\*\*", text)
                 if found.removeprefix("**").removesuffix("**").strip())
    return compare(count, "at least", num_highlights, "highlighted sections")


@instruction("detectable_format:multiple_sections", section_spliter=str, num_sections=int)
def multiple_sections(text: str, section_spliter: str, num_sections: int) -> Verdict:
    count = len(re.split(r"\s?" + section_spliter + r"\s?\d+\s?", text)) - 1
    return compare(count, "at least", num_sections, f"{section_spliter} sections")


@instruction("detectable_format:json_format")
def json_format(text: str) -> Verdict:
    value = (text.strip().removeprefix("```json").removeprefix("```Json").removeprefix("```JSON")
             .removeprefix("```").removesuffix("```").strip())
    try:
        json.loads(value)
    except ValueError as exc:
        return False, f"not JSON ({str(exc)[:60]})"
    return True, ""


@instruction("detectable_format:title")
def title(text: str) -> Verdict:
    followed = any(found.lstrip("<").rstrip(">").strip() for found in re.findall(r"<<[^\n]+>>", text))
    return followed, "" if followed else "no <<title>>"


@instruction("combination:two_responses")
def two_responses(text: str) -> Verdict:
    parts = text.split("******")
    valid = []
    for index, part in enumerate(parts):
        if not part.strip():
            if index not in (0, len(parts) - 1):
                return False, "an empty response between dividers"
        else:
            valid.append(part)
    if len(valid) != 2:
        return False, f"{len(valid)} responses, wanted 2"
    return valid[0].strip() != valid[1].strip(), "" if valid[0].strip() != valid[1].strip() else "the two are the same"


@instruction("combination:repeat_prompt", prompt_to_repeat=str)
def repeat_prompt(text: str, prompt_to_repeat: str) -> Verdict:
    followed = text.strip().lower().startswith(prompt_to_repeat.strip().lower())
    return followed, "" if followed else "does not start with the request"


@instruction("startend:end_checker", end_phrase=str)
def end_checker(text: str, end_phrase: str) -> Verdict:
    followed = text.strip().strip('"').lower().endswith(end_phrase.strip().lower())
    return followed, "" if followed else f"does not end with {end_phrase!r}"


@instruction("change_case:capital_word_frequency", capital_frequency=int, capital_relation=str)
def capital_word_frequency(text: str, capital_frequency: int, capital_relation: str) -> Verdict:
    count = sum(1 for word in word_tokens(text) if word.isupper())
    return compare(count, capital_relation, capital_frequency, "capitalized words")


@instruction("change_case:english_capital")
def english_capital(text: str) -> Verdict:
    return _english_in(text, text.isupper(), "not all capitals")


@instruction("change_case:english_lowercase")
def english_lowercase(text: str) -> Verdict:
    return _english_in(text, text.islower(), "not all lowercase")


def _english_in(text: str, in_case: bool, otherwise: str) -> Verdict:
    """In the wanted case, and English (or no language detected, as the official code has it)."""
    if not in_case:
        return False, otherwise
    found = detect_language(text)
    return found in (None, "en"), "" if found in (None, "en") else f"language detected: {found}, wanted: en"


@instruction("punctuation:no_comma")
def no_comma(text: str) -> Verdict:
    at = text.find(",")
    return at < 0, "" if at < 0 else f"comma at {at:,}"


@instruction("startend:quotation")
def quotation(text: str) -> Verdict:
    value = text.strip()
    followed = len(value) > 1 and value[0] == '"' and value[-1] == '"'
    return followed, "" if followed else "not wrapped in double quotes"


def loose_variants(response: str) -> list[str]:
    """The official loose variants: the response, without its first line, its last line, both, and each of those
    with `*` removed (in the official order)."""
    lines = response.split("\n")
    first = "\n".join(lines[1:]).strip()
    last = "\n".join(lines[:-1]).strip()
    both = "\n".join(lines[1:-1]).strip()
    return [response, response.replace("*", ""), first, last, both, first.replace("*", ""), last.replace("*", ""),
            both.replace("*", "")]


def check_instruction(name: str, kwargs: dict[str, Any], response: str) -> tuple[Verdict, Verdict]:
    """(strict, loose) verdicts of one instruction on a response: strict on the response as it is (an empty one
    follows nothing), loose on any non-empty variant."""
    check = INSTRUCTIONS[name].check
    strict = check(response, **kwargs) if response.strip() else (False, "empty response")
    if strict[0]:
        return strict, strict
    for variant in loose_variants(response)[1:]:
        if variant.strip() and check(variant, **kwargs)[0]:
            return strict, (True, "")
    return strict, strict
