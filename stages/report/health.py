"""What makes a dataset's numbers unfit to publish: nothing to score, too many rows set aside, or questions set aside
for a reason that silently changes the denominator (a multiple-choice question whose options were not found)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa


def _rows(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _share_problem(what: str, counts: dict[str, int], max_share: float) -> str | None:
    read, rejected = counts.get("input_rows", 0), counts.get("rejected", 0)
    if read == 0 and counts.get("unscored"):
        return None  # every row is an item not scored: stages/chat/outage.py says so
    if counts.get("accepted", 0) == 0:
        return (f"no {what} to score: {_rows(read, 'row')} read, all set aside" if read
                else f"no {what} to score: the file holds no rows")
    if rejected / read > max_share:
        return (f"{rejected} of {_rows(read, what + ' row')} set aside ({rejected / read:.0%} > "
                f"max_rejected_share {max_share:g})")
    return None


def dataset_problems(question_counts: dict[str, int], prediction_counts: dict[str, dict[str, int]],
                     question_reject_reasons: list[str], headline_reasons: tuple[str, ...],
                     max_rejected_share: float) -> list[str]:
    """Why this dataset's report should fail the run, one sentence each (empty when it is fit to publish)."""
    problems = [p for p in [_share_problem("question", question_counts, max_rejected_share)] if p]
    for reason in headline_reasons:
        count = sum(1 for r in question_reject_reasons if r.startswith(reason))
        if count:
            problems.append(f"{_rows(count, 'question')} set aside: {reason} (out of every model's denominator)")
    for model, counts in prediction_counts.items():
        problem = _share_problem("prediction", counts, max_rejected_share)
        if problem:
            problems.append(f"model {model}: {problem}")
    return problems


def pairing_problems(questions: int, joins: dict[str, tuple[int, list[str], list[str]]],
                     min_paired_share: float) -> list[str]:
    """A model whose predictions pair with fewer than `min_paired_share` of the questions (ids that do not meet: q1…
    against 1…), with a few ids from each side. `joins`: model → (questions without a prediction, less the model's
    rows set aside — max_rejected_share answers for those —, some of their ids, some ids of predictions without a
    question)."""
    problems = []
    for model, (missing, missing_ids, unmatched_ids) in joins.items():
        paired = questions - missing
        if questions and paired / questions < min_paired_share:
            problems.append(
                f"model {model}: only {paired} of {_rows(questions, 'question')} have a prediction ({paired / questions:.0%}"
                f" < min_paired_share {min_paired_share:g}); question ids without one: {_examples(missing_ids)}; "
                f"prediction ids without a question: {_examples(unmatched_ids)}")
    return problems


def _examples(ids: list[str], shown: int = 3) -> str:
    return "none" if not ids else ", ".join(map(repr, ids[:shown])) + (" …" if len(ids) > shown else "")


def shard_problems(question_ids: Callable[[int], pa.ChunkedArray], shards: int,
                   joins_by_model: dict[str, list[tuple[list[str], list[str]]]]) -> list[str]:
    """What splitting the rows into shards could hide: a question id in two shards (each shard checks only its own),
    or a prediction whose question sits in another shard's rows (it would count as missing there). `question_ids`
    reads one shard's ids: a shard's ids are held only while hashed (8 bytes an id are kept), and the ids whose hash
    repeats are read again to tell real repeats from hash collisions."""
    problems = []
    repeated = _ids_in_several_shards(question_ids, shards)
    if repeated:
        examples = ", ".join(repr(v) for v in repeated[:3])
        problems.append(f"{len(repeated)} question id(s) appear in more than one shard (e.g. {examples})")
    for model, joins in joins_by_model.items():
        missing = {qid for shard_missing, _ in joins for qid in shard_missing}
        astray = sum(1 for _, unmatched in joins for pid in unmatched if pid in missing)
        if astray:
            problems.append(f"model {model}: {astray} prediction(s) sit in another shard's rows than their question "
                            "(order predictions like the questions, or raise shard_rows)")
    return problems


def _ids_in_several_shards(question_ids: Callable[[int], pa.ChunkedArray], shards: int) -> list[str]:
    """The ids found in more than one shard, sorted: pandas' 64-bit hash of every id, then the candidates checked."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    def texts(shard: int) -> np.ndarray:
        return question_ids(shard).cast(pa.string()).to_numpy(zero_copy_only=False)

    hashes = [pd.util.hash_array(texts(shard), categorize=False) for shard in range(shards)]
    every = np.concatenate(hashes) if hashes else np.empty(0, dtype=np.uint64)
    ordered = np.sort(every)
    candidates = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
    if not len(candidates):
        return []
    shards_of: dict[str, set[int]] = {}
    for shard, shard_hashes in enumerate(hashes):
        for text in texts(shard)[np.isin(shard_hashes, candidates)]:
            shards_of.setdefault(text, set()).add(shard)
    return sorted(text for text, found in shards_of.items() if len(found) > 1)


def problems_of(reports: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(dataset, problem) for every dataset report that has any."""
    return [(report["dataset"], problem) for report in reports for problem in report.get("problems", [])]
