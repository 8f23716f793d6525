"""A judge whose replies mostly cannot be read is not a judge: a criterion or pairwise comparison whose parse rate
falls below [judge] min_parse_rate makes the dataset unfit to publish, in one line naming the format it expected and
a reply it got."""
from __future__ import annotations

from typing import Any

EXPECTED = {
    "binary": 'a 0 or 1 ({"score": 1}, [[1]] or "Rating: 1")',
    "correct": 'CORRECT, INCORRECT or NOT_ATTEMPTED ({"verdict": "CORRECT"}, [[CORRECT]] or "Verdict: CORRECT")',
    "1-5": 'a rating 1–5 ({"score": 4}, [[4]] or "Rating: 4")',
    "1-10": "a rating 1–10 as FastChat reads it ([[7]], else [7])",
    "preference": "[[A]], [[B]] or [[TIE]]",
    "five_way": "exactly one of [[A>>B]], [[A>B]], [[A=B]], [[B>A]], [[B>>A]] (Arena-Hard)",
}
DEFAULT_MIN_PARSE_RATE = 0.5


def parse_problems(judged: dict[str, dict[str, dict[str, Any]]], pairs: list[dict[str, Any]],
                   pairwise_scale: str | None, minimum: float) -> list[str]:
    """One problem per criterion (per model) and per pairwise comparison whose replies parsed below `minimum`."""
    problems = []
    for model, criteria in judged.items():
        for name, found in criteria.items():
            if _below(found, minimum):
                problems.append(_line(f"judge criterion {name} of model {model}", found, found["scale"], minimum))
    for pair in pairs:
        if _below(pair, minimum):
            problems.append(_line(f"pairwise {pair['first']} vs {pair['second']}", pair, pairwise_scale or "preference",
                                  minimum))
    return problems


def _below(found: dict[str, Any], minimum: float) -> bool:
    return found.get("parse_rate") is not None and found["parse_rate"] < minimum


def _line(what: str, found: dict[str, Any], scale: str, minimum: float) -> str:
    example = found.get("unparsed_example")
    got = "" if example is None else f"; got e.g. {example[:120]!r}"
    return (f"{what}: {found['parse_rate']:.0%} of {found['replies']} replies parsed (below {minimum:.0%}); "
            f"expected {EXPECTED.get(scale, scale)}{got}")
