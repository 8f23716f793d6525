"""What makes a dataset's numbers unfit to publish: nothing to score, too many rows set aside, or questions set aside
for a reason that silently changes the denominator (a multiple-choice question whose options were not found)."""
from __future__ import annotations

from typing import Any


def _rows(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _share_problem(what: str, counts: dict[str, int], max_share: float) -> str | None:
    read, rejected = counts.get("input_rows", 0), counts.get("rejected", 0)
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


def problems_of(reports: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(dataset, problem) for every dataset report that has any."""
    return [(report["dataset"], problem) for report in reports for problem in report.get("problems", [])]
