"""Options of a multiple-choice question: from a dict, a list, A/B/C/D columns, or the question text."""
from __future__ import annotations

import re
import string
import unicodedata
from typing import Any

LETTERS = string.ascii_uppercase[:10]
_PAREN_MARKERS = re.compile(r"\(([A-Ja-j])\)\s*")
_LINE_MARKERS = re.compile(r"(?:^|(?<=\n))[ \t]*([A-J])[ \t]*[.、):：][ \t]*", re.MULTILINE)
_INLINE_MARKERS = re.compile(r"(?<![A-Za-z0-9(])([A-J])[.、:：)][ \t]*")


def options_from_value(value: Any) -> list[str] | None:
    """Options given as a list (A, B, C… in order) or a dict keyed by letter."""
    if isinstance(value, dict):
        letters = sorted(str(k).strip().upper() for k in value)
        if letters != list(LETTERS[: len(letters)]):
            raise ValueError(f"option letters must run A, B, C…; got {', '.join(letters)}")
        by_letter = {str(k).strip().upper(): v for k, v in value.items()}
        return [str(by_letter[letter]).strip() for letter in letters]
    if isinstance(value, list):
        if len(value) > len(LETTERS):
            raise ValueError(f"{len(value)} options; at most {len(LETTERS)} are supported")
        return [str(v).strip() for v in value]
    return None


def options_from_columns(record: dict) -> list[str] | None:
    """Options in single-letter columns A, B, C… (the CMMLU / C-Eval csv layout)."""
    options = []
    for letter in LETTERS:
        value = record.get(letter)
        if value is None or (isinstance(value, str) and not value.strip()):
            break
        options.append(str(value).strip())
    return options if len(options) >= 2 else None


def options_from_text(question: str) -> list[str] | None:
    """Options written in the question: '(a) x (b) y', 'A. x\\nB. y', 'A) x B) y', 'A、x', '（A）x'."""
    text = unicodedata.normalize("NFKC", question)
    for pattern in (_PAREN_MARKERS, _LINE_MARKERS, _INLINE_MARKERS):
        options = _consecutive_options(text, list(pattern.finditer(text)), pattern is _LINE_MARKERS)
        if options:
            return options
    return None


def _consecutive_options(text: str, markers: list[re.Match], lines: bool) -> list[str] | None:
    """The options from marker A on; with `lines` (one option a line), the last ends with its line when every
    other does, so a prompt's closing 'Answer:' line is not part of it."""
    start = next((i for i, m in enumerate(markers) if m.group(1).upper() == "A"), None)
    if start is None:
        return None
    run = [markers[start]]
    for marker in markers[start + 1:]:
        if marker.group(1).upper() == LETTERS[len(run)]:
            run.append(marker)
    if len(run) < 2:
        return None
    ends = [m.start() for m in run[1:]] + [len(text)]
    options = [text[m.end():end].strip() for m, end in zip(run, ends)]
    if lines and not any("\n" in option for option in options[:-1]):
        options[-1] = options[-1].split("\n", 1)[0].strip()
    options = [option.rstrip(";；,，") for option in options]
    return options if all(options) else None


GPQA_COLUMNS = ("Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3")  # its CSV's


def find_options(record: dict, question: str | None) -> list[str] | None:
    """The question's options from an options / choices field, A/B/C/D columns, GPQA's answer columns (the correct
    one first, as gpqa_eval lists them before shuffling), or the question text."""
    for name in ("options", "choices"):
        if record.get(name) is not None:
            return options_from_value(record[name])
    if all(name in record for name in GPQA_COLUMNS):  # a blank one is left out: the item has fewer options
        return [text.strip() for text in (record[name] for name in GPQA_COLUMNS) if isinstance(text, str)
                and text.strip()]
    return options_from_columns(record) or (options_from_text(question) if question else None)


def options_as_dict(options: list[str] | dict[str, str] | str | None) -> dict[str, str] | None:
    """Normalize the `options` argument of the public API to {letter: text}."""
    if options is None:
        return None
    if isinstance(options, str):
        parsed = options_from_text(options)
        return dict(zip(LETTERS, parsed)) if parsed else None
    if isinstance(options, dict):
        return {str(k).strip().upper(): str(v) for k, v in options.items()}
    return dict(zip(LETTERS, (str(o) for o in options)))
