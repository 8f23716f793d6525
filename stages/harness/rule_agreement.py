"""Where the harness's rule and evalpipe's disagree, row by row: per harness metric, the rows both decided, how many
each rule alone called right, and the first row of each kind of disagreement with both readings."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

HARNESS_ONLY, EVALPIPE_ONLY = "right_by_harness_only", "right_by_evalpipe_only"
VERDICT_COLUMNS = {"acc_norm": "correct_norm", "acc_bytes": "correct_bytes"}  # B4's column for a harness metric
MATCHED_COLUMNS = ("id", "sample", "gold", "extracted", "correct", *VERDICT_COLUMNS.values(), "reason")


def read_verdicts(data: bytes, source: str) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """A harness verdicts file (JSON lines of {id, verdicts, answers}) by id, and the lines set aside with why."""
    found, set_aside = {}, []
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
            row_id, verdicts = str(row["id"]), row["verdicts"]
            if not isinstance(verdicts, dict):
                raise TypeError(f"verdicts is a {type(verdicts).__name__}, expected an object")
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            set_aside.append(f"{source}:{number}: {type(exc).__name__}: {exc}")
            continue
        found[row_id] = {"verdicts": verdicts, "answers": row.get("answers") or {}}
    return found, set_aside


def rule_disagreements(verdicts: dict[str, dict[str, Any]], rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per harness metric: `rows` both rules decided (a harness value of 0 or 1 and evalpipe's `correct` true or
    false, of an item's first reply where it has several: lm-eval scores its first repeat), `disagree`, and for each side that alone called a row right its count and first example (id, gold, the
    answer each took, evalpipe's reason)."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        harness = verdicts.get(str(row["id"]))
        if harness is None or row.get("correct") is None or row.get("sample") not in (None, 0):
            continue
        for metric, value in harness["verdicts"].items():
            evalpipe = row.get(VERDICT_COLUMNS.get(metric.partition(",")[0], "correct"))
            if value not in (0, 1) or isinstance(value, bool) or evalpipe is None:
                continue
            tally = found.setdefault(metric, {"rows": 0, "disagree": 0, HARNESS_ONLY: {"rows": 0},
                                              EVALPIPE_ONLY: {"rows": 0}})
            tally["rows"] += 1
            if bool(value) == evalpipe:
                continue
            tally["disagree"] += 1
            side = tally[HARNESS_ONLY if value else EVALPIPE_ONLY]
            side["rows"] += 1
            if "example" not in side:
                side["example"] = _example(row, harness, metric)
    return found


def _example(row: dict[str, Any], harness: dict[str, Any], metric: str) -> dict[str, Any]:
    _, _, filter_name = metric.partition(",")
    example = {"id": str(row["id"]), "gold": row.get("gold"), "evalpipe_answer": row.get("extracted"),
               "reason": row.get("reason")}
    if filter_name and filter_name in harness["answers"]:
        example["harness_answer"] = harness["answers"][filter_name]
    return example

