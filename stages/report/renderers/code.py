"""Code items: the program as run (B3's, highlighted by highlight.js with the grammar of the dataset's `language`,
B4's parameter), each test's outcome (B4's checks), the sandbox's
outcome line (outcome, error, seconds, sandbox), the end of what the program printed, and the signs of tampering with
the tests it showed."""
from __future__ import annotations

from typing import Any, ClassVar

from . import ItemRenderer, register_renderer

OUTPUT_CAP = 300  # characters of stdout / stderr shown, their end (where an error is)
PROGRAM_CAP = 1000  # characters of the program shown, its start (the page's size budget)


@register_renderer("code")
class ProgramRenderer(ItemRenderer):
    view: ClassVar[str] = "program"
    needs_highlight: ClassVar[bool] = True
    normalized_columns: ClassVar[tuple[str, ...]] = ("program",)
    match_parameters: ClassVar[tuple[str, ...]] = ("language",)

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        seconds, sandbox = matched.get("seconds"), matched.get("sandbox")
        line = " · ".join(str(part) for part in (matched.get("outcome") or "no code", matched.get("error"),
                                                  None if seconds is None else f"{seconds} s",
                                                  sandbox and f"sandbox {sandbox}") if part)
        program = matched.get("program") or ""
        return {"program": program if len(program) <= PROGRAM_CAP else program[:PROGRAM_CAP] + "…",
                "language": str(matched.get("language") or ""),
                "outcome": line, "stdout": _tail(matched.get("stdout")), "stderr": _tail(matched.get("stderr")),
                "tampering": [str(sign) for sign in matched.get("tampering") or []],
                "checks": [{"test": str(check.get("test", "")), "held": int(check.get("held") or 0),
                            "failed": int(check.get("failed") or 0), "error": str(check.get("error") or "")}
                           for check in matched.get("checks") or []]}


def _tail(text: Any) -> str:
    text = "" if text is None else str(text)
    return text if len(text) <= OUTPUT_CAP else "…" + text[-OUTPUT_CAP:]
