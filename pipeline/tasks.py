"""The six stages as Luigi tasks; each reads its upstream artifacts and calls stages/ for the work."""
from __future__ import annotations

import sys
from datetime import datetime, timezone
from functools import reduce
from typing import TYPE_CHECKING, Any

import luigi

from stages import (
    AnswerStore,
    GenerateConfig,
    Kind,
    build_dataset_report,
    build_summary,
    generate_predictions,
    generation_summary,
    get_kind,
    join_predictions,
    render_html_report,
    render_report,
    score_distribution,
)
from stages.core.records import Columns
from stages.core.stage_names import ARTIFACT_NAMES
from stages.core.stats import add_stats
from stages.io.artifacts import read_artifact_json, read_column, read_columns, read_table, write_json_atomic
from stages.io.join import join_shard
from stages.io.storage import location, write_bytes_atomic
from stages.report.explorer import NOT_RIGHT_CAP, SAMPLE_CAP, explorer_items, merge_explorers
from stages.report.health import dataset_problems, shard_problems
from stages.report.intervals import uncertainty

from .fingerprint import code_version, fingerprint
from .task_base import StageResult, StageTask

if TYPE_CHECKING:
    from upath import UPath


def _rows_param(task: StageTask) -> dict[str, Any]:
    """A shard's record positions, part of its B1 / B2 parameters."""
    rows = task.rows()
    return {} if rows is None else {"rows": [rows.start, rows.stop]}


def _columns(table: Any) -> Columns:
    return {name: table.column(name).to_pylist() for name in table.column_names}


def _load(task: StageTask) -> tuple[dict, dict]:
    path = task.artifact_path()
    document = read_artifact_json(path)
    return document, read_columns(path, document)


class B1Questions(StageTask):
    stage, artifact_name = "B1", ARTIFACT_NAMES["B1"]

    def input_files(self) -> dict[str, UPath]:
        return {self.spec["questions"]: self.input_location(self.spec["questions"])}

    def stage_params(self) -> dict[str, Any]:
        return {"kind": self.spec["kind"], "fields": self.plain_spec["fields"], **_rows_param(self)}

    def compute(self) -> StageResult:
        loaded = get_kind(self.spec["kind"]).load_gold(self.input_location(self.spec["questions"]),
                                                       self.plain_spec["fields"], self.rows())
        return StageResult(loaded.columns, loaded.counts(), loaded.rejects)


class B2Predictions(StageTask):
    """One model's predictions: its file, or — with [generate] and no file — answers asked of a chat server."""

    stage, artifact_name = "B2", ARTIFACT_NAMES["B2"]

    @property
    def generated(self) -> bool:
        return not self.spec["predictions"][self.model]

    def answers_path(self) -> UPath:
        """Where generated answers are kept as they arrive (kept by --force; delete it to ask everything again)."""
        return self.artifact_path().with_name("B2_generated.jsonl")

    def input_files(self) -> dict[str, UPath]:
        if not self.generated:
            name = self.spec["predictions"][self.model]
            return {name: self.input_location(name)}
        store = self.answers_path()
        return {self.spec["questions"]: self.input_location(self.spec["questions"]),
                **({f"outputs:{store.name}": store} if store.exists() else {})}

    def stage_params(self) -> dict[str, Any]:
        params = {"fields": self.plain_spec["fields"], **_rows_param(self)}
        if self.generated:
            params["generate"] = self.plain_spec["generate"]
        return params

    def fingerprint_parts(self) -> dict[str, Any]:
        """Generated answers: the answers on disk are an input, and failures among them make every new run stale
        (so it asks again) while staying stable within the run: the run's token comes from the driver, in the spec,
        so every host agrees."""
        parts = super().fingerprint_parts()
        if self.generated and AnswerStore(self.answers_path()).has_failures():
            parts["retry_run"] = self.spec["run_token"]
        return parts

    def fingerprint_after_compute(self) -> bool:
        return self.generated

    def process_resources(self) -> dict[str, int]:
        """A generating task holds `concurrency` units of endpoint.<protocol>: luigi.cfg / luigid [resources] caps the
        calls to one kind of chat server across every worker and host."""
        if not self.generated:
            return {}
        return {f"endpoint.{self.spec['generate']['protocol']}": self.spec["generate_concurrency"]}

    def compute(self) -> StageResult:
        kind = get_kind(self.spec["kind"])
        if not self.generated:
            loaded = kind.load_predictions(self.input_location(self.spec["predictions"][self.model]),
                                           self.plain_spec["fields"], self.rows())
            return StageResult(loaded.columns, loaded.counts(), loaded.rejects)
        questions = kind.load_gold(self.input_location(self.spec["questions"]), self.plain_spec["fields"]).columns
        settings = self.plain_spec["generate"]
        config = GenerateConfig(**{**settings, "models": tuple(settings["models"]),
                                   "concurrency": self.spec["generate_concurrency"]})
        options = questions.get("options") or [None] * len(questions["id"])
        conversations = questions.get(kind.conversation_column) if kind.conversation_column else questions["id"]
        cases = [{"id": qid, "conversation": conversation,
                  "prompt": kind.generation_prompt(question or "", choices, config.prompt_template)}
                 for qid, conversation, question, choices in zip(questions["id"], conversations,
                                                                 questions["question"], options)]
        loaded = generate_predictions(cases, config, self.model, self.answers_path())
        summary = generation_summary(self.answers_path(), [case["id"] for case in cases])
        return StageResult(loaded.columns, loaded.counts(), loaded.rejects,
                           header={"generated": True, "generation": summary})


