"""Calls and BFCL's possible answers as people read them: `fn(arg="a")`, `fn(arg="a" | "b", unit="c" optional)`, a
multi-turn ground truth turn by turn — not the JSON or Python list text they are stored as."""
from __future__ import annotations

import ast
import json
from typing import Any

NO_CALL = "no call"


def calls_text(decoded: str | None) -> list[str] | None:
    """B4's decoded calls (the repr of bfcl-eval's [{name: {arg: value}}]) as `name(arg=value, …)` each; None where
    there are none or they are not that shape."""
    try:
        calls = ast.literal_eval(decoded) if decoded else None
        return None if not isinstance(calls, list) else [
            f"{name}({', '.join(f'{arg}={_value(value)}' for arg, value in arguments.items())})"
            for call in calls for name, arguments in call.items()]
    except (ValueError, SyntaxError, TypeError, AttributeError, MemoryError, RecursionError):
        return None


def possible_answer_calls(answer: Any) -> list[str] | None:
    """A possible answer ([{name: {arg: [accepted values]}}]) as one `name(arg="a" | "b", …)` per call — an argument
    whose accepted values hold "" is `optional`, one with "" alone `left out`; None where it is not that shape."""
    try:
        return [f"{name}({', '.join(_accepted(arg, values) for arg, values in arguments.items())})"
                for call in answer for name, arguments in call.items()]
    except (AttributeError, TypeError, ValueError):
        return None


def ground_truth_turns(answer: Any) -> str | None:
    """A multi-turn ground truth (each turn's call strings) as `turn 1: a(x=1), b(); turn 2: no call`; None where it
    is not that shape."""
    if not (isinstance(answer, list) and answer and all(
            isinstance(turn, list) and all(isinstance(call, str) for call in turn) for turn in answer)):
        return None
    return "; ".join(f"turn {number}: {', '.join(turn) or NO_CALL}" for number, turn in enumerate(answer, start=1))


def answer_text(answer: str) -> str:
    """An item's possible answer as B1 keeps it (JSON text) drawn readably: its calls joined by "; " (none: no call
    expected), or a multi-turn ground truth per turn; text that is neither is returned as it is."""
    try:
        found = json.loads(answer)
    except ValueError:
        return answer
    if found == []:
        return NO_CALL
    turns = ground_truth_turns(found)
    calls = None if turns is not None else possible_answer_calls(found)
    return turns if turns is not None else answer if calls is None else "; ".join(calls)


def _accepted(name: str, values: Any) -> str:
    if not isinstance(values, list):
        return f"{name}={_value(values)}"
    given = [_value(value) for value in values if value != ""]
    if not given:
        return f"{name} left out"
    return f"{name}={' | '.join(given)}" + (" optional" if len(given) < len(values) else "")


def _value(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
