"""An outage is not a score: an item whose answer was never obtained — the model server or the judge did not answer
(transport errors, circuit open, timeouts), or a part its kind needs is not installed — is not scored (out of every
denominator, never wrong), and a model with more than max_unscored_share of its items not scored is not published.
The rule is counted here alone; the askers mark such items by their cause (Reject.unscored)."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SERVER = "the model server did not answer"
JUDGE = "the judge did not answer"
NOT_INSTALLED = " is not installed"
RERUN = "rerun `evalpipe {command}`: the journal asks only what is missing"
_SAMPLE = re.compile(r" sample \d+$")  # live generation's location of a later sample: "<id> sample <n>"


def error_kind(error: str) -> str:
    """A failed request's error as counted: what the system said of a connection ("connection refused"), "HTTP 500
    …" up to its first colon, "circuit open after N consecutive failures"; a "… failed after N attempt(s): " in front
    is left out."""
    error = re.sub(r"^.*?failed after \d+ attempt\(s\): ", "", error)
    if error.startswith("circuit open"):
        return error.split(" (")[0]
    connection = re.match(r"connection failed: (?:\[Errno -?\d+\] )?(.+)", error)
    return connection.group(1).lower() if connection else error.split(":")[0]


def server_cause(error: str) -> str:
    """Why an item asked of the model server has no answer: "the model server did not answer (connection refused)"."""
    return f"{SERVER} ({error_kind(error)})"


def judge_cause(error: str) -> str:
    """Why an item has no verdict: the judge's calls failed ("the judge did not answer (connection refused)")."""
    return f"{JUDGE} ({error_kind(error)})"


def missing_part_cause(part: str, command: str) -> str:
    """Why an item cannot be asked or checked here: a part its kind needs is not installed (and how to install it)."""
    return f"{part}{NOT_INSTALLED} (`{command}`)"


@dataclass
class Unscored:
    """One model's items, and those not scored (id → cause)."""

    items: int
    not_scored: dict[str, str] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.not_scored)

    @property
    def causes(self) -> Counter:
        return Counter(self.not_scored.values())

    def share(self) -> float:
        return self.count / self.items if self.items else 0.0

    def line(self) -> str:
        """"169 of 364 items not scored: the model server did not answer (connection refused) × 169"."""
        causes = ", ".join(f"{cause} × {count:,}" for cause, count in self.causes.most_common())
        return f"{self.count:,} of {self.items:,} items not scored: {causes}"

    def to_dict(self, max_share: float) -> dict[str, Any]:
        return {"items": self.items, "not_scored": self.count, "causes": dict(self.causes.most_common()),
                "published": self.share() <= max_share, "line": self.line(), "ids": sorted(self.not_scored)}


def unscored_ids(rejects: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Item id → cause of the artifact rejects (as written) that are items not scored."""
    return {_SAMPLE.sub("", str(r.get("location"))): r["unscored"] for r in rejects if r.get("unscored")}


def model_unscored(items: int, question_rejects: Iterable[dict[str, Any]], *left_out: dict[str, str]) -> Unscored:
    """One model's items not scored: questions set aside because a part is missing (every model's), then each
    `left_out` (item id → cause: its requests the server never answered, items whose every judge call failed); each
    item once, by its first cause. `items`: the dataset's items, scored or not (bad input set aside is neither)."""
    causes: dict[str, str] = {}
    for found in (unscored_ids(question_rejects), *left_out):
        for item, cause in found.items():
            causes.setdefault(item, cause)
    return Unscored(items, causes)


def unscored_rejects(documents: Iterable[dict[str, Any]]) -> int:
    """How many of the artifacts' rejects are items not scored (the share of rows set aside leaves them out)."""
    return sum(1 for document in documents for r in document.get("rejects", []) if r.get("unscored"))


def unscored_problems(by_model: dict[str, Unscored], max_share: float) -> list[str]:
    """One line per model with more than `max_share` of its items not scored: it is not published."""
    return [f"model {model}: not published: {unscored.line()} (share {unscored.share():.3g} > "
            f"max_unscored_share {max_share:g})" for model, unscored in by_model.items() if unscored.share() > max_share]


def next_steps(causes: Iterable[str], command: str) -> list[str]:
    """What to do about the causes, once each: restart a server, or install a part, then rerun."""
    steps: dict[str, None] = {}
    for cause in causes:
        if cause.startswith(SERVER):
            steps[f"restart the model server and {RERUN.format(command=command)}"] = None
        elif cause.startswith(JUDGE):
            steps[f"restart the judge's server and {RERUN.format(command=command)}"] = None
        elif NOT_INSTALLED in cause:
            install = cause.split(NOT_INSTALLED, 1)[1].strip(" ()")
            steps[f"install what is missing ({install}) and rerun `evalpipe {command}`"] = None
        else:
            steps[f"see why above, then {RERUN.format(command=command)}"] = None
    return list(steps)


def unpublished_models(report: dict[str, Any]) -> set[str]:
    """The models of a dataset report that are not published (too many items not scored)."""
    return {model for model, found in report.get("unscored", {}).items() if not found["published"]}


def unscored_in(report: dict[str, Any], model: str) -> set[str]:
    """The ids of a report's model's items not scored (left out of its item scores too)."""
    return set(report.get("unscored", {}).get(model, {}).get("ids", []))


def report_next_steps(reports: Iterable[dict[str, Any]], command: str) -> list[str]:
    """What to do about the items not scored that keep models of these reports from being published."""
    return next_steps([cause for report in reports for model, found in report.get("unscored", {}).items()
                       if not found["published"] for cause in found["causes"]], command)
