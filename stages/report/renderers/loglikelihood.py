"""Loglikelihood items: each choice with its loglikelihood and its value per character (acc_norm's), which one each
figure picked and the gold; a rolling document its loglikelihood over its words and bytes."""
from __future__ import annotations

from typing import Any, ClassVar

from ..explorer import display_text
from . import ItemRenderer, register_renderer


@register_renderer("loglikelihood")
class ChoicesRenderer(ItemRenderer):
    view: ClassVar[str] = "choices"
    normalized_columns: ClassVar[tuple[str, ...]] = ("choices",)

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        if "loglikelihood" in matched:  # a rolling document
            return {}
        lls, choices = matched.get("loglikelihoods"), matched.get("choices") or []
        if lls is None:
            return {}
        return {"choices": [{"text": display_text(text), "loglikelihood": ll,
                             "per_char": ll / len(text) if text else None,
                             "acc": index == matched.get("chosen"), "acc_norm": index == matched.get("chosen_norm"),
                             "gold": index == matched.get("gold")}
                            for index, (text, ll) in enumerate(zip(choices, lls))]}
