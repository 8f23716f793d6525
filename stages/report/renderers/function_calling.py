"""Function-calling items: the calls decoded from the reply beside the possible answers BFCL accepts, with the
checker's verdict (its error type and reason) and the item's category; a multi-turn episode as a transcript (each
turn's user messages, the model's calls with their results and its words, the ground truth's calls and the turn's
verdict). The explorer's reply is the calls as calls (`fn(arg="a")`), not the JSON or list text they came in."""
from __future__ import annotations

import ast
import json
from typing import Any, ClassVar

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
        calls = decoded_calls(matched.get("decoded"))
        shown = {"category": matched.get("category") or "", "answers": possible_answers(matched.get("answer")),
                 "verdict": _verdict(matched)}
        if calls is None:
            return {**shown, "calls": matched.get("decoded") or ""}
        return {**shown, "calls": "; ".join(calls) or "none", READABLE_REPLY: "; ".join(calls) or "no call"}

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


def decoded_calls(decoded: str | None) -> list[str] | None:
    """B4's decoded calls (the repr of bfcl-eval's [{name: {arg: value}}]) as `name(arg=value, …)` lines; None where
    there are none or they are not that shape (shown as they are)."""
    try:
        calls = ast.literal_eval(decoded) if decoded else None
        return None if not isinstance(calls, list) else [
            f"{name}({', '.join(f'{arg}={json.dumps(value, ensure_ascii=False)}' for arg, value in arguments.items())})"
            for call in calls for name, arguments in call.items()]
    except (ValueError, SyntaxError, TypeError, AttributeError, MemoryError, RecursionError):
        return None


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
