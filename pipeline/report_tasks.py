"""B6 as a Luigi task: one dataset's report (every model, every shard merged, with intervals, the item explorer,
what was set aside, the judge against people and the leaderboards); the run's summary is summary_task.py."""
from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial, reduce
from typing import TYPE_CHECKING, Any

from stages import (
    Kind,
    build_dataset_report,
    get_kind,
    render_report,
)
from stages.core.distinct import shared_values
from stages.core.records import Columns, Rows, column_length
from stages.core.stage_names import ARTIFACT_NAMES
from stages.core.stats import add_stats
from stages.io.artifacts import (
    read_artifact_json,
    read_column,
    read_columns,
    read_rows_at,
    read_rows_with_ids,
    read_table,
)
from stages.io.storage import write_bytes_atomic
from stages.judge.biases import length_preference
from stages.judge.bradley_terry import bradley_terry_ratings, with_people
from stages.judge.costs import judge_cost
from stages.judge.parse_health import parse_problems
from stages.leaderboards.board import leaderboard_by_tool
from stages.raters.judge_agreement import criterion_agreement_items, judge_labels, judged_verdicts
from stages.raters.preferences import order_agreement_items, pair_outcomes, people_decisions
from stages.report.aggregate import item_distribution
from stages.report.explorer import (
    NOT_RIGHT_CAP,
    SAMPLE_CAP,
    choose_items,
    explorer_items,
    item_starts,
    item_views,
    merge_explorers,
    reply_texts,
    with_judge_labels,
)
from stages.report.health import dataset_problems, pairing_problems, shard_problems
from stages.report.intervals import uncertainty, wilson_interval
from stages.report.sampling import merge_items, sampling_summary

from .harness_report import harness_verdict_files, with_disagreements
from .judge_task import B5Judge, B5Pairwise
from .leaderboard_report import leaderboard_sections
from .leaderboard_task import B5Leaderboard
from .raters_report import judge_against_raters, pairwise_against_raters, raters_fingerprint, read_labels_files
from .task_base import StageResult, StageTask
from .tasks import B1Questions, B2Predictions, B3Normalize, B4Match, B5Score, KindStage, stage_rows

if TYPE_CHECKING:
    import pyarrow as pa
    from upath import UPath


