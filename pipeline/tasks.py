"""B1–B5 as Luigi tasks; each reads its upstream artifacts and calls stages/ for the work (B6: report_tasks.py)."""
from __future__ import annotations

import multiprocessing
from typing import TYPE_CHECKING, Any

from stages import AnswerStore, GenerateConfig, get_kind, join_predictions
from stages.chat.outage import unscored_ids
from stages.core.errors import UsageError
from stages.core.records import Rows, as_columns, column_length, column_names, column_values, with_sample_numbers
from stages.core.stage_names import ARTIFACT_NAMES
from stages.io.artifacts import read_artifact_json, read_column, read_columns, read_table
from stages.io.join import join_shard, rows_without, unscored_questions
from stages.kinds.base import Kind
from stages.kinds.sampling import item_samples
from stages.report.sampling import with_items_not_scored
from stages.text.reasoning import ReasoningTags, answers_after_reasoning

from .match_judge import asks_judge, match_judge_params, match_judge_settings, match_resources, match_retry
from .task_base import StageResult, StageTask

if TYPE_CHECKING:
    from upath import UPath


def _rows_param(task: StageTask) -> dict[str, Any]:
    """A shard's record positions, part of its B1 / B2 parameters."""
    rows = task.rows()
    return {} if rows is None else {"rows": [rows.start, rows.stop]}


def _gold_params(task: StageTask) -> dict[str, Any]:
    """The kind's parameters its B1 gold check reads (fact verification's label_map)."""
    return get_kind(task.spec["kind"]).params_for("B1", task.plain_spec["params"])


def warm_up_matching(task: StageTask, rows: Rows) -> None:
    """B1–B3 let the kind start what B4 takes long to start, when B4 will run in this process (not in a worker
    process of --workers > 1, which ends with its task)."""
    if multiprocessing.parent_process() is None:
        get_kind(task.spec["kind"]).warm_up(rows)


def warm_up_runs(outputs: str, specs: list[dict[str, Any]]) -> None:
    """As a run whose stages run in this process begins, each dataset's kind may start what its B4 takes long to
    start, asking whether B4 is to be computed (of any model or shard) only when it has something to start."""
    for spec in specs:
        def matching_here(spec: dict[str, Any] = spec) -> bool:
            return any(_to_compute(B4Match(outputs_dir=outputs, spec=spec, model=model, shard=shard))
                       for model in sorted(spec["predictions"]) for shard in range(spec["shards"]))

        get_kind(spec["kind"]).warm_up_run(matching_here)


def _to_compute(task: StageTask) -> bool:
    """The task is not complete; False when that cannot be told (Luigi asks again, and reports why)."""
    try:
        return not task.complete()
    except Exception:  # noqa: BLE001 - a warm-up never fails a run
        return False


def stage_rows(task: StageTask, columns: tuple[str, ...] | None = None) -> Rows:
    """The rows a kind's stage takes from an upstream artifact: an Arrow table (of `columns` only, when named) for
    kinds that work on columns, else Python columns."""
    if get_kind(task.spec["kind"]).columnar_stages:
        return read_table(task.artifact_path(), None if columns is None else list(columns))
    return read_columns(task.artifact_path())


