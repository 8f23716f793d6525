"""Where an imported harness's rule and evalpipe's disagree (B6's harness `disagreements`), in words for the text
and HTML reports."""
from __future__ import annotations

from typing import Any


def disagreement_rows(disagreements: dict[str, Any]) -> list[dict[str, str]]:
    """Per harness metric: the rows both decided, the disagreements, and each side's count with its example in
    words, for the text and HTML reports."""
    return [{"metric": metric, "rows": str(tally["rows"]), "disagree": str(tally["disagree"]),
             "harness_only": _side(tally["right_by_harness_only"]),
             "evalpipe_only": _side(tally["right_by_evalpipe_only"])} for metric, tally in disagreements.items()]


def _side(side: dict[str, Any]) -> str:
    example = side.get("example")
    if example is None:
        return str(side["rows"])
    harness = f", the harness took {_short(example['harness_answer'])}" if "harness_answer" in example else ""
    said = f"; reply ends {_short(example['reply_end'])}" if example.get("reply_end") else ""
    return (f"{side['rows']} (e.g. {example['id']}: gold {_short(example['gold'])}{harness}, evalpipe took "
            f"{_short(example['evalpipe_answer'])} ({example['reason']}){said})")


def _short(text: Any, limit: int = 80) -> str:
    if text is None:
        return "no answer"
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else "…" + text[-limit:])
