"""B6's harness section: what each imported model's harness reported and, where the import kept the harness's verdict
on every row, how many rows its rule and evalpipe's decide differently, with an example of each way."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.harness.rule_agreement import (
    EVALPIPE_ONLY,
    HARNESS_ONLY,
    MATCHED_COLUMNS,
    read_verdicts,
    rule_disagreements,
)
from stages.io.artifacts import read_artifact_json, read_rows_with_ids, read_table
from stages.leaderboards.board import leaderboard_by_tool

from .tasks import B2Predictions, B4Match

if TYPE_CHECKING:
    from upath import UPath

    from .task_base import StageTask

REPLY_END = 240  # characters of the model's reply shown with an example


def harness_verdict_files(report: StageTask) -> dict[str, UPath]:
    """harness:<model> → the verdicts file its provenance names (inputs/<dataset>/harness/<model>.jsonl), when it
    exists."""
    found = {}
    for model, provenance in report.plain_spec.get("provenance", {}).items():
        if provenance.get("verdicts") and model in report.spec["predictions"]:
            path = report.input_location(f"{report.dataset}/{provenance['verdicts']}")
            if path.exists():
                found[f"harness:{model}"] = path
    return found


def harness_section(report: StageTask) -> dict[str, Any]:
    """B6's harness section: each model imported from another harness (not a leaderboard's, not published figures),
    with its disagreements with evalpipe."""
    harness = {model: found for model, found in report.plain_spec.get("provenance", {}).items()
               if "published" not in found and leaderboard_by_tool(found.get("tool")) is None}
    if not harness:
        return {}
    imported = {model: harness[model] for model in sorted(report.spec["predictions"]) if model in harness}
    return {"harness": with_disagreements(report, imported)}


def with_disagreements(report: StageTask, harness: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each model's provenance, with `disagreements` per harness metric where its verdicts file and evalpipe's B4
    rows (a `correct` column) allow it, and `verdicts_set_aside` for lines of that file that could not be read."""
    files = harness_verdict_files(report)
    section = {}
    for model, provenance in harness.items():
        section[model] = dict(provenance)
        if not provenance.get("verdicts"):
            continue
        path = files.get(f"harness:{model}")
        if path is None:
            section[model]["verdicts_set_aside"] = [f"{provenance['verdicts']}: no such file in the dataset folder"]
            continue
        verdicts, set_aside = read_verdicts(path.read_bytes(), str(path))
        rows = _matched(report, model)
        if rows is None:
            continue
        disagreements = rule_disagreements(verdicts, rows)
        _add_replies(report, model, disagreements)
        section[model]["disagreements"] = disagreements
        if set_aside:
            section[model]["verdicts_set_aside"] = set_aside
    return section


def _matched(report: StageTask, model: str) -> list[dict[str, Any]] | None:
    """The model's B4 rows, shard after shard, in the columns the comparison reads; None for a kind without a
    `correct` column."""
    rows = []
    for shard in range(report.spec["shards"]):
        path = B4Match(outputs_dir=report.outputs_dir, spec=report.spec, model=model, shard=shard).artifact_path()
        document = read_artifact_json(path)
        columns = [name for name in MATCHED_COLUMNS if name in document.get("columns", ())]
        if "correct" not in columns:
            return None
        rows.extend(read_table(path, columns, document).to_pylist())
    return rows


def _add_replies(report: StageTask, model: str, disagreements: dict[str, dict[str, Any]]) -> None:
    """The end of the model's reply beside each example, read from B2 for those rows only."""
    examples = [tally[side]["example"] for tally in disagreements.values() for side in (HARNESS_ONLY, EVALPIPE_ONLY)
                if "example" in tally[side]]
    wanted = sorted({example["id"] for example in examples})
    if not wanted:
        return
    replies = {}
    for shard in range(report.spec["shards"]):
        path = B2Predictions(outputs_dir=report.outputs_dir, spec=report.spec, model=model, shard=shard).artifact_path()
        for row in read_rows_with_ids(path, wanted, ["id", "prediction"]).to_pylist():
            replies.setdefault(str(row["id"]), row["prediction"])
    for example in examples:
        reply = replies.get(example["id"])
        if reply is not None:
            example["reply_end"] = reply if len(reply) <= REPLY_END else "…" + reply[-REPLY_END:]
