"""Annotation items: the document's labelled fields as evalpipe scored them — its characters, and each narrative
event's span, action labels and relationships with the gold event it was aligned with — in place of its JSON text;
the explorer's reply is their compact line, the view lists them whole."""
from __future__ import annotations

import json
from typing import Any, ClassVar

from ...kinds.annotation.document import ACTION_FIELDS, RELATIONSHIP_LABELS, is_empty
from . import READABLE_REPLY, ItemRenderer, register_renderer

EVENT_CAP = 40  # events listed per document (the page's size budget); the rest counted
SPAN_CAP = 80  # characters of an event's text span shown


@register_renderer("annotation")
class LabelsRenderer(ItemRenderer):
    view: ClassVar[str] = "labels"

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        document, gold = _document(matched.get("prediction")), _document(matched.get("ground_truth"))
        if document is None:
            return {}
        alignment = _document(matched.get("alignment")) or {}
        gold_events = _list(gold.get("narrative_events")) if gold else []
        aligned = {pair[0]: pair[1] for pair in _list(alignment.get("pairs")) if isinstance(pair, list) and len(pair) > 1}
        events = [_event(event, _event_id(gold_events, aligned.get(index)), index in aligned)
                  for index, event in enumerate(_list(document.get("narrative_events"))[:EVENT_CAP])]
        characters = [_character(c) for c in _list(document.get("characters")) if isinstance(c, dict)]
        total = len(_list(document.get("narrative_events")))
        missing = [_event_id(gold_events, index) for index in _list(alignment.get("missing"))]
        return {"characters": characters, "events": events, "events_total": total,
                "missing": [name for name in missing if name], READABLE_REPLY: labels_line(characters, events, total)}


def labels_line(characters: list[str], events: list[dict[str, Any]], total: int) -> str:
    """The document in one line: its counts and characters, then each event's id, labels and relationships."""
    head = (f"{total} event{'' if total == 1 else 's'}, {len(characters)} character"
            f"{'' if len(characters) == 1 else 's'}" + (f" ({', '.join(characters)})" if characters else ""))
    return "; ".join([head, *(" ".join(part for part in (e["id"], e["labels"], ", ".join(e["relationships"]))
                                       if part) for e in events)])


def _document(text: Any) -> dict[str, Any] | None:
    try:
        found = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _event_id(events: list[Any], index: Any) -> str:
    event = events[index] if isinstance(index, int) and 0 <= index < len(events) else None
    return "" if not isinstance(event, dict) else str(event.get("id") or f"#{index + 1}")


def _event(event: Any, gold: str, aligned: bool) -> dict[str, Any]:
    event = event if isinstance(event, dict) else {}
    action = event.get("action_layer") if isinstance(event.get("action_layer"), dict) else {}
    span = event.get("text_span") if isinstance(event.get("text_span"), dict) else {}
    text = str(span.get("text") or "")
    return {"id": str(event.get("id") or ""), "span": text if len(text) <= SPAN_CAP else text[:SPAN_CAP] + "…",
            "labels": "/".join(_label(action.get(name)) for name in ACTION_FIELDS if not is_empty(action.get(name))),
            "relationships": [_relationship(r) for r in _list(event.get("relationships")) if isinstance(r, dict)],
            "gold": gold if aligned else ""}


def _relationship(relation: dict[str, Any]) -> str:
    labels = "/".join(_label(relation.get(name)) for name in RELATIONSHIP_LABELS if not is_empty(relation.get(name)))
    sentiment = ", ".join(_label(s) for s in _list(relation.get("sentiment")) if not is_empty(s))
    return (f"{relation.get('agent') or '?'} → {relation.get('target') or '?'}" + (f" {labels}" if labels else "")
            + (f" ({sentiment})" if sentiment else ""))


def _character(character: dict[str, Any]) -> str:
    aliases = character.get("alias") if character.get("alias") is not None else character.get("aliases")
    aliases = ", ".join(map(str, aliases)) if isinstance(aliases, list) else str(aliases or "")
    return str(character.get("name") or "?") + (f" ({aliases})" if aliases.strip() else "")


def _label(value: Any) -> str:
    return " | ".join(map(str, value)) if isinstance(value, list) else str(value)
