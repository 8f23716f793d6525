"""The items behind the numbers, for report.html's explorer: per dataset a bounded selection of questions (every
item some model did not get right, up to a cap, plus a uniform sample of the rest) with each model's prediction,
what evalpipe read from it, its score and status, and the rows set aside with their reasons. Only the chosen items'
texts are ever looked up, so a large dataset costs its B4 columns and nothing more."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.records import Columns, Rows, column_length
from ..kinds import Kind
from ..kinds.sampling import k_values, pass_at_k
from ..text.reasoning import CLOSED, UNFINISHED, split_reasoning
from .renderers import READABLE_REPLY, renderer_for

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

NOT_RIGHT_CAP = 300  # items some model did not get right, per dataset
SAMPLE_CAP = 100  # items every model got right, sampled uniformly
SET_ASIDE_CAP = 100
_RIGHT = object()  # every right reply's vote in majority_answer
REASONING_CAP = 600  # characters of a reply's reasoning shown (folded) behind its answer, as of a whole reply before
TEXT_CAP = 600  # characters of a question, gold or prediction shown (annotation documents are long)


def display_text(value: Any) -> str:
    """A question, gold list or prediction as the explorer shows it (lists joined, long texts cut)."""
    if value is None:
        return ""
    text = " | ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + "…"


def choose_items(kind: Kind, matched: dict[str, Rows], not_right_cap: int = NOT_RIGHT_CAP,
                 sample_cap: int = SAMPLE_CAP, starts: dict[str, list[int]] | None = None) -> tuple[list[int], int]:
    """(chosen item positions in question order, items some model did not get right), from every model's B4 rows
    (Python columns or Arrow tables, in question order; of a kind with a status column, that column is enough). A
    model with several replies per item has its rows' `starts` (each item's first row, item_starts): an item is
    not right when some reply of it is not."""
    import numpy as np

    not_correct = [_not_correct(kind, rows) for rows in matched.values()]
    not_correct = [np.logical_or.reduceat(flags, (starts or {})[model]) if model in (starts or {}) and len(flags)
                   else flags for model, flags in zip(matched, not_correct)]
    flags = np.logical_or.reduce(not_correct) if not_correct else np.zeros(0, bool)
    not_right, right = np.flatnonzero(flags).tolist(), np.flatnonzero(~flags).tolist()
    step = max(1, -(-len(right) // sample_cap)) if right else 1
    return sorted(not_right[:not_right_cap] + right[::step][:sample_cap]), len(not_right)


def item_starts(ids: list[Any]) -> list[int]:
    """Each item's first row, of rows that hold an item's replies together (several replies per item)."""
    return [row for row, item in enumerate(ids) if row == 0 or item != ids[row - 1]]


def item_views(kind: Kind, rows: Rows, positions: list[int] | None = None,
               normalized: Columns | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """item_view's (status, reading) of each B4 row, or of those at `positions`, with its kind's renderer's fields
    (of the row and, where given, its B3 `normalized` columns, aligned with the rows viewed)."""
    renderer = renderer_for(kind.name)
    viewed = _rows_at(rows, range(column_length(rows)) if positions is None else positions)
    earlier = [dict(zip(normalized, values)) for values in zip(*normalized.values())] if normalized else [{}] * len(viewed)
    return [(*kind.item_view(row), renderer.fields({**before, **row})) for row, before in zip(viewed, earlier)]


def _not_correct(kind: Kind, rows: Rows) -> np.ndarray:
    """Whether item_view's status of each row is other than correct: from the kind's status column as it is (on
    Arrow, no Python value per row), else item_view row by row."""
    import numpy as np
    import pyarrow.compute as pc

    names = list(rows) if isinstance(rows, dict) else rows.column_names
    if kind.status_column in names and not isinstance(rows, dict):
        return pc.fill_null(pc.not_equal(rows.column(kind.status_column), "correct"), True).to_numpy(
            zero_copy_only=False)
    statuses = (rows[kind.status_column] if kind.status_column in names else
                [status for status, *_ in item_views(kind, rows)])
    return np.asarray(statuses, dtype=object) != "correct"


def _rows_at(rows: Rows, positions: list[int] | range) -> list[dict[str, Any]]:
    if not isinstance(rows, dict):
        import pyarrow as pa

        return rows.take(pa.array(list(positions), pa.int64())).to_pylist()
    names = list(rows)
    return [{name: rows[name][i] for name in names} for i in positions]


def explorer_items(ids: list[str], questions: list[Any], golds: list[Any], predictions: dict[str, list[Any]],
                   views: dict[str, list[Any]], scores: dict[str, list[float | None]], total: int,
                   not_right: int, set_aside: list[dict[str, Any]], sampled: frozenset[str] = frozenset(),
                   kind: str = "") -> dict[str, Any]:
    """The explorer's data for the chosen items (all lists aligned with `ids`; golds as the `kind`'s renderer draws
    them); a missing prediction shows as missing. Of a `sampled` model (several replies per item) an item's
    prediction is its replies' texts and its view their (sample, status, reading), shown reply by reply with the
    item's right-of-n."""
    items, renderer = [], renderer_for(kind)
    for index, row_id in enumerate(ids):
        cells = {}
        for model in views:
            prediction = predictions[model][index]
            if model in sampled:
                cells[model] = replies_cell(prediction, views[model][index], scores[model][index])
                continue
            status, reading, fields = ("missing", "", {}) if prediction is None else views[model][index]
            shown, fields = readable(prediction, fields)
            cells[model] = {**shown, "reading": reading, "status": status,
                            **({"fields": fields} if fields else {}), "score": scores[model][index]}
        items.append({"id": row_id, "question": display_text(questions[index]),
                      "gold": display_text(renderer.gold(golds[index])), "cells": cells})
    return {"models": sorted(views), "items": items, "total": total, "not_right": not_right,
            "set_aside": set_aside[:SET_ASIDE_CAP], "set_aside_total": len(set_aside),
            "sampled": sorted(sampled)}


