"""Multi-turn instructions asked live: each turn of an item is one call in the item's own conversation (the model's
earlier answers in its history, as MT-Bench asks turn 2), and an item's answers are put back together as its turns."""
from __future__ import annotations

from typing import Any

from ..core.records import LoadResult, Reject

TURN_MARK = "#turn"  # a turn's case id: <item id>#turn<n>


def turn_cases(ids: list[Any], turns: list[list[str] | None], questions: list[str | None],
               prompt: Any) -> list[dict[str, Any]]:
    """The generation cases of every item: one per turn in one conversation per item (an item without turns is one
    case of its question); `prompt` renders a turn's text as the prompt sent."""
    cases = []
    for item, texts, question in zip(ids, turns, questions):
        for number, text in enumerate(texts or [question or ""], start=1):
            case_id = f"{item}{TURN_MARK}{number}" if texts else item
            cases.append({"id": case_id, "conversation": str(item), "prompt": prompt(text)})
    return cases


def gather_turns(loaded: LoadResult, ids: list[Any], turns: list[list[str] | None]) -> LoadResult:
    """Per item its turns' answers in order (`prediction`: the last one, `turns`: all); an item any of whose turns
    failed is set aside with that turn's reason."""
    answered = dict(zip(loaded.columns["id"], loaded.columns["prediction"]))
    failed = {reject.location: reject for reject in loaded.rejects}  # generation names each case here
    result = LoadResult(columns={}, input_rows=len(ids))
    kept_ids, last, every = [], [], []
    for item, texts in zip(ids, turns):
        case_ids = [f"{item}{TURN_MARK}{n}" for n in range(1, len(texts) + 1)] if texts else [item]
        missing = next((case for case in case_ids if case not in answered), None)
        if missing is not None:
            reject = failed.get(missing)
            reason = reject.reason if reject is not None else "not asked"
            where = f"turn {case_ids.index(missing) + 1}: " if texts else ""
            result.rejects.append(Reject(reject.source if reject else "", None, f"{where}{reason}", str(item),
                                         unscored=reject.unscored if reject else None))
            continue
        kept_ids.append(item)
        answers = [answered[case] for case in case_ids]
        last.append(answers[-1])
        every.append(answers if texts else None)
    result.columns = {"id": kept_ids, "line": [None] * len(kept_ids), "prediction": last,
                      "confidence": [None] * len(kept_ids), "turns": every}
    return result
