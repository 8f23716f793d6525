"""B6 as a Luigi task: one dataset's report (every model, every shard merged, with intervals, the item explorer,
what was set aside, the judge against people and the leaderboards), assembled from the sections each part
contributes; the run's summary is summary_task.py."""
from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from stages import Kind, build_dataset_report, get_kind, render_report
from stages.chat.outage import Unscored, model_unscored, unscored_problems, unscored_rejects
from stages.core.records import Columns, Rows, column_values
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.artifacts import read_artifact_json, read_column, read_columns, read_table
from stages.io.storage import write_bytes_atomic
from stages.judge.report_sections import (
    cost_section,
    criteria_section,
    pairwise_section,
    parse_problems_section,
    stage_usage,
)
from stages.raters.files import LabelsFiles
from stages.raters.judge_agreement import criterion_agreement_items, judge_labels, judged_verdicts
from stages.report.explorer import with_judge_labels
from stages.report.figures import (
    generation_section,
    item_sections,
    model_metrics,
    per_item_values,
    replies_section,
    reply_counts,
    set_aside_counts,
    summed,
)
from stages.report.health import dataset_problems, pairing_problems, shard_problems
from stages.report.sampling import merge_items

from .harness_report import harness_section, harness_verdict_files
from .judge_task import B5Judge, B5Pairwise
from .leaderboard_report import leaderboard_sections
from .leaderboard_task import B5Leaderboard
from .raters_report import judge_against_raters, pairwise_against_raters, raters_fingerprint, read_labels_files
from .report_explorer import explorer
from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions, B3Normalize, B4Match, B5Score, KindStage

if TYPE_CHECKING:
    from upath import UPath

Section = Callable[["B6Reading", dict[str, Any]], dict[str, Any]]  # what B6 read, the report so far → its entries


@dataclass
class B6Reading:
    """What B6 read of its upstream artifacts, each once, per model in its shards' order (the explorer and the
    raters' and harness's sections read the few rows they show themselves)."""

    kind: Kind
    questions: list[dict[str, Any]]  # B1 documents
    scored: dict[str, list[dict[str, Any]]]  # B5 documents
    predictions: dict[str, list[dict[str, Any]]]  # B2 documents
    joins: dict[str, list[dict[str, Any]]]  # B3 documents
    rows: dict[str, Columns]  # B5 rows of an unsharded row-wise kind (else none)
    items: dict[str, dict[str, list]]  # per-item values of the kind's paired metrics
    sampled: dict[str, dict[str, Any]]  # of several replies per item: the merged samples
    judged: dict[str, tuple[UPath, dict[str, Any]]]  # B5J path and document
    pairwise: tuple[dict[str, Any], Columns] | None  # B5P document and its outcomes
    labels_files: LabelsFiles

    @property
    def question_counts(self) -> dict[str, int]:
        return summed(document["header"]["counts"] for document in self.questions)


