"""Loglikelihood items: each choice with its loglikelihood and its value per character (acc_norm's), which one each
figure picked and the gold; a rolling document its loglikelihood over its words and bytes. The explorer's reply is
the choice picked with its loglikelihood and greedy flag, not the list of loglikelihoods the prediction holds."""
from __future__ import annotations

from typing import Any, ClassVar

from ..explorer import display_text
from . import READABLE_REPLY, ItemRenderer, register_renderer


@register_renderer("loglikelihood")
class ChoicesRenderer(ItemRenderer):
    view: ClassVar[str] = "choices"
    normalized_columns: ClassVar[tuple[str, ...]] = ("choices",)

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        if "loglikelihood" in matched:  # a rolling document
            found = matched["loglikelihood"]
            return {} if found is None else {READABLE_REPLY: f"loglikelihood {found:.3f} over the document"}
        lls, choices = matched.get("loglikelihoods"), matched.get("choices") or []
        if lls is None:
            return {READABLE_REPLY: f"no loglikelihood for each of its {len(choices)} choices"} if choices else {}
        shown = [{"text": display_text(text), "loglikelihood": ll, "per_char": ll / len(text) if text else None,
                  "acc": index == matched.get("chosen"), "acc_norm": index == matched.get("chosen_norm"),
                  "gold": index == matched.get("gold")}
                 for index, (text, ll) in enumerate(zip(choices, lls))]
        return {"choices": shown, READABLE_REPLY: picked_line(shown, matched.get("greedy"))}


def picked_line(choices: list[dict[str, Any]], greedy: list[bool] | None) -> str:
    """The choice acc picks with its loglikelihood and greedy flag, and acc_norm's where it picks another."""
    acc = next((i for i, c in enumerate(choices) if c["acc"]), None)
    norm = next((i for i, c in enumerate(choices) if c["acc_norm"]), None)
    if acc is None:
        return "no choice picked"
    flag = "" if greedy is None or acc >= len(greedy) else ", greedy" if greedy[acc] else ", not greedy"
    line = f'chose "{choices[acc]["text"].strip()}" ({choices[acc]["loglikelihood"]:.3f}{flag})'
    if norm is not None and norm != acc and choices[norm]["per_char"] is not None:
        line += f'; per character "{choices[norm]["text"].strip()}" ({choices[norm]["per_char"]:.4f})'
    return line