class B1Questions(StageTask):
    stage, artifact_name = "B1", ARTIFACT_NAMES["B1"]

    def input_files(self) -> dict[str, UPath]:
        """The questions file and the kind's other gold files that exist (a missing one is the kind's to report)."""
        extra = [f"{self.spec['name']}/{name}" for name in get_kind(self.spec["kind"]).gold_files(self.spec["params"])]
        files = {name: self.input_location(name) for name in (self.spec["questions"], *extra)}
        return {name: path for name, path in files.items() if name == self.spec["questions"] or path.exists()}

    def stage_params(self) -> dict[str, Any]:
        return {"kind": self.spec["kind"], "fields": self.plain_spec["fields"], **_rows_param(self),
                **_gold_params(self)}

    def compute(self) -> StageResult:
        loaded = get_kind(self.spec["kind"]).load_gold(self.input_location(self.spec["questions"]),
                                                       self.plain_spec["fields"], self.rows(), _gold_params(self))
        warm_up_matching(self, loaded.columns)
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
                **({f"outputs:{store.name}": store} if store.exists() else {}),
                **get_kind(self.spec["kind"]).asking_files(self.plain_spec["generate"])}

    def stage_params(self) -> dict[str, Any]:
        params = {"fields": self.plain_spec["fields"], **_rows_param(self)}
        if self.generated:
            params["generate"] = {k: v for k, v in self.plain_spec["generate"].items() if k != "price"}
            if self.plain_spec.get("user"):
                params["user"] = {k: v for k, v in self.plain_spec["user"].items() if k != "price"}
            params.update({"gold": _gold_params(self)} if _gold_params(self) else {})  # B1's items are asked here
        return params

    def fingerprint_parts(self) -> dict[str, Any]:
        """Generated answers: the answers on disk are an input, and failures among them make every new run stale
        (so it asks again) while staying stable within the run: the run's token comes from the driver, in the spec,
        so every host agrees."""
        parts = super().fingerprint_parts()
        if self.generated and AnswerStore(self.answers_path()).has_failures():
            parts["retry_run"] = self.spec.get("run_token")
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
        kind = self.dataset_kind()
        if not self.generated:
            loaded = kind.load_predictions(self.input_location(self.spec["predictions"][self.model]),
                                           self.plain_spec["fields"], self.rows())
            warm_up_matching(self, loaded.columns)
            return StageResult(loaded.columns, loaded.counts(), loaded.rejects)
        questions = as_columns(kind.load_gold(self.input_location(self.spec["questions"]),
                                              self.plain_spec["fields"], params=_gold_params(self)).columns)
        try:
            loaded, summary = kind.ask(questions, self._endpoint("generate", self.spec["generate_concurrency"]),
                                       self.model, self.answers_path(), user=self._endpoint("user", 1))
        except UsageError as exc:
            raise UsageError(f"{self.dataset}: {exc}") from None
        return StageResult(loaded.columns, loaded.counts(), loaded.rejects,
                           header={"generated": True, "generation": summary})

    def _endpoint(self, section: str, concurrency: int) -> GenerateConfig | None:
        """dataset.toml's [generate] or [user] as asked (None without the section)."""
        settings = self.plain_spec.get(section)
        if not settings:
            return None
        return GenerateConfig(**{**settings, "models": tuple(settings["models"]), "concurrency": concurrency})


class KindStage(StageTask):
    """B3–B5: one call of the kind's normalize / match / score on the upstream artifact's rows."""

    def stage_params(self) -> dict[str, Any]:
        return get_kind(self.spec["kind"]).params_for(self.stage, self.plain_spec["params"])


class B3Normalize(KindStage):
    stage, artifact_name = "B3", ARTIFACT_NAMES["B3"]

    def reasoning_tags(self) -> ReasoningTags | None:
        """The tags replies wrap their reasoning in (None for kinds that read documents, not replies)."""
        return None if get_kind(self.spec["kind"]).document_folders else super().reasoning_tags()

    def stage_params(self) -> dict[str, Any]:
        tags = self.reasoning_tags()
        return {**super().stage_params(), **({} if tags is None else {"reasoning": tags.described()})}

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
        questions = stage_rows(self.requires()["questions"][own], get_kind(self.spec["kind"]).joined_question_columns)
        unscored = self._unscored(questions)
        if self.sharded:
            joined, join_info = self._join_with_neighbours(questions, own)
        else:
            joined, join_info = join_predictions(questions, stage_rows(self.requires()["predictions"][own]),
                                                 distinct_question_ids=True)  # B1 sets a repeated id aside
        counts = join_info.pop("counts")
        tags = self.reasoning_tags()
        if tags is not None:
            joined, reasoning = answers_after_reasoning(joined, tags)
            counts.update(reasoning)
        columns, info = self.dataset_kind().normalize(joined, super().stage_params())
        warm_up_matching(self, columns)
        if unscored:  # kept as rows (the stages after line up by item), left out of every figure from B5 on
            join_info["missing_predictions"] = [i for i in join_info["missing_predictions"] if str(i) not in unscored]
            counts.update(unscored=len(unscored), missing_predictions=len(join_info["missing_predictions"]))
            join_info["unscored"] = unscored
        return StageResult(with_sample_numbers(joined, columns), counts, header={"info": info}, body=join_info)

    def _unscored(self, questions: Rows) -> dict[str, str]:
        """Id → cause of this shard's items whose answer was never obtained (the server did not answer): not
        scored, rather than scored 0 as a missing prediction is."""
        tasks = self.requires()["predictions"]
        if not tasks[0].generated:
            return {}
        unscored = {item: cause for task in tasks
                    for item, cause in unscored_ids(read_artifact_json(task.artifact_path()).get("rejects", [])).items()}
        if not unscored:
            return {}
        answered = {str(qid) for task in tasks for qid in read_column(task.artifact_path(), "id").to_pylist()}
        return unscored_questions(questions, unscored, answered)


    def _join_with_neighbours(self, questions: Rows, own: int) -> tuple[Rows, dict[str, Any]]:
        """Only the answers to this shard's questions are kept (and leave Arrow, for kinds that work row by row), so
        memory stays near one shard's."""
        import pyarrow as pa
        import pyarrow.compute as pc

        columnar = not isinstance(questions, dict)
        ids_here = questions.column("id").combine_chunks() if columnar else pa.array(questions["id"], pa.string())
        question_ids = ids_here.cast(pa.string())
        nearby = pa.chunked_array([c.cast(pa.string()) for task in self.requires()["questions"]
                                   for c in read_column(task.artifact_path(), "id").chunks], type=pa.string())
        pool, unmatched, shard_predictions = [], [], 0
        for index, task in enumerate(self.requires()["predictions"]):
            table = read_table(task.artifact_path())
            ids = table.column("id").cast(pa.string())
            if index == own:
                shard_predictions = table.num_rows
                unmatched = ids.filter(pc.invert(pc.is_in(ids, value_set=nearby.combine_chunks()))).to_pylist()
            answers = table.filter(pc.is_in(ids, value_set=question_ids))
            pool.append(answers if columnar else as_columns(answers))
        return join_shard(questions, pool, unmatched, shard_predictions)