class B6Report(KindStage):
    """All models of one dataset side by side, with what was set aside; also a text rendering."""

    stage, artifact_name = "B6", ARTIFACT_NAMES["B6"]

    def requires(self) -> dict[str, dict[str, Any]]:
        return {"scores": self.score_tasks(), "judge": self.judge_tasks(), "pairwise": self.pairwise_tasks(),
                "leaderboard": self.leaderboard_tasks()}

    def score_tasks(self) -> dict[str, list[StageTask]]:
        """Each model's B5 per shard."""
        return {model: [B5Score(outputs_dir=self.outputs_dir, spec=self.spec, model=model, shard=shard)
                        for shard in range(self.spec["shards"])]
                for model in sorted(self.spec["predictions"])}

    def judge_tasks(self) -> dict[str, StageTask]:
        """Each model's B5J, when the dataset's [judge] has criteria."""
        if not self.spec.get("judge") or not self.spec["judge"]["criteria"]:
            return {}
        return {model: B5Judge(outputs_dir=self.outputs_dir, spec=self.spec, model=model)
                for model in sorted(self.spec["predictions"])}

    def pairwise_tasks(self) -> list[StageTask]:
        """The dataset's B5P, when its [judge] has pairwise = true."""
        if not self.spec.get("judge") or not self.spec["judge"].get("pairwise"):
            return []
        return [B5Pairwise(outputs_dir=self.outputs_dir, spec=self.spec)]

    def leaderboard_tasks(self) -> dict[str, StageTask]:
        """Each model's B5L against the [leaderboard]'s baseline, when the dataset has one."""
        board = self.spec.get("leaderboard")
        if not board:
            return {}
        return {model: B5Leaderboard(outputs_dir=self.outputs_dir, spec=self.spec, model=model)
                for model in sorted(self.spec["predictions"]) if model != board["baseline"]}

    def fingerprint_parts(self) -> dict[str, Any]:
        """With a judge, the raters' labels too (the agreement is measured against them)."""
        parts = super().fingerprint_parts()
        if self.judge_tasks():
            parts["raters"] = raters_fingerprint(self)
        return parts

    def input_files(self) -> dict[str, UPath]:
        """The harness's verdicts per row of imported models (their disagreements with evalpipe are reported)."""
        return harness_verdict_files(self)

    def stage_params(self) -> dict[str, Any]:
        params = {**super().stage_params(), "max_rejected_share": self.spec["max_rejected_share"],
                  "min_paired_share": self.spec["min_paired_share"],
                  "max_unscored_share": self.spec["max_unscored_share"]}
        if self.plain_spec.get("provenance"):
            params["harness"] = self.plain_spec["provenance"]
        if self.plain_spec.get("judge"):
            params["min_parse_rate"] = self.plain_spec["judge"]["min_parse_rate"]
        return params

    def compute(self) -> StageResult:
        """Every model's metrics — for shards, from the sum of their score_stats, never a mean of means — with
        what was set aside (summed over shards), then each section its part contributes (`sections`): intervals,
        the item explorer, the judge and people, the leaderboards, the harness. Each upstream artifact is read
        once."""
        read = self._read()
        set_aside = {model: set_aside_counts(read.question_counts, read.predictions[model], read.joins[model])
                     for model in read.scored}
        metrics = {model: model_metrics(read.kind, documents) for model, documents in read.scored.items()}
        unscored = self._unscored(read)
        report = build_dataset_report(self.dataset, read.kind, metrics, set_aside, super().stage_params(),
                                      None, self._problems(read, set_aside, unscored))
        if any(found.count for found in unscored.values()):
            report["unscored"] = {model: found.to_dict(self.spec["max_unscored_share"])
                                  for model, found in unscored.items() if found.count}
        for section in self.sections():
            report.update(section(read, report))
        self._write_renderings(read.kind, report, read.rows)
        return StageResult(None, {"models": len(metrics)}, body={"report": report})

    def sections(self) -> tuple[Section, ...]:
        """The report's sections after its figures, in the order they appear."""
        return (self._item_figures, self._explorer, self._agreement, self._generation, self._criteria, self._pairwise,
                self._parse_problems, self._leaderboards, self._cost, self._harness)

    def _read(self) -> B6Reading:
        """Every upstream artifact B6 needs whole, read once."""
        kind, shards = self.dataset_kind(), range(self.spec["shards"])
        scored = {model: [read_artifact_json(task.artifact_path()) for task in tasks]
                  for model, tasks in self.score_tasks().items()}
        rows = ({model: read_columns(tasks[0].artifact_path()) for model, tasks in self.score_tasks().items()}
                if len(shards) == 1 and not kind.columnar_stages else {})
        judged = {model: (task.artifact_path(), read_artifact_json(task.artifact_path()))
                  for model, task in self.judge_tasks().items()}
        joins = {model: [read_artifact_json(self._task(B3Normalize, s, model).artifact_path()) for s in shards]
                 for model in scored}
        pairwise = None
        for task in self.pairwise_tasks():
            document = read_artifact_json(task.artifact_path())
            pairwise = document, read_columns(task.artifact_path(), document)
        return B6Reading(
            kind=kind, questions=[read_artifact_json(self._task(B1Questions, s).artifact_path()) for s in shards],
            scored=scored, rows=rows, items=self._item_values(kind, rows, joins), judged=judged, pairwise=pairwise,
            predictions={model: [read_artifact_json(self._task(B2Predictions, s, model).artifact_path())
                                 for s in shards] for model in scored},
            joins=joins,
            sampled={model: merge_items([document["samples"] for document in documents])
                     for model, documents in scored.items() if all(document.get("samples") for document in documents)},
            labels_files=read_labels_files(self))

    def _unscored(self, read: B6Reading) -> dict[str, Unscored]:
        """Each model's items not scored: questions set aside for a missing part, items whose requests the server
        never answered (B3's `unscored`), items whose every judge call failed (B5J's `unanswered`)."""
        items = read.question_counts.get("accepted", 0) + unscored_rejects(read.questions)
        question_rejects = [r for document in read.questions for r in document.get("rejects", [])]
        return {model: model_unscored(items, question_rejects, *(d.get("unscored", {}) for d in read.joins[model]),
                                      read.judged[model][1].get("unanswered", {}) if model in read.judged else {})
                for model in read.scored}

    def _problems(self, read: B6Reading, set_aside: dict[str, dict[str, int]],
                  unscored: dict[str, Unscored]) -> list[str]:
        """Why the dataset may be unfit to publish: too many items not scored, too much set aside (the items not
        scored apart), too few questions paired, shards that disagree."""
        problems = unscored_problems(unscored, self.spec["max_unscored_share"])
        not_answered = {model: unscored_rejects(documents) for model, documents in read.predictions.items()}
        problems += dataset_problems(_less(read.question_counts, unscored_rejects(read.questions)),
                                     {model: _less(summed(d["header"]["counts"] for d in documents),
                                                   not_answered[model])
                                      for model, documents in read.predictions.items()},
                                     [r["reason"] for document in read.questions for r in document.get("rejects", [])
                                      if not r.get("unscored")],
                                     read.kind.headline_reject_reasons, self.spec["max_rejected_share"])
        problems += pairing_problems(read.question_counts.get("accepted", 0), {
            model: (max(0, set_aside[model]["missing_predictions"] - set_aside[model]["prediction_rows_rejected"]
                        + not_answered[model]),
                    [i for d in joins for i in d.get("missing_predictions", [])[:4]][:4],
                    [i for d in joins for i in d.get("unmatched_predictions", [])[:4]][:4])
            for model, joins in read.joins.items()
            if not any(problem.startswith(f"model {model}: ") for problem in problems)}, self.spec["min_paired_share"])
        if self.spec["shards"] > 1:
            problems += shard_problems(
                lambda shard: read_column(self._task(B1Questions, shard).artifact_path(), "id"), self.spec["shards"],
                {model: [(d.get("missing_predictions", []), d.get("unmatched_predictions", [])) for d in joins]
                 for model, joins in read.joins.items()})
        return problems

    def _item_figures(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        replies = {model: reply_counts(read.predictions[model], read.joins[model]) for model in read.scored}
        return {**replies_section(replies), **item_sections(read.kind, report["comparison"]["primary_metric"],
                                                            per_item_values(read.items, read.sampled), read.sampled)}

    def _explorer(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        return {"explorer": explorer(self, read.kind, report["comparison"]["primary_metric"],
                                     per_item_values(read.items, read.sampled), read.questions, read.predictions)}

    def _agreement(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        """The judge's criteria against the raters' labels, and the judge's labels in the explorer."""
        verdicts = judged_verdicts({model: read_columns(path, document)
                                    for model, (path, document) in read.judged.items()})
        agreement, raters, rejects = judge_against_raters(self, verdicts, read.labels_files)
        section: dict[str, Any] = {}
        if agreement or rejects:
            section["agreement"] = {"criteria": agreement, "set_aside": [r.to_dict() for r in rejects],
                                    "items": criterion_agreement_items(judge_labels(verdicts), raters)}
        if verdicts:
            section["explorer"] = with_judge_labels(report["explorer"], verdicts, raters)
        return section

    def _generation(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        return generation_section(read.predictions)

    def _criteria(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        return criteria_section(self.plain_spec.get("judge"), _criteria_summaries(read))

    def _pairwise(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        if read.pairwise is None:
            return {}
        document, outcomes = read.pairwise
        preferences, people, set_aside = pairwise_against_raters(self, outcomes, read.labels_files)
        return pairwise_section(self.plain_spec["judge"], document, outcomes, preferences, people, set_aside)

    def _parse_problems(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        return parse_problems_section(self.plain_spec.get("judge"), _criteria_summaries(read), report)

    def _leaderboards(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        sections = leaderboard_sections(self.outputs_dir, self.spec, self.plain_spec, self.leaderboard_tasks(),
                                        None if read.pairwise is None else read.pairwise[1])
        return {"leaderboards": sections} if sections else {}

    def _cost(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        """What each judge stage took: B5J per model, B5P, B5L per model, B4 per model of a kind asking it there."""
        usages = {model: stage_usage(document["header"]) for model, (_, document) in read.judged.items()}
        if get_kind(self.spec["kind"]).match_asks_judge:
            usages.update({f"{model} (B4)": stage_usage(read_artifact_json(self._task(B4Match, 0, model)
                                                                           .artifact_path())["header"])
                           for model in read.scored})
        if read.pairwise is not None:
            usages["(pairwise)"] = stage_usage(read.pairwise[0]["header"])
        for model, task in self.leaderboard_tasks().items():
            usages[f"{model} ({self.spec['leaderboard']['name']})"] = stage_usage(read_artifact_json(
                task.artifact_path())["header"])
        return cost_section(self.plain_spec.get("judge"), usages)

    def _harness(self, read: B6Reading, report: dict[str, Any]) -> dict[str, Any]:
        return harness_section(self)

    def _write_renderings(self, kind: Kind, report: dict[str, Any], rows: dict[str, Columns]) -> None:
        """The report as text beside B6's JSON, the kind's markdown and its files for people (what people typed into
        the previous ones kept)."""
        write_bytes_atomic(self.artifact_path().with_suffix(".txt"), (render_report(report) + "\n").encode())
        markdown = kind.render_markdown(self.dataset, report)
        if markdown is not None:
            write_bytes_atomic(self.artifact_path().with_suffix(".md"), markdown.encode())
        for name, data in kind.report_files(self.dataset, report, rows).items():
            path = self.artifact_path().with_name(name)
            if path.exists():
                data, outcome = keep_human_edits(kind, path, data)
                report.setdefault("human_edits", {})[name] = outcome
            write_bytes_atomic(path, data)

    def _task(self, cls: type[StageTask], shard: int, model: str = "") -> StageTask:
        return cls(outputs_dir=self.outputs_dir, spec=self.spec, model=model, shard=shard)

    def _item_values(self, kind: Kind, rows: dict[str, Columns],
                     joins: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, list]]:
        """Each model's per-item values of its kind's paired metrics, shard after shard (aligned across models and
        with the questions), each distinct value one object as item_scores gives them, None for an item not scored;
        a columnar kind's rows are read only in the columns those values need."""
        values: dict[str, dict[str, list]] = {}
        for model, tasks in self.score_tasks().items():
            for task, join in zip(tasks, joins[model]):
                unscored = join.get("unscored", {})
                scored = rows[model] if model in rows else _scored_rows(kind, task, with_ids=bool(unscored))
                ids = [str(i) for i in column_values(scored, "id")] if unscored else []
                for metric, items in kind.item_scores(scored).items():
                    if unscored:
                        items = [None if item in unscored else value for item, value in zip(ids, items)]
                    values.setdefault(model, {}).setdefault(metric, []).extend(items)
        return values


def _less(counts: dict[str, int], unscored: int) -> dict[str, int]:
    """Counts of rows read and set aside without the items not scored (outage.py answers for those)."""
    return {**counts, "input_rows": counts.get("input_rows", 0) - unscored,
            "rejected": counts.get("rejected", 0) - unscored, "unscored": unscored}



def _criteria_summaries(read: B6Reading) -> dict[str, dict[str, Any]]:
    """Each judged model's summary of every criterion (its B5J's)."""
    return {model: document["summary"] for model, (_, document) in read.judged.items()}


def _scored_rows(kind: Kind, task: StageTask, with_ids: bool = False) -> Rows:
    """A model's B5 rows for its item values: a columnar kind's as an Arrow table of the columns item_scores reads
    (and the ids, `with_ids`)."""
    if kind.columnar_stages:
        names = list(dict.fromkeys([*kind.item_score_columns, *(["id"] if with_ids else [])]))
        return read_table(task.artifact_path(), names)
    return read_columns(task.artifact_path())


def keep_human_edits(kind: Kind, path: UPath, fresh: bytes) -> tuple[bytes, dict[str, Any]]:
    """Carry what people typed into `path` over to its regenerated `fresh` bytes; when some of it no longer has a
    row to go to, the previous file is kept beside it under a timestamped name, and the console says so."""
    data, carried, left_behind = kind.keep_human_edits(path.name, path.read_bytes(), fresh)
    outcome: dict[str, Any] = {"carried_over": carried, "left_behind": left_behind, "previous_copy": None}
    if left_behind:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        copy = path.with_name(f"{path.stem}.{stamp}{path.suffix}")
        write_bytes_atomic(copy, path.read_bytes())
        outcome["previous_copy"] = copy.name
        print(f"evalpipe: {path}: {left_behind} edited row(s) no longer match a row (their case or texts changed); "
              f"the previous file is kept as {copy.name}", file=sys.stderr)
    if carried:
        print(f"evalpipe: {path}: {carried} edited row(s) carried over to the regenerated file", file=sys.stderr)
    return data, outcome
