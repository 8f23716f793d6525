"""Reading a judge's reply: the verdict from JSON ({"score": …} / {"verdict": …}), [[x]], "Rating: x", "Verdict: x"
or a bare value; anything else is unparsed (kept raw, never counted as a low score)."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..raters.scales import SCALES, scale_label

_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.S)
_BRACKETS = re.compile(r"\[\[\s*([^\[\]]+?)\s*\]\]")
_LABELLED = re.compile(r"(?:rating|verdict|score|评分|判定|结论)\s*[:：]\s*\**\s*\"?([A-Za-z_]+(?:[ _][A-Za-z]+)?|[0-9.]+)",
                       re.I)
_REASON_KEYS = ("reason", "explanation", "rationale", "理由")
_ARENA_HARD_LABEL = re.compile(r"\[\[([AB<>=]+)\]\]")
_FASTCHAT_RATING = (re.compile(r"\[\[(\d+\.?\d*)\]\]"), re.compile(r"\[(\d+\.?\d*)\]"))


@dataclass(frozen=True)
class Verdict:
    """A parsed reply: the scale's label and value (None when unparsed), the judge's reason when it gave one and what
    else a judged task's reading keeps (HLE's extracted answer and confidence)."""

    label: str | None
    value: float | None
    reason: str | None
    details: dict[str, Any] | None = None


def parse_verdict(reply: str, scale: str) -> Verdict:
    """The verdict in a judge's reply on `scale`: the last JSON object with a score / verdict key, else the last
    [[x]], else the last "Rating: x" / "Verdict: x", else the whole reply as a bare value; on the 1–10 scale,
    FastChat's rule instead."""
    if scale == "1-10":
        return fastchat_rating(reply)
    if scale == "five_way":
        return arena_hard_verdict(reply)
    for raw in reversed(_JSON_OBJECT.findall(reply)):
        try:
            found = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            continue
        if not isinstance(found, dict):
            continue
        for key in ("score", "verdict", "rating", "grade"):
            if key in found:
                label = scale_label(found[key], scale)
                reason = next((str(found[k]) for k in _REASON_KEYS if found.get(k)), None)
                return Verdict(label, SCALES[scale].get(label) if label else None, reason)
    for pattern in (_BRACKETS, _LABELLED):
        matches = list(pattern.finditer(reply))
        if matches:
            last = matches[-1]
            label = scale_label(last.group(1), scale) or scale_label(last.group(1).split()[0], scale)
            if label is not None:
                return Verdict(label, SCALES[scale][label], reply[:last.start()].strip() or None)
    label = scale_label(reply, scale)
    return Verdict(label, SCALES[scale][label] if label else None, None)


def fastchat_rating(reply: str) -> Verdict:
    """MT-Bench's rating as FastChat reads it: the first [[x]], else the first [x]; a number outside 1–10 (in halves)
    or none at all is unparsed, never 0. The text before it is the judge's reason."""
    for pattern in _FASTCHAT_RATING:
        found = pattern.search(reply)
        if found:
            label = scale_label(found.group(1), "1-10")
            value = SCALES["1-10"].get(label) if label else None
            return Verdict(label, value, reply[:found.start()].strip() or None if label else None)
    return Verdict(None, None, None)


def arena_hard_verdict(reply: str) -> Verdict:
    """Arena-Hard's verdict: the [[…]] labels of A, B, <, >, = in the reply; exactly one distinct label, and one of
    A>>B, A>B, A=B, B>A, B>>A, is the verdict; none, or two different ones, is no verdict."""
    found = [label for label in _ARENA_HARD_LABEL.findall(reply) if label]
    if len(set(found)) != 1 or found[0] not in SCALES["five_way"]:
        return Verdict(None, None, None)
    first = _ARENA_HARD_LABEL.search(reply)
    return Verdict(found[0], SCALES["five_way"][found[0]], reply[:first.start()].strip() or None)


@dataclass
class VerdictTally:
    """What a group of journal records said: each call's label (None where it failed, was left by the budget or did
    not parse), the reasons given, the replies that did not parse, failed calls and calls the budget left unasked."""

    labels: list[str | None] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)
    failures: int = 0
    not_judged: int = 0

    def read(self, record: dict[str, Any], scale: str,
             parse: Callable[[str, str], Verdict] = parse_verdict) -> Verdict | None:
        """One call's journal record counted: its verdict (as `parse` reads it), or None when the call failed or was
        not asked."""
        if "prediction" not in record:
            self.not_judged += bool(record.get("budget"))
            self.failures += not record.get("budget")
            self.labels.append(None)
            return None
        verdict = parse(record["prediction"], scale)
        self.labels.append(verdict.label)
        if verdict.label is None:
            self.unparsed.append(record["prediction"])
        elif verdict.reason:
            self.reasons.append(verdict.reason)
        return verdict

    @property
    def replies(self) -> int:
        return len(self.labels) - self.failures - self.not_judged

    @property
    def first_reason(self) -> str | None:
        return self.reasons[0] if self.reasons else None