def _by_id(found: Any, ids: list[str], column: str) -> list[Any]:
    """`column`'s value for each id in rows found by id, the first row of an id (None where the id has no row)."""
    import pyarrow as pa

    values = dict(zip(reversed(found.column("id").cast(pa.string()).to_pylist()),
                      reversed(found.column(column).to_pylist())))
    return [values.get(str(row_id)) for row_id in ids]


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
                  "min_paired_share": self.spec["min_paired_share"]}
        if self.plain_spec.get("provenance"):
            params["harness"] = self.plain_spec["provenance"]
        if self.plain_spec.get("judge"):
            params["min_parse_rate"] = self.plain_spec["judge"]["min_parse_rate"]
        return params

    def compute(self) -> StageResult:
        """Every model's metrics — for shards, from the sum of their score_stats, never a mean of means — with
        what was set aside (summed over shards), intervals, the item explorer and why the dataset may be unfit to
        publish. Each upstream artifact is read once."""
        kind = get_kind(self.spec["kind"])
        shards = range(self.spec["shards"])
        questions = [read_artifact_json(self._task(B1Questions, shard).artifact_path()) for shard in shards]
        question_counts = _summed(document["header"]["counts"] for document in questions)
        metrics, set_aside, predictions, shard_joins, replies, sampled = {}, {}, {}, {}, {}, {}
        for model, tasks in self.score_tasks().items():
            scored = [read_artifact_json(task.artifact_path()) for task in tasks]
            if all(document.get("samples") for document in scored):
                sampled[model] = merge_items([document["samples"] for document in scored])
            metrics[model] = (kind.metrics_from_stats(reduce(add_stats, (d["stats"] for d in scored), {}))
                              if kind.shardable else scored[0]["metrics"])
            shard_joins[model] = [read_artifact_json(self._task(B3Normalize, s, model).artifact_path()) for s in shards]
            joined = _summed(document["header"]["counts"] for document in shard_joins[model])
            predictions[model] = [read_artifact_json(self._task(B2Predictions, s, model).artifact_path())
                                  for s in shards]
            set_aside[model] = {
                "question_rows_rejected": question_counts["rejected"],
                "prediction_rows_rejected": _summed(d["header"]["counts"] for d in predictions[model])["rejected"],
                "missing_predictions": joined["missing_predictions"],
                "unmatched_predictions": joined["unmatched_predictions"],
            }
            generated = predictions[model][0]["header"].get("generation") or {}
            replies[model] = {"replies": joined["replies"], "unfinished_reasoning": joined.get("unfinished_reasoning", 0),
                              "cut_at_max_tokens": generated.get("cut_at_max_tokens", 0)}
        problems = dataset_problems(question_counts,
                                    {model: _summed(d["header"]["counts"] for d in docs)
                                     for model, docs in predictions.items()},
                                    [r["reason"] for document in questions for r in document.get("rejects", [])],
                                    kind.headline_reject_reasons, self.spec["max_rejected_share"])
        problems += pairing_problems(question_counts.get("accepted", 0), {
            model: (max(0, set_aside[model]["missing_predictions"] - set_aside[model]["prediction_rows_rejected"]),
                    [i for d in joins for i in d.get("missing_predictions", [])[:4]][:4],
                    [i for d in joins for i in d.get("unmatched_predictions", [])[:4]][:4])
            for model, joins in shard_joins.items()
            if not any(problem.startswith(f"model {model}: ") for problem in problems)}, self.spec["min_paired_share"])
        if len(shards) > 1:
            problems += shard_problems(
                lambda shard: read_column(self._task(B1Questions, shard).artifact_path(), "id"), len(shards),
                {model: [(d.get("missing_predictions", []), d.get("unmatched_predictions", [])) for d in joins]
                 for model, joins in shard_joins.items()})
        rows = ({model: read_columns(tasks[0].artifact_path()) for model, tasks in self.score_tasks().items()}
                if len(shards) == 1 and not kind.columnar_stages else {})
        report = build_dataset_report(self.dataset, self.spec["kind"], metrics, set_aside, super().stage_params(),
                                      None, problems)
        if any(found["unfinished_reasoning"] or found["cut_at_max_tokens"] for found in replies.values()):
            report["replies"] = replies
        primary = report["comparison"]["primary_metric"]
        items = self._item_values(kind, rows)
        per_item = {model: sampled[model]["means"] if model in sampled else values for model, values in items.items()}
        if sampled:
            report["samples"] = {model: sampling_summary(found) for model, found in sampled.items()}
        report["distributions"] = {model: d for model, values in per_item.items()
                                   if (d := item_distribution(self.spec["kind"], primary, values)) is not None}
        tests = {metric: "mean" if sampled else test for metric, test in kind.paired_metrics.items()}  # item means
        report.update(uncertainty(tests, primary, per_item))
        report["explorer"] = self._explorer(kind, primary, per_item, questions, predictions)
        judge_paths = {model: task.artifact_path() for model, task in self.judge_tasks().items()}
        judge_documents = {model: read_artifact_json(path) for model, path in judge_paths.items()}
        verdicts = judged_verdicts({model: read_columns(judge_paths[model], document)
                                    for model, document in judge_documents.items()})
        labels_files = read_labels_files(self)
        agreement, raters, rejects = judge_against_raters(self, verdicts, labels_files)
        if agreement or rejects:
            report["agreement"] = {"criteria": agreement, "set_aside": [r.to_dict() for r in rejects],
                                   "items": criterion_agreement_items(judge_labels(verdicts), raters)}
        if verdicts:
            report["explorer"] = with_judge_labels(report["explorer"], verdicts, raters)
        generation = {model: docs[0]["header"].get("generation") for model, docs in predictions.items()}
        if any(generation.values()):
            report["generation"] = {model: summary for model, summary in generation.items() if summary}
        judged = {model: document["summary"] for model, document in judge_documents.items()}
        if judged:
            report["judge"] = {"judges": list(self.plain_spec["judge"]["models"]), "models": judged}
        usages = {model: stage_usage(document["header"]) for model, document in judge_documents.items()}
        outcomes = None
        for task in self.pairwise_tasks():
            document = read_artifact_json(task.artifact_path())
            baseline = self.plain_spec["judge"].get("baseline")
            report["pairwise"] = {"judges": list(self.plain_spec["judge"]["models"]), "baseline": baseline,
                                  "pairs": document["summary"]}
            outcomes = read_columns(task.artifact_path(), document)
            if any(found is not None for found in outcomes["outcome"]):
                report["bradley_terry"] = bradley_terry_ratings(outcomes["first"], outcomes["second"],
                                                                outcomes["outcome"], outcomes["id"], baseline)
            preferences, people, set_aside = pairwise_against_raters(self, outcomes, labels_files)
            if preferences is not None or set_aside:
                report["preferences"] = {**(preferences or {}), "set_aside": [r.to_dict() for r in set_aside]}
                if people:
                    report["preferences"]["items"] = order_agreement_items(pair_outcomes(outcomes)[1], people)
            if people and report.get("bradley_terry"):
                report["bradley_terry"] = with_people(report["bradley_terry"], people, baseline)
            report["biases"] = {"judges": document.get("biases", {}), "people": None if not people else
                                length_preference(people_decisions(outcomes, people))}
            usages["(pairwise)"] = stage_usage(document["header"])
        if self.plain_spec.get("judge"):
            judge = self.plain_spec["judge"]
            report["problems"] = report.get("problems", []) + parse_problems(
                judged, report.get("pairwise", {}).get("pairs", []), (judge.get("pairwise") or {}).get("scale"),
                judge["min_parse_rate"])
        sections = leaderboard_sections(self.outputs_dir, self.spec, self.plain_spec, self.leaderboard_tasks(),
                                        outcomes)
        if sections:
            report["leaderboards"] = sections
        for model, task in self.leaderboard_tasks().items():
            usages[f"{model} ({self.spec['leaderboard']['name']})"] = stage_usage(read_artifact_json(
                task.artifact_path())["header"])
        if self.plain_spec.get("judge") and not self.plain_spec["judge"]["url"]:
            report["judge_without_url"] = True
        if any(usages.values()):
            report["judge_cost"] = judge_cost({name: usage for name, usage in usages.items() if usage},
                                              self.plain_spec["judge"].get("price"))
        harness = {model: found for model, found in self.plain_spec.get("provenance", {}).items()
                   if "published" not in found and leaderboard_by_tool(found.get("tool")) is None}
        if harness:
            imported = {model: harness[model] for model in sorted(self.spec["predictions"]) if model in harness}
            report["harness"] = with_disagreements(self, imported)
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
        return StageResult(None, {"models": len(metrics)}, body={"report": report})

    def _task(self, cls: type[StageTask], shard: int, model: str = "") -> StageTask:
        return cls(outputs_dir=self.outputs_dir, spec=self.spec, model=model, shard=shard)

    def _item_values(self, kind: Kind, rows: dict[str, Columns]) -> dict[str, dict[str, list]]:
        """Each model's per-item values of its kind's paired metrics, shard after shard (aligned across models and
        with the questions), each distinct value one object; a columnar kind's rows are read only in the columns
        those values need."""
        values: dict[str, dict[str, list]] = {}
        for model, tasks in self.score_tasks().items():
            for task in tasks:
                scored = rows[model] if model in rows else _scored_rows(kind, task)
                for metric, items in kind.item_scores(scored).items():
                    values.setdefault(model, {}).setdefault(metric, []).extend(shared_values(items))
        return values

    def _explorer(self, kind: Kind, primary: str, items: dict[str, dict[str, list]], questions: list[dict],
                  predictions: dict[str, list[dict]]) -> dict[str, Any]:
        """The item explorer's bounded selection, shard by shard: statuses from the B4 columns, texts looked up in
        Arrow for the chosen items only, scores from the item values already taken."""
        shards = self.spec["shards"]
        scores_of = {model: values.get(primary) or next(iter(values.values()), []) for model, values in items.items()}
        parts, offset = [], 0
        for shard in range(shards):
            b1 = self._task(B1Questions, shard).artifact_path()
            readings = {model: _matched_rows(kind, self._task(B4Match, shard, model)) for model in self.score_tasks()}
            starts = {model: found for model, (_, found, _) in readings.items() if found is not None}
            chosen, not_right = choose_items(kind, {model: rows for model, (rows, _, _) in readings.items()},
                                             max(1, NOT_RIGHT_CAP // shards), max(1, SAMPLE_CAP // shards), starts)
            views = {model: view(chosen) for model, (_, _, view) in readings.items()}
            chosen_rows = read_rows_at(b1, chosen, [name for name in ("id", "question", "golds")
                                                    if name in questions[shard].get("columns", ())], questions[shard])
            ids = chosen_rows["id"]
            set_aside = [{"where": "questions", **r} for r in questions[shard].get("rejects", [])]
            texts, scores = {}, {}
            for model in self.score_tasks():
                found = self._answers(model, shard, ids, predictions[model], model in starts)
                texts[model] = (_by_id(found, ids, "prediction") if model not in starts
                                else reply_texts(found, ids, views[model]))
                set_aside += [{"where": model, **r} for r in predictions[model][shard].get("rejects", [])]
                values = scores_of.get(model, [])
                scores[model] = [values[offset + i] if offset + i < len(values) else None for i in chosen]
            rows, found, _ = next(iter(readings.values()))
            items_in_shard = column_length(rows) if found is None else len(found)
            parts.append(explorer_items(ids, chosen_rows.get("question") or [None] * len(ids),
                                        chosen_rows.get("golds") or [None] * len(ids), texts, views, scores,
                                        items_in_shard, not_right, set_aside, frozenset(starts)))
            offset += items_in_shard
        return merge_explorers(parts)

    def _answers(self, model: str, shard: int, ids: list[Any], documents: list[dict], sampled: bool) -> pa.Table:
        """The prediction rows with these ids (and their sample numbers, of several replies per item) in the B2 shards
        B3 took this shard's answers from, in file order."""
        import pyarrow as pa

        wanted = [str(i) for i in ids]
        columns = ["id", "prediction", *(["sample"] if sampled else [])]
        return pa.concat_tables([read_rows_with_ids(self._task(B2Predictions, near, model).artifact_path(), wanted,
                                                    columns, documents[near])
                                 for near in self._task(B3Normalize, shard, model).neighbours()],
                                promote_options="permissive")


def _matched_rows(kind: Kind, task: StageTask) -> tuple[Rows, list[int] | None, Callable[[list[int]], list[Any]]]:
    """A model's B4 rows for choosing explorer items, each item's first row when it has several replies per item
    (else None), and the item views of chosen items — of several replies, each reply's (sample, status, reading):
    of a columnar kind with a status column, that column alone, and the chosen rows read whole one row group at a
    time."""
    path = task.artifact_path()
    document = read_artifact_json(path)
    if not (kind.columnar_stages and kind.status_column):
        rows = stage_rows(task)
        view = partial(item_views, kind, rows)
    else:
        rows = read_table(path, [kind.status_column], document)
        view = partial(_views_at, kind, path, document)
    if "sample" not in document.get("columns", ()):
        return rows, None, view
    ids, samples = read_column(path, "id").to_pylist(), read_column(path, "sample").to_pylist()
    starts = item_starts(ids)
    bounds = [*starts, len(ids)]

    def replies_view(chosen: list[int]) -> list[list[tuple[int | None, str, str]]]:
        replies = [range(bounds[item], bounds[item + 1]) for item in chosen]
        views = iter(view([row for rows_of in replies for row in rows_of]))
        return [[(samples[row], *next(views)) for row in rows_of] for rows_of in replies]

    return rows, starts, replies_view



def _views_at(kind: Kind, path: UPath, document: dict[str, Any], chosen: list[int]) -> list[tuple[str, str]]:
    """The item views of the B4 rows at `chosen`, read whole one row group at a time."""
    return item_views(kind, read_rows_at(path, chosen, document["columns"], document))


def _scored_rows(kind: Kind, task: StageTask) -> Rows:
    """A model's B5 rows for its item values: a columnar kind's as an Arrow table of the columns item_scores reads."""
    if kind.columnar_stages:
        return read_table(task.artifact_path(), list(kind.item_score_columns))
    return read_columns(task.artifact_path())


def stage_usage(header: dict[str, Any]) -> dict[str, Any] | None:
    """What a judge stage took (its judge_usage, with the recheck's flip rate and its Wilson interval) and which run
    asked it, or None when it asked nothing."""
    usage = header.get("judge_usage")
    if usage is None:
        return None
    if usage.get("rechecked"):
        low, high = wilson_interval(usage["flips"], usage["rechecked"])
        usage = {**usage, "flip_rate": usage["flips"] / usage["rechecked"], "flip_rate_low": low,
                 "flip_rate_high": high}
    return {**usage, "run_token": header.get("run_token")}


def _summed(counts: Any) -> dict[str, int]:
    """Counts of several shards added up."""
    return dict(reduce(add_stats, counts, {}))


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
