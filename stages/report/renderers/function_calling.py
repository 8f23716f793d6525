"""Function-calling items: the calls decoded from the reply beside the possible answers BFCL accepts, with the
checker's verdict (its error type and reason) and the item's category."""
from __future__ import annotations

import json
from typing import Any, ClassVar

from . import ItemRenderer, register_renderer


@register_renderer("function_calling")
class CallsRenderer(ItemRenderer):
    view: ClassVar[str] = "calls"
    normalized_columns: ClassVar[tuple[str, ...]] = ("answer",)

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        return {"category": matched.get("category") or "", "calls": matched.get("decoded") or "",
                "answers": possible_answers(matched.get("answer")),
                "verdict": "valid" if matched.get("valid") else
                ": ".join(str(part) for part in (matched.get("error_type"), matched.get("reason")) if part)}


def possible_answers(answer: str | None) -> list[str]:
    """BFCL's possible answer of an item as one line per call: fn(arg ∈ {a | b}, …); an argument's "" is "may be
    left out". A possible answer that is not that JSON is shown as it is."""
    if not answer:
        return []
    try:
        calls = json.loads(answer)
        return [f"{name}({', '.join(_argument(arg, values) for arg, values in arguments.items())})"
                for call in calls for name, arguments in call.items()]
    except (ValueError, AttributeError, TypeError):
        return [answer]


def _argument(name: str, values: Any) -> str:
    if not isinstance(values, list):
        return f"{name} = {json.dumps(values, ensure_ascii=False)}"
    shown = [("(left out)" if value == "" else json.dumps(value, ensure_ascii=False)) for value in values]
    return f"{name} = {shown[0]}" if len(shown) == 1 else f"{name} ∈ {{{' | '.join(shown)}}}"
