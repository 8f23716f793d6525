"""The languages programs may be written in, one module each, registered by name: how a reply's code block is
recognised, where the source goes in the sandbox, how it is built and run there."""
from __future__ import annotations

import os
from dataclasses import dataclass

from ...core.registry import Registry

LANGUAGES: Registry[Language] = Registry("language", __name__)


@dataclass(frozen=True)
class Language:
    """A language part: the fence labels of its code blocks, its source file (in the program's working folder, the
    sandbox's /tmp), the build step and the command of a stdin / stdout program. `python_host`: the
    sandbox's Python runs the program itself, which function-level tests (HumanEval's, MBPP's) need. `example`: a
    stdin / stdout program printing the sum of the two integers on its input's line (the conformance test runs every
    language's); `needs`: what to install where its build or run command is missing."""

    name: str
    fences: tuple[str, ...]
    source_file: str
    example: str
    build: tuple[str, ...] = ()
    run: tuple[str, ...] = ()
    python_host: bool = False
    needs: str = ""

    def missing(self) -> str | None:
        """What to install when this language's compiler or runtime is not on this machine, else None."""
        tool = (self.build or self.run or ("",))[0]
        return self.needs if tool.startswith("/") and not os.access(tool, os.X_OK) else None


def register_language(language: Language) -> Language:
    """Make `language` available by its name."""
    return LANGUAGES.register(language.name)(language)


def get_language(name: str) -> Language:
    """The language registered as `name` (an unknown one is one line naming the known ones)."""
    return LANGUAGES.get(name)