def replies_cell(texts: list[Any], views: list[tuple[int | None, str, str, dict[str, Any], Any]],
                 score: float | None) -> dict[str, Any]:
    """A model's cell of an item it has several replies to: each reply's text, reading and status; right of n (the
    replies it has); the item's status — correct (every reply right), sometimes right, never right, or missing —,
    its pass@k for k_values(n) and its majority answer (None where the kind does not vote)."""
    replies = [{"sample": sample, **shown, "reading": "" if text is None else reading,
                "status": "missing" if text is None else status, **({"fields": fields} if text is not None and fields
                                                                    else {})}
               for text, (sample, status, reading, found, _) in zip(texts, views)
               for shown, fields in [readable(text, found)]]
    answered = [(reply, view[4]) for reply, view, text in zip(replies, views, texts) if text is not None]
    right, n = sum(reply["status"] == "correct" for reply, _ in answered), len(answered)
    status = ("missing" if not answered else "correct" if right == n else
              "sometimes right" if right else "never right")
    return {"prediction": "", "reading": "", "status": status, "score": score, "replies": replies, "right": right,
            "n": n, "pass": {str(k): pass_at_k(n, right, k) for k in k_values(n)},
            "majority": majority_answer([(reply["status"] == "correct", vote) for reply, vote in answered])}


