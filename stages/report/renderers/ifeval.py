"""IFEval items: each instruction of the prompt with its strict and loose verdict, and why the strict check failed."""
from __future__ import annotations

from typing import Any, ClassVar

from . import ItemRenderer, register_renderer


@register_renderer("ifeval")
class InstructionsRenderer(ItemRenderer):
    view: ClassVar[str] = "instructions"

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        names, strict = matched.get("instructions") or [], matched.get("strict") or []
        loose, reasons = matched.get("loose") or [], matched.get("reasons") or []
        return {"instructions": [{"name": name, "strict": bool(followed), "loose": bool(loosely),
                                  "reason": "" if followed else reason or ""}
                                 for name, followed, loosely, reason in zip(names, strict, loose, reasons)]}