class KindStage(StageTask):
    """B3–B5: one call of the kind's normalize / match / score on the upstream artifact's rows."""

    def stage_params(self) -> dict[str, Any]:
        return get_kind(self.spec["kind"]).params_for(self.stage, self.plain_spec["params"])


class B3Normalize(KindStage):
    stage, artifact_name = "B3", ARTIFACT_NAMES["B3"]

    def neighbours(self) -> list[int]:
        """This shard and the ones beside it, whose prediction rows may hold this shard's answers."""
        if not self.sharded:
            return [self.shard]
        return [s for s in (self.shard - 1, self.shard, self.shard + 1) if 0 <= s < self.spec["shards"]]

    def requires(self) -> dict[str, list[StageTask]]:
        return {
            "questions": [B1Questions(outputs_dir=self.outputs_dir, spec=self.spec, shard=s) for s in self.neighbours()],
            "predictions": [B2Predictions(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model, shard=s)
                            for s in self.neighbours()],
        }

    def compute(self) -> StageResult:
        own = self.neighbours().index(self.shard)
        questions = _load(self.requires()["questions"][own])[1]
        if self.sharded:
            joined, join_info = self._join_with_neighbours(questions, own)
        else:
            joined, join_info = join_predictions(questions, _load(self.requires()["predictions"][own])[1])
        columns, info = get_kind(self.spec["kind"]).normalize(joined, self.stage_params())
        counts = join_info.pop("counts")
        return StageResult(columns, counts, header={"info": info}, body=join_info)


    def _join_with_neighbours(self, questions: Columns, own: int) -> tuple[Columns, dict[str, Any]]:
        """Only the answers to this shard's questions leave Arrow, so memory stays near one shard's."""
        import pyarrow as pa
        import pyarrow.compute as pc

        question_ids = pa.array(questions["id"], pa.string())
        nearby = pa.chunked_array([c.cast(pa.string()) for task in self.requires()["questions"]
                                   for c in read_column(task.artifact_path(), "id").chunks], type=pa.string())
        pool, unmatched, shard_predictions = [], [], 0
        for index, task in enumerate(self.requires()["predictions"]):
            table = read_table(task.artifact_path())
            ids = table.column("id").cast(pa.string())
            if index == own:
                shard_predictions = table.num_rows
                unmatched = ids.filter(pc.invert(pc.is_in(ids, value_set=nearby.combine_chunks()))).to_pylist()
            pool.append(_columns(table.filter(pc.is_in(ids, value_set=question_ids))))
        return join_shard(questions, pool, unmatched, shard_predictions)