def readable(text: Any, fields: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the reply as shown, the view's fields): the renderer's readable reply in place of the raw one where it gives
    one (READABLE_REPLY), the raw one kept as `raw` (folded behind it), else reply_shown's."""
    if READABLE_REPLY not in fields or text is None:
        return reply_shown(text), fields
    return ({"prediction": display_text(fields[READABLE_REPLY]), "raw": display_text(text)},
            {name: value for name, value in fields.items() if name != READABLE_REPLY})


def reply_shown(text: Any) -> dict[str, Any]:
    """A reply as the explorer shows it: its answer, and the reasoning before it (tagged <think>…</think>) apart, cut
    to REASONING_CAP characters, with its whole length and whether it never closed."""
    answer, state = split_reasoning(text) if isinstance(text, str) else (text, None)
    if state is None:
        return {"prediction": display_text(text)}
    reasoning = text[:len(text) - len(answer)] if state == CLOSED else text
    cut = reasoning if len(reasoning) <= REASONING_CAP else reasoning[:REASONING_CAP] + "…"
    return {"prediction": display_text(answer), "reasoning": cut, "reasoning_chars": len(reasoning),
            "unfinished": state == UNFINISHED}


def majority_answer(votes: list[tuple[bool, Any]]) -> dict[str, Any] | None:
    """An item's majority answer as maj@n counts its replies' (right, vote): every right reply one answer (shown as
    the first right one's vote), each wrong one its vote, a reply without a vote none; a tie goes to the answer seen
    first. None when no reply has a vote (a kind that does not vote)."""
    if all(vote is None for _, vote in votes):
        return None
    counts: dict[Any, list] = {}  # answer → [votes, shown as]
    for right, vote in votes:
        if right or vote is not None:
            counts.setdefault(_RIGHT if right else ("wrong", vote), [0, vote])[0] += 1
    if not counts:
        return None
    best = max(count for count, _ in counts.values())
    answer = next(key for key, (count, _) in counts.items() if count == best)
    return {"answer": display_text(counts[answer][1]), "votes": best, "of": len(votes), "right": answer is _RIGHT}



def reply_texts(found: pa.Table, ids: list[Any],
                views: list[list[tuple[int | None, str, str, dict, Any]]]) -> list[list[Any]]:
    """Each chosen item's reply texts in the order of its B4 rows' sample numbers, from B2's rows of these ids (an
    (id, sample)'s first row answers it, as in B3's join)."""
    texts: dict[tuple[str, Any], Any] = {}
    for row_id, sample, text in zip(found.column("id").to_pylist(), found.column("sample").to_pylist(),
                                    found.column("prediction").to_pylist()):
        texts.setdefault((str(row_id), sample), text)
    return [[texts.get((str(row_id), sample)) for sample, *_ in replies] for row_id, replies in zip(ids, views)]


def merge_explorers(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Shards' explorer data as one dataset's."""
    set_aside = [row for part in parts for row in part["set_aside"]][:SET_ASIDE_CAP]
    return {"models": parts[0]["models"], "items": [item for part in parts for item in part["items"]],
            "total": sum(p["total"] for p in parts), "not_right": sum(p["not_right"] for p in parts),
            "set_aside": set_aside, "set_aside_total": sum(p["set_aside_total"] for p in parts),
            "sampled": parts[0]["sampled"]}


def with_judge_labels(explorer: dict[str, Any], judged: dict[str, dict[tuple[str, str], tuple[str | None, str | None]]],
                      raters: dict[str, dict[str, dict[tuple[str, str], str]]]) -> dict[str, Any]:
    """Each shown item's judge verdicts per model (criterion → label and reason) with the raters' labels beside
    them, and whether the judge differs from some rater (the explorer's "judge ≠ rater" filter)."""
    for item in explorer["items"]:
        for model, cell in item["cells"].items():
            unit = (model, str(item["id"]))
            cell["judge"] = {name: {"label": found[unit][0], "reason": display_text(found[unit][1])}
                             for name, found in judged.items() if unit in found}
            cell["raters"] = {name: {rater: labels[name][unit] for rater, labels in raters.items()
                                     if unit in labels.get(name, {})} for name in cell["judge"]}
            cell["judge_differs"] = any(verdict["label"] is not None and verdict["label"] != label
                                        for name, verdict in cell["judge"].items()
                                        for label in cell["raters"][name].values())
    return {**explorer, "criteria": sorted(judged), "raters": sorted(raters)}
