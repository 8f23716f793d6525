"""Prompt templates: which placeholders a template may and must name, and a question's prompt filled in."""
from __future__ import annotations

from ..core.errors import UsageError

PLACEHOLDERS = ("question", "options")  # what a [generate] prompt template may name


def check_template(template: str, origin: str, allowed: tuple[str, ...] = PLACEHOLDERS,
                   what: str = "prompt template", required: tuple[str, ...] = ()) -> None:
    """A template may name only the `allowed` placeholders and must name the `required` ones (a template without the
    item's own text asks every item the same thing); write {{ and }} for literal braces. One line otherwise."""
    import string

    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as exc:
        raise UsageError(f"{origin}: {what} is malformed ({exc})") from None
    unknown = sorted(names - set(allowed))
    if unknown:
        raise UsageError(f"{origin}: {what} names {', '.join('{' + n + '}' for n in unknown)}; it may use "
                         f"{', '.join('{' + p + '}' for p in allowed)}")
    missing = [name for name in required if name not in names]
    if missing:
        raise UsageError(f"{origin}: {what} must use {', '.join('{' + n + '}' for n in missing)} (else every item is "
                         "asked the same thing)")


def render_prompt(template: str, question: str, options: list[str] | None) -> str:
    """The prompt for one question: the template with {question} and {options} ("A. …" lines) filled in."""
    from string import ascii_uppercase

    lines = "\n".join(f"{letter}. {text}" for letter, text in zip(ascii_uppercase, options or []))
    return template.format(question=question, options=lines)
