"""Function-calling items: the calls decoded from the reply beside the possible answers BFCL accepts, with the
checker's verdict (its error type and reason) and the item's category; a multi-turn episode as a transcript (each
turn's user messages, the model's calls with their results and its words, the ground truth's calls and the turn's
verdict). The explorer's reply is the calls as calls (`fn(arg="a")`), not the JSON or list text they came in."""
from __future__ import annotations

import json
from typing import Any, ClassVar

from ...kinds.function_calling.call_text import answer_text, calls_text, possible_answer_calls
from ...kinds.function_calling.kind import SUMMARY_COLUMNS
from . import READABLE_REPLY, ItemRenderer, register_renderer

TEXT_CAP = 300  # characters of a message, a call or its result shown in a transcript (the page's size budget)


@register_renderer("function_calling")
class CallsRenderer(ItemRenderer):
    view: ClassVar[str] = "calls"
    normalized_columns: ClassVar[tuple[str, ...]] = ("answer", "messages")

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        if matched.get("turns"):
            turns = episode_turns(json.loads(matched["turns"]), matched.get("messages"))
            return {"category": matched.get("category") or "", "verdict": _verdict(matched), "turns": turns,
                    READABLE_REPLY: turns_line(turns)}
        calls = calls_text(matched.get("decoded"))
        shown = {"category": matched.get("category") or "", "answers": _answers(matched.get("answer")),
                 "verdict": _verdict(matched)}
        if calls is None:
            return {**shown, "calls": matched.get("decoded") or ""}
        return {**shown, "calls": "; ".join(calls) or "none", READABLE_REPLY: "; ".join(calls) or "no call"}

    def gold(self, golds: Any) -> Any:
        """B1's golds (the possible answer's JSON; "no call" / "a call" of a relevance item) drawn as calls, a
        multi-turn ground truth per turn."""
        return [answer_text(gold) if isinstance(gold, str) else gold for gold in golds] if isinstance(golds, list) \
            else golds

    def figure_tables(self, report: dict[str, Any]) -> list[dict[str, Any]]:
        """BFCL's summary columns per model as bfcl-eval's data_overall.csv computes them; one not computable (its
        categories not all scored) is n/a, its reason under the table."""
        models = {model: m for model, m in report["models"].items() if m.get("summary")}
        if not models:
            return []
        reasons = sorted({f"{title}: {m['summary'][name]['reason']}" for m in models.values()
                          for name, title in SUMMARY_COLUMNS if m["summary"][name]["value"] is None})
        return [{"title": "BFCL's summary columns", "columns": ["model", "items", "all items",
                                                                *(title for _, title in SUMMARY_COLUMNS)],
                 "rows": [[model, m.get("rows"), {"share": m.get("accuracy"), "interval": None},
                           *("n/a" if m["summary"][name]["value"] is None else
                             {"share": m["summary"][name]["value"], "interval": None} for name, _ in SUMMARY_COLUMNS)]
                          for model, m in models.items()],
                 "notes": [f"n/a — {reason}" for reason in reasons]}]


def turns_line(turns: list[dict[str, Any]]) -> str:
    """A multi-turn episode's reply in one line: each turn's calls, in order."""
    return "; ".join(f"turn {number}: " + (", ".join(c["call"] for step in turn["steps"] for c in step) or "no call")
                     for number, turn in enumerate(turns, start=1))


def _verdict(matched: dict[str, Any]) -> str:
    return "valid" if matched.get("valid") else ": ".join(
        str(part) for part in (matched.get("error_type"), matched.get("reason")) if part)


def episode_turns(turns: list[dict[str, Any]], messages: str | None) -> list[dict[str, Any]]:
    """Each turn B4 kept beside the user's messages of that turn (B1's turns of messages), texts cut."""
    try:
        asked = json.loads(messages or "[]")
    except ValueError:
        asked = []
    asked = asked if isinstance(asked, list) else []
    return [{"user": [_cut(m.get("content")) for m in (asked[number] if number < len(asked) and
                                                       isinstance(asked[number], list) else [])
                      if isinstance(m, dict)],
             "steps": [[{"call": _cut(c["call"]), "result": None if c["result"] is None else _cut(c["result"])}
                        for c in step] for step in turn["steps"]],
             "said": [_cut(text) for text in turn.get("said") or []],
             "expected": [_cut(call) for call in turn["expected"]], "verdict": turn["verdict"]}
            for number, turn in enumerate(turns)]


def _cut(text: Any) -> str:
    text = "" if text is None else str(text)
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + "…"


def _answers(answer: str | None) -> list[str]:
    """BFCL's possible answer of an item (its JSON) as one `fn(arg="a" | "b", …)` line per call; one that is not that
    JSON is shown as it is."""
    if not answer:
        return []
    try:
        calls = possible_answer_calls(json.loads(answer))
    except ValueError:
        calls = None
    return [answer] if calls is None else calls
