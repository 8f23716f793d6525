"""Math items: the answer read from the reply and the gold, each drawn from its LaTeX by KaTeX, with how the answer
was found (boxed, last number, …) and why it matched or not."""
from __future__ import annotations

from typing import Any, ClassVar

from ..explorer import display_text
from . import ItemRenderer, register_renderer


@register_renderer("math")
class MathRenderer(ItemRenderer):
    view: ClassVar[str] = "math"
    needs_katex: ClassVar[bool] = True

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        return {"answer": display_text(matched.get("extracted")), "gold": display_text(matched.get("gold")),
                "how": matched.get("how") or ""}