class B4Match(KindStage):
    stage, artifact_name = "B4", ARTIFACT_NAMES["B4"]

    def requires(self) -> StageTask:
        return B3Normalize(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model, shard=self.shard)

    def compute(self) -> StageResult:
        _, normalized = _load(self.requires())
        columns, info = get_kind(self.spec["kind"]).match(normalized, self.stage_params())
        return StageResult(columns, {"rows": len(columns["id"])}, header={"info": info})


class B5Score(KindStage):
    stage, artifact_name = "B5", ARTIFACT_NAMES["B5"]

    def requires(self) -> StageTask:
        return B4Match(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model, shard=self.shard)

    def compute(self) -> StageResult:
        _, matched = _load(self.requires())
        kind = get_kind(self.spec["kind"])
        columns, metrics = kind.score(matched, self.stage_params())
        body = {"metrics": metrics, **({"stats": kind.score_stats(matched)} if kind.shardable else {})}
        return StageResult(columns, {"rows": len(columns["id"])}, body=body)


class B6Report(KindStage):
    """All models of one dataset side by side, with what was set aside; also a text rendering."""

    stage, artifact_name = "B6", ARTIFACT_NAMES["B6"]

    def requires(self) -> dict[str, list[StageTask]]:
        return {model: [B5Score(outputs_dir=self.outputs_dir, spec=self.spec, model=model, shard=shard)
                        for shard in range(self.spec["shards"])]
                for model in sorted(self.spec["predictions"])}

    def stage_params(self) -> dict[str, Any]:
        return {**super().stage_params(), "max_rejected_share": self.spec["max_rejected_share"]}

    def compute(self) -> StageResult:
        """Every model's metrics — for shards, from the sum of their score_stats, never a mean of means — with
        what was set aside (summed over shards) and why the dataset may be unfit to publish."""
        kind = get_kind(self.spec["kind"])
        shards = range(self.spec["shards"])
        questions = [read_artifact_json(self._task(B1Questions, shard).artifact_path()) for shard in shards]
        question_counts = _summed(document["header"]["counts"] for document in questions)
        metrics, set_aside, prediction_counts, shard_joins = {}, {}, {}, {}
        for model, tasks in self.requires().items():
            scored = [read_artifact_json(task.artifact_path()) for task in tasks]
            metrics[model] = (kind.metrics_from_stats(reduce(add_stats, (d["stats"] for d in scored), {}))
                              if kind.shardable else scored[0]["metrics"])
            joins = [read_artifact_json(self._task(B3Normalize, shard, model).artifact_path()) for shard in shards]
            joined = _summed(document["header"]["counts"] for document in joins)
            prediction_counts[model] = _summed(
                read_artifact_json(self._task(B2Predictions, shard, model).artifact_path())["header"]["counts"]
                for shard in shards)
            shard_joins[model] = joins
            set_aside[model] = {
                "question_rows_rejected": question_counts["rejected"],
                "prediction_rows_rejected": prediction_counts[model]["rejected"],
                "missing_predictions": joined["missing_predictions"],
                "unmatched_predictions": joined["unmatched_predictions"],
            }
        problems = dataset_problems(question_counts, prediction_counts,
                                    [r["reason"] for document in questions for r in document.get("rejects", [])],
                                    kind.headline_reject_reasons, self.spec["max_rejected_share"])
        if len(shards) > 1:
            problems += shard_problems(
                [read_column(task.artifact_path(), "id") for task in (self._task(B1Questions, s) for s in shards)],
                {model: [(d.get("missing_predictions", []), d.get("unmatched_predictions", [])) for d in joins]
                 for model, joins in shard_joins.items()})
        rows = ({model: read_columns(tasks[0].artifact_path()) for model, tasks in self.requires().items()}
                if len(shards) == 1 else {})
        report = build_dataset_report(self.dataset, self.spec["kind"], metrics, set_aside, super().stage_params(),
                                      rows, problems)
        report.update(uncertainty(kind.paired_metrics, report["comparison"]["primary_metric"],
                                  self._item_values(kind, rows)))
        report["explorer"] = self._explorer(kind, report["comparison"]["primary_metric"])
        generation = {model: read_artifact_json(self._task(B2Predictions, 0, model).artifact_path())["header"]
                      .get("generation") for model in self.requires()}
        if any(generation.values()):
            report["generation"] = {model: summary for model, summary in generation.items() if summary}
        if len(shards) > 1:
            report["distributions"] = self._summed_distributions(report["comparison"]["primary_metric"])
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
        """Each model's per-item values of its kind's paired metrics, shard after shard (aligned across models)."""
        values: dict[str, dict[str, list]] = {}
        for model, tasks in self.requires().items():
            for task in tasks:
                scored = rows[model] if model in rows else read_columns(task.artifact_path())
                for metric, items in kind.item_scores(scored).items():
                    values.setdefault(model, {}).setdefault(metric, []).extend(items)
        return values

    def _explorer(self, kind: Kind, primary: str) -> dict[str, Any]:
        """The item explorer's bounded selection, built shard by shard (one shard's rows in memory at a time)."""
        shards = self.spec["shards"]
        parts = []
        for shard in range(shards):
            b1 = self._task(B1Questions, shard).artifact_path()
            set_aside = [{"where": "questions", **r} for r in read_artifact_json(b1).get("rejects", [])]
            predictions, matched, scores = {}, {}, {}
            for model in self.requires():
                b2 = self._task(B2Predictions, shard, model).artifact_path()
                columns = read_columns(b2)
                predictions[model] = dict(zip(columns["id"], columns["prediction"]))
                set_aside += [{"where": model, **r} for r in read_artifact_json(b2).get("rejects", [])]
                matched[model] = read_columns(self._task(B4Match, shard, model).artifact_path())
                scored = read_columns(self._task(B5Score, shard, model).artifact_path())
                values = kind.item_scores(scored)
                primary_values = values.get(primary) or next(iter(values.values()), [None] * len(scored["id"]))
                scores[model] = dict(zip(scored["id"], primary_values))
            parts.append(explorer_items(kind, read_columns(b1), predictions, matched, scores, set_aside,
                                        max(1, NOT_RIGHT_CAP // shards), max(1, SAMPLE_CAP // shards)))
        return merge_explorers(parts)

    def _summed_distributions(self, primary: str) -> dict[str, Any]:
        """Each model's histogram of per-item scores, added up shard by shard (one shard's rows in memory)."""
        distributions = {}
        for model, tasks in self.requires().items():
            histograms = [score_distribution(self.spec["kind"], primary, read_columns(task.artifact_path()))
                          for task in tasks]
            histograms = [h for h in histograms if h is not None]
            if histograms:
                distributions[model] = {**histograms[0], "counts": [sum(c) for c in zip(*(h["counts"]
                                                                                          for h in histograms))]}
        return distributions


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


class B6Summary(luigi.Task):
    """Every dataset's primary metric per model in outputs/B6_summary.json, and the run's outputs/report.html."""

    outputs_dir = luigi.Parameter()
    specs = luigi.ListParameter()

    def requires(self) -> list[B6Report]:
        return [B6Report(outputs_dir=self.outputs_dir, spec=spec) for spec in self.specs]

    def artifact_path(self) -> UPath:
        return location(self.outputs_dir) / "B6_summary.json"

    def fingerprint(self) -> str:
        return fingerprint({"stage": "B6_summary", "upstream": [task.fingerprint() for task in self.requires()]})

    def complete(self) -> bool:
        document = read_artifact_json(self.artifact_path())
        return document is not None and document.get("header", {}).get("fingerprint") == self.fingerprint()

    def run(self) -> None:
        reports = [read_artifact_json(task.artifact_path())["report"] for task in self.requires()]
        header = {"stage": "B6_summary", "fingerprint": self.fingerprint(), "code_version": code_version(),
                  "upstream": {task.dataset: task.fingerprint() for task in self.requires()}}
        run = {"title": "evalpipe report", "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "code_version": header["code_version"], "outputs": self.outputs_dir}
        write_bytes_atomic(self.html_path(), render_html_report(reports, run).encode())
        write_json_atomic(self.artifact_path(), {"header": header, **build_summary(reports)})

    def html_path(self) -> UPath:
        return location(self.outputs_dir) / "report.html"
