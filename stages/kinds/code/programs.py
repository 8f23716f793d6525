"""A code item's program and tests: HumanEval (prompt + completion, `test` defining check, `entry_point`), MBPP
(`test_list` asserts after `test_setup_code`) and stdin / stdout problems (`inputs` / `outputs`); the code taken from
a completion or from a chat reply's last fenced block of the dataset's language."""
from __future__ import annotations

import re
from typing import Any

from ...sandbox.streamed_output import expected_lines

FENCE_LABEL = re.compile(r"[ \t]*([\w+#-]*)")
PYTHON_FENCES = ("", "python", "py", "python3")
OTHER_LANGUAGE = "the reply's code is"  # a row's reason when its reply's code is in another language
IMPORT_LINE = re.compile(r"^(?:import|from)\s+\S", re.MULTILINE)


def extract_code(reply: str, fences: tuple[str, ...] = PYTHON_FENCES) -> tuple[str, str]:
    """(code, how): the last block of a reply fenced with one of `fences` (the language's labels, "" unlabelled),
    else the whole reply as it is."""
    blocks = [body for language, body in fenced_blocks(reply) if language.lower() in fences]
    if blocks:
        return blocks[-1], "fenced block"
    return reply, "whole reply"


def fenced_blocks(reply: str) -> list[tuple[str, str]]:
    """(label, body) of each ```-fenced block in order, in one pass: an opening ``` with the label after it on its
    line, the body up to the next ```."""
    blocks, start = [], reply.find("```")
    while start >= 0:
        line_end = reply.find("\n", start + 3)
        end = reply.find("```", line_end + 1) if line_end >= 0 else -1
        if end < 0:
            break
        blocks.append((FENCE_LABEL.match(reply, start + 3, line_end).group(1), reply[line_end + 1:end]))
        start = reply.find("```", end + 3)
    return blocks


def fence_labels(reply: str) -> list[str]:
    """The info-string label of each fenced block of a reply, lower-cased, in order ("" for an unlabelled one)."""
    return [language.lower() for language, _ in fenced_blocks(reply)]


def other_language(reply: str, fences: tuple[str, ...], languages: dict[str, tuple[str, ...]]) -> str | None:
    """The language (by `languages`: name → fence labels) of a reply's last labelled block when no block is fenced
    as this dataset's language (`fences`), else None: no fence, an unlabelled one, or an unknown label keep the code
    taken as before."""
    labels = fence_labels(reply)
    if any(label in fences for label in labels):
        return None
    for label in reversed(labels):
        found = next((name for name, aliases in languages.items() if label and label in aliases), None)
        if found is not None:
            return found
    return None


def defines(code: str, name: str) -> bool:
    """Whether `code` defines the function `name` at its top level."""
    return re.search(rf"^(?:async\s+)?def\s+{re.escape(name)}\s*\(", code, re.MULTILINE) is not None


def build_program(reply: str, prompt: str | None, entry_point: str | None,
                  fences: tuple[str, ...] = PYTHON_FENCES) -> tuple[str, str]:
    """(program, how) for a reply: the code taken from it, after the prompt when the prompt is HumanEval's function
    head and the code does not define the entry point itself (else after the prompt's imports only)."""
    code, how = extract_code(reply, fences)
    if not entry_point or not prompt:
        return code, how
    if defines(code, entry_point):
        imports = "\n".join(line for line in prompt.splitlines() if IMPORT_LINE.match(line))
        return (f"{imports}\n{code}" if imports else code), f"{how} defining {entry_point}"
    return prompt + code, f"{how} after the prompt"


def humaneval_test(test: str, entry_point: str) -> str:
    """HumanEval's test code with its call: check(entry_point), as its harness appends it."""
    return f"{test}\ncheck({entry_point})\n"


def mbpp_test(asserts: list[str], setup: str | None) -> str:
    """MBPP's test code: its setup code (its `test_imports` first), then each assert."""
    return "\n".join([setup or "", *asserts]) + "\n"


def texts(value: Any, name: str) -> list[str] | None:
    """A list of texts (MBPP's asserts, a problem's stdin inputs or expected outputs), or None when absent."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{name} is not a list of texts")
    return value


def same_output(printed: str, expected: str) -> bool:
    """stdout against the expected output line by line (lines end at \\n only), each line's trailing ASCII whitespace
    and trailing blank lines ignored (as StreamedOutput compares it as it arrives)."""
    return expected_lines(printed) == expected_lines(expected)