class B4Match(KindStage):
    """Each model's predictions matched against the gold; a kind that asks the [judge] as it matches asks it here,
    through a journal beside the artifact (match_judge.py)."""

    stage, artifact_name = "B4", ARTIFACT_NAMES["B4"]

    def requires(self) -> StageTask:
        return B3Normalize(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model, shard=self.shard)

    def stage_params(self) -> dict[str, Any]:
        return {**super().stage_params(), **match_judge_params(self)}

    def fingerprint_parts(self) -> dict[str, Any]:
        return {**super().fingerprint_parts(), **match_retry(self)}

    def fingerprint_after_compute(self) -> bool:
        """A judge call that failed now is recorded in this run's fingerprint, so the next run asks it again."""
        return asks_judge(self)

    def process_resources(self) -> dict[str, int]:
        return match_resources(self)

    def compute(self) -> StageResult:
        normalized = stage_rows(self.requires())
        columns, info = self.dataset_kind().match(normalized, {**self.stage_params(), **match_judge_settings(self)})
        columns = with_sample_numbers(normalized, columns)
        usage = {"judge_usage": info.pop("judge_usage")} if "judge_usage" in info else {}  # as B5J's header has it
        return StageResult(columns, {"rows": column_length(columns)}, header={"info": info, **usage})


class B5Score(KindStage):
    stage, artifact_name = "B5", ARTIFACT_NAMES["B5"]

    def requires(self) -> StageTask:
        return B4Match(outputs_dir=self.outputs_dir, spec=self.spec, model=self.model, shard=self.shard)

    def compute(self) -> StageResult:
        matched = stage_rows(self.requires())
        kind = self.dataset_kind()
        columns, metrics = kind.score(matched, self.stage_params())
        columns = with_sample_numbers(matched, columns)
        unscored = set(read_artifact_json(self.requires().requires().artifact_path()).get("unscored", {}))
        counted = rows_without(matched, unscored) if unscored else matched  # the items not scored keep their rows,
        if unscored:  # so every model's rows line up by item, but no figure counts them
            _, metrics = kind.score(counted, self.stage_params())
        body = {"metrics": metrics, **({"stats": kind.score_stats(counted)} if kind.shardable else {})}
        if "sample" in column_names(columns):
            found = self._item_samples(kind, matched, columns)
            body["samples"] = None if found is None else with_items_not_scored(found, unscored)
        return StageResult(columns, {"rows": column_length(columns)}, body=body)

    def _item_samples(self, kind: Kind, matched: Rows, scored: Rows) -> dict[str, Any] | None:
        """Per item: replies, right ones, each paired metric's mean and maj@k (voting on the kind's answers), for a
        kind whose rows are right or wrong."""
        values = kind.item_scores(scored)
        binary = next((metric for metric, test in kind.paired_metrics.items() if test == "binary"), None)
        if binary is None:
            return None
        answers = None
        if kind.vote_column is not None:
            stage, name = kind.vote_column
            source = matched if stage == "B4" else stage_rows(self.requires().requires(), (name,))
            answers = column_values(source, name)
        ids = scored["id"] if isinstance(scored, dict) else scored.column("id")
        return item_samples(ids, column_values(scored, "sample"), values[binary], values,
                            answers)
