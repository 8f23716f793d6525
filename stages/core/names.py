"""The one rule for names that become paths (datasets, models, raters): letters, digits, '.', '_' and '-', not starting
with '.' or '-', so no name can climb out of its folder, hide itself or read as a command-line option."""
from __future__ import annotations

import re

from .errors import UsageError

MAX_NAME_LENGTH = 100  # stage file names are added to it; file systems allow 255 bytes
NAME_RULE = "letters, digits, '.', '_' and '-' only, not starting with '.' or '-'"


def name_problem(name: object) -> str | None:
    """Why `name` cannot name a folder or file of evalpipe's, or None when it can."""
    if not isinstance(name, str) or not name:
        return "is empty" if name == "" else "is not text"
    if len(name) > MAX_NAME_LENGTH:
        return f"is longer than {MAX_NAME_LENGTH} characters"
    if name[0] in ".-" or not all(ch.isalnum() or ch in "._-" for ch in name):
        return f"is not a name ({NAME_RULE})"
    return None


def check_name(name: object, what: str, origin: str = "") -> str:
    """`name` when it follows the rule; else a UsageError in one line naming where it came from."""
    problem = name_problem(name)
    if problem is not None:
        where = f"{origin}: " if origin else ""
        raise UsageError(f"{where}{what} {name!r} {problem}")  # repr: control characters come out escaped
    return name


def safe_name(foreign: str) -> str:
    """A name that follows the rule made from a foreign one (a harness's task or model: `mockllm/model` →
    `mockllm_model`): each run of other characters becomes '_', leading '.', '-' and '_' go."""
    cleaned = re.sub(r"[^\w.-]+", "_", foreign).lstrip("._-").rstrip("._")[:MAX_NAME_LENGTH]
    return cleaned if name_problem(cleaned) is None else "unnamed"
