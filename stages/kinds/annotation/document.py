"""JSON v3 annotation documents (seed 001 §2.1): type checks, label and name normalization, empty values."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

ACTION_FIELDS = ("category", "type", "context", "status", "function")
RELATIONSHIP_LABELS = ("relationship_level1", "relationship_level2")
_ALIAS_SEPARATORS = re.compile(r"[,，、;；]")
_SPACES = re.compile(r"\s+")


def is_empty(value: Any) -> bool:
    """Seed 001's notion of a missing ground-truth value: None, "", [] or {} (whitespace-only text too)."""
    if isinstance(value, str):
        return not value.strip()
    return value is None or value == [] or (isinstance(value, dict) and not value)


@lru_cache(maxsize=1 << 16)
def normalize_label(value: Any) -> str:
    """Case- and width-insensitive form of a label or name: NFKC, casefold, single spaces."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", str(value)).casefold()).strip()


def label_set(value: Any) -> frozenset[str]:
    """A possibly multi-valued label (a string, or a list of strings) as a set of normalized labels."""
    values = value if isinstance(value, list) else [value]
    return frozenset(normalize_label(v) for v in values if not is_empty(v))


def character_keys(character: dict[str, Any]) -> frozenset[str]:
    """Normalized name and aliases of a character (alias may be a list or a comma / 、 separated string)."""
    aliases = character.get("alias")
    if aliases is None:
        aliases = character.get("aliases")
    if isinstance(aliases, str):
        aliases = _ALIAS_SEPARATORS.split(aliases)
    names = [character.get("name"), *(aliases or [])]
    return frozenset(normalize_label(n) for n in names if not is_empty(n))


def events_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    return document.get("narrative_events") or []


def characters_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    return document.get("characters") or []


def document_text(document: dict[str, Any]) -> str | None:
    """The story text a document carries in source_info.text_content, if any."""
    text = (document.get("source_info") or {}).get("text_content")
    return text if isinstance(text, str) and text else None


def story_text(prediction: dict[str, Any], ground_truth: dict[str, Any]) -> str | None:
    """The text spans index: the ground truth's, else the prediction's."""
    return document_text(ground_truth) or document_text(prediction)


def _is_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _is_text_list(value: Any) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _check_list_of_objects(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, list):
        return f"{where} must be a list, got {type(value).__name__}"
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            return f"{where}[{index}] must be an object, got {type(item).__name__}"
    return None


def _character_problem(character: dict, where: str) -> str | None:
    if not _is_text(character.get("name")) or not _is_text(character.get("archetype")):
        return f"{where}: name and archetype must be text"
    if not _is_text_list(character.get("alias")) or not _is_text_list(character.get("aliases")):
        return f"{where}: alias must be text or a list of text"
    return None


def _event_problem(event: dict, where: str) -> str | None:
    if not (event.get("id") is None or isinstance(event["id"], (str, int)) and not isinstance(event["id"], bool)):
        return f"{where}.id must be text or an integer"
    if event.get("text_span") is not None and not isinstance(event["text_span"], dict):
        return f"{where}.text_span must be an object or null"
    for name in ("agents", "targets"):
        if not _is_text_list(event.get(name)):
            return f"{where}.{name} must be a list of text"
    problem = _check_list_of_objects(event.get("relationships"), f"{where}.relationships")
    if problem:
        return problem
    for index, relation in enumerate(event.get("relationships") or []):
        if not all(_is_text(relation.get(key)) for key in ("agent", "target", *RELATIONSHIP_LABELS)):
            return f"{where}.relationships[{index}]: agent, target and levels must be text"
        if not _is_text_list(relation.get("sentiment")):
            return f"{where}.relationships[{index}].sentiment must be text or a list of text"
    action = event.get("action_layer")
    if action is not None and not isinstance(action, dict):
        return f"{where}.action_layer must be an object or null"
    if action and not all(_is_text(action.get(key)) for key in ACTION_FIELDS):
        return f"{where}.action_layer fields must be text"
    return None


def document_problem(document: Any) -> str | None:
    """Why a parsed document cannot be evaluated (wrong types, with a JSON path), or None when it can."""
    if not isinstance(document, dict):
        return f"expected a JSON object, got {type(document).__name__}"
    source = document.get("source_info")
    if source is not None and (not isinstance(source, dict) or not _is_text(source.get("text_content"))):
        return "source_info must be an object with text_content text"
    for name, check in (("characters", _character_problem), ("narrative_events", _event_problem)):
        problem = _check_list_of_objects(document.get(name), name)
        if problem:
            return problem
        for index, item in enumerate(document.get(name) or []):
            problem = check(item, f"{name}[{index}]")
            if problem:
                return problem
    return None


def handle_missing_ground_truth(prediction_value: Any, ground_truth_value: Any, field_name: str) -> dict[str, Any]:
    """Status of one data point: 'extra' (gold empty: not an error), 'matched' (both empty), 'missing' (prediction
    empty: an error) or 'mismatch' (both present: the caller compares, count_as_error None)."""
    prediction_empty, gold_empty = is_empty(prediction_value), is_empty(ground_truth_value)
    if gold_empty and not prediction_empty:
        return {"status": "extra", "count_as_error": False,
                "reason": f"Ground truth missing for {field_name}, prediction has value"}
    if gold_empty:
        return {"status": "matched", "count_as_error": False, "reason": f"Both empty for {field_name}"}
    if prediction_empty:
        return {"status": "missing", "count_as_error": True, "reason": f"Prediction missing for {field_name}"}
    return {"status": "mismatch", "count_as_error": None, "reason": f"Both have values for {field_name}, need comparison"}
