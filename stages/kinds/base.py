"""Registry of task kinds: each kind names its parameters and implements normalize → match → score → compare."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..chat.prompts import render_prompt
from ..core.distinct import shared_floats, shared_values
from ..core.param_rules import Rule
from ..core.records import Columns, LoadResult, Rows
from ..core.registry import Registry
from ..core.stats import Stats
from ..io.decoded_blocks import FieldReaders
from ..io.loading import load_predictions, load_questions
from ..io.quoted_numbers import QuotedFields
from ..text.normalize import has_cjk

if TYPE_CHECKING:
    import pyarrow as pa

SHARD_ROWS = 1_000_000  # default rows per shard of a shardable kind: datasets up to this size are one shard


class MatchJudge(Protocol):
    """The [judge] B4 hands a kind whose matching asks it (`match_asks_judge`; stages/judge/match_asker.py): its
    models and samples, a call's journal key, and calls (item, judge, sample, prompt, key, system) asked, journaled."""

    models: list[str]
    samples: int

    def key(self, prompt: str, judge: str, sample: int) -> str: ...

    def ask(self, calls: Sequence[Any]) -> tuple[dict[str, dict[str, Any]], dict[str, int]]: ...


class Recognition(IntEnum):
    """How surely a kind recognizes a dataset's sampled question records (kind detection: the surest kind wins)."""

    NO = 0
    FALLBACK = 1  # any records: the kind a dataset is when no other recognizes it (qa)
    GOLDS = 2  # the golds look like its answers (verdicts, in a dataset about claims)
    OPTIONS = 3  # most records carry options
    FIELDS = 4  # every record carries the fields only its items have (HumanEval's entry_point and test)


def every_record_has(records: list[dict], *fields: str) -> bool:
    """Whether there are records and each carries every one of `fields` (Recognition.FIELDS' usual test)."""
    return bool(records) and all(all(name in record for name in fields) for record in records)


class Kind:
    """One task kind. Subclasses are pure functions of columns and parameters; the pipeline calls them per stage."""

    name: ClassVar[str]
    defaults: ClassVar[dict[str, Any]] = {}
    task_defaults: ClassVar[dict[str, dict[str, Any]]] = {}  # dataset.toml `task` → defaults it sets over `defaults`
    stage_params: ClassVar[dict[str, tuple[str, ...]]] = {}
    param_rules: ClassVar[dict[str, Rule]] = {}  # checked when a dataset's parameters are resolved, before any run
    headline_reject_reasons: ClassVar[tuple[str, ...]] = ()  # B1 reasons that fail the run and lead the report
    question_columns: ClassVar[tuple[str, ...]] = ()  # the B1 columns question_fields adds, present even with no rows
    prediction_columns: ClassVar[tuple[str, ...]] = ()  # the B2 columns prediction_fields adds
    question_readers: ClassVar[FieldReaders] = {}  # B1 fields read from one value each, on every path (the default
    prediction_readers: ClassVar[FieldReaders] = {}  # question_fields / prediction_fields), of the kind's Arrow types
    prompt_templates: ClassVar[dict[str, str]] = {"en": "{question}", "zh": "{question}"}  # generation, by language
    conversation_column: ClassVar[str | None] = None  # questions sharing this column's value are one conversation
    columnar_stages: ClassVar[bool] = False  # normalize / match / score take and return Arrow tables
    joined_question_columns: ClassVar[tuple[str, ...] | None] = None  # the B1 columns B3 reads (None: all)
    shardable: ClassVar[bool] = False  # B1–B5 may run per row range (shard_rows); B6 adds the shards' score_stats
    document_folders: ClassVar[bool] = False  # True: ground_truth/ and predictions/<model>/ hold one file per item
    paired_metrics: ClassVar[dict[str, str]] = {}  # report metric → "binary" (McNemar) or "mean" (paired bootstrap)
    vote_column: ClassVar[tuple[str, str] | None] = None  # (stage, column): the answer maj@k votes on, when it votes
    status_column: ClassVar[str | None] = None  # a B4 column holding item_view's status, read without whole rows
    headline_metrics: ClassVar[tuple[str, ...]] = ()  # shown together on the console (qa: EM / F1); else the primary
    open_ended: ClassVar[bool] = False  # scored only by a [judge], whose built-in rubrics then need no reference
    repeated_ids_are_samples: ClassVar[bool] = False  # an id repeated in a predictions file: that item's samples
    pairs_by_prompt: ClassVar[bool] = False  # a prediction with its prompt and no id pairs by the prompt's text
    asks_completions: ClassVar[bool] = False  # [generate] asks a completions endpoint (protocol "completions")
    generate_modes: ClassVar[tuple[str, ...]] = ()  # the [generate] modes the kind asks in (the first the default)
    asks_user: ClassVar[bool] = False  # [generate] asks conversations of the model with [user]'s simulator (tau2)
    match_asks_judge: ClassVar[bool] = False  # B4 asks [judge] its own question (tau2's NL assertions): no criteria
    bound_task: str = ""  # the task with stages of its own this kind is bound to (for_params); B6's report names it

    def for_params(self, params: dict[str, Any]) -> Kind:
        """The kind as a dataset with these parameters runs it: bound to the task they name when that task runs its
        stages its own way (the pipeline hands every stage the bound kind), else the kind itself."""
        return self

    def warm_up(self, rows: Rows) -> None:
        """Start, ahead of B4, what its matching takes seconds to start (called as B1–B3 run, with the rows each
        loaded, in the process B4 will run in); by default nothing."""

    def warm_up_run(self, matching_here: Callable[[], bool]) -> None:
        """Start, as a run begins, what B4's matching takes seconds to start, where `matching_here()` says that the
        run computes this kind's B4 in this process (ask it only when there is something to start); by default
        nothing."""

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        """B1: the items to score with their ground truth (those at `rows` positions, for a shard); `params` are the
        kind's B1 parameters."""
        return load_questions(path, self, fields, rows, params)

    def load_predictions(self, path: Path, fields: dict[str, str | None], rows: range | None = None) -> LoadResult:
        """B2: one model's predictions (those at `rows` positions, for a shard)."""
        return load_predictions(path, fields, rows, self)

    @property
    def columnar_questions(self) -> bool:
        """B1 may read questions on the Arrow fast path: the kind keeps the base loading, and its fields and gold
        check are the base ones or it reads them from a whole table too (columnar_question_fields)."""
        own = type(self)
        return own.load_gold is Kind.load_gold and (
            own.columnar_question_fields is not Kind.columnar_question_fields
            or (own.question_fields is Kind.question_fields and own.check_gold is Kind.check_gold))

    @property
    def columnar_predictions(self) -> bool:
        """B2 may read predictions on the Arrow fast path: the kind reads from a prediction only fields of one value
        each (prediction_readers)."""
        return not self.pairs_by_prompt and all(getattr(type(self), name) is getattr(Kind, name)
                                                for name in ("load_predictions", "prediction_fields"))

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """How surely a dataset whose dataset.toml names no kind is this kind, from its sampled question records
        (detection.py asks every registered kind); by default not at all."""
        return Recognition.NO

    def default_question_field(self, questions: Path) -> str | None:
        """The field to read questions from when dataset.toml names none (None: the usual fields)."""
        return None

    def check_question(self, question: str | None) -> str | None:
        """Why a row's question keeps it from being scored (None: it can be); read row by row."""
        return None

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        """Extra B1 columns this kind needs from a question record: by default each of question_readers."""
        return {name: read(record.get(name)) for name, read in self.question_readers.items()}

    def question_types(self) -> dict[str, pa.DataType]:
        """The Arrow type of each of question_columns (B1 reads JSON lines into Arrow block by block when given)."""
        return {}

    def prediction_types(self) -> dict[str, pa.DataType]:
        """The Arrow type of each of prediction_columns (B2 reads JSON lines into Arrow block by block when given)."""
        return {}

    def quoted_question_fields(self) -> QuotedFields:
        """Question fields mixing numbers and text that pyarrow.json reads with their integers quoted, each reading
        on Arrow what its question_readers entry reads (io/quoted_numbers); none by default."""
        return {}

    def quoted_prediction_fields(self) -> QuotedFields:
        """The same for prediction fields and prediction_readers; none by default."""
        return {}

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        """question_fields and check_gold on a whole table of records (with its questions and gold lists): the
        kind's columns when every row reads and passes exactly as row by row, else None (the records go row by
        row)."""
        return {}

    def generation_prompt(self, question: str, options: list[str] | None, template: str | None = None) -> str:
        """The prompt that asks a model this question: the dataset's template, else this kind's default in the
        question's language (Chinese when it holds CJK text)."""
        chosen = template if template is not None else self.prompt_templates["zh" if has_cjk(question) else "en"]
        return render_prompt(chosen, question, options)

    def generation_cases(self, cases: list[dict[str, Any]], questions: Columns) -> list[dict[str, Any]]:
        """The cases [generate] asks (id, conversation, prompt), with what the kind adds to a request (`tools`); the
        B1 columns `questions` they come from."""
        return cases

    def prediction_fields(self, record: dict) -> dict[str, Any]:
        """Extra B2 columns this kind reads from a prediction record (beside the prediction text): by default each of
        prediction_readers."""
        return {name: read(record.get(name)) for name, read in self.prediction_readers.items()}

    def golds_when_blank(self, params: dict[str, Any]) -> list[str]:
        """The gold answers of a row whose gold field is there but blank (with the kind's B1 parameters): none by
        default, so check_gold sets the row aside."""
        return []

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        """Why these gold answers cannot be scored by this kind (with its B1 parameters), or None when they can."""
        return None if golds else "no gold answer"

    def gold_files(self, params: dict[str, Any]) -> list[str]:
        """Files beside the questions that B1 reads too (named relative to the dataset folder; a few-shot file)."""
        return []

    def system_prompt(self, questions: Columns) -> str | None:
        """The system prompt these questions are asked with when [generate] gives none (a benchmark's own); none by
        default."""
        return None

    def ask(self, questions: Columns, config: Any, model: str, journal: Path,
            user: Any = None) -> tuple[LoadResult, dict[str, Any]]:
        """B2 asked live of `model` ([generate]'s `config`; [user]'s simulator for a kind that asks_user): the
        predictions and the asking's summary (chat.summary), every request journaled in `journal`. By default each
        question asked of a chat server (chat_asking), a multi-turn item's turns in order."""
        from .chat_asking import ask_chat

        return ask_chat(self, questions, config, model, journal)

    def asking_files(self, generate: dict[str, Any]) -> dict[str, Path]:
        """Files besides the questions that asking live reads, by name (fingerprinted as B2's inputs); none by
        default."""
        return {}

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        raise NotImplementedError

    def score_stats(self, matched: Columns) -> Stats:
        """B5's counts and sums, additive across shards (shardable kinds)."""
        raise NotImplementedError

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        """The metrics score() reports, from score_stats (or the sum of several shards' score_stats)."""
        raise NotImplementedError

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        """Models side by side for one dataset (B6)."""
        raise NotImplementedError

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        """The dataset report as console text."""
        raise NotImplementedError

    def headline(self, metrics_by_model: dict[str, dict[str, Any]]) -> tuple[str, ...]:
        """The metrics the console's summary shows for a dataset of this kind (empty: the primary one)."""
        return self.headline_metrics

    def console_text(self, report: dict[str, Any]) -> str:
        """What the console prints after its summary table for a dataset of this kind ("": nothing)."""
        return ""

    def render_markdown(self, dataset: str, report: dict[str, Any]) -> str | None:
        """The dataset report as Markdown, for kinds that write one beside the JSON."""
        return None

    def report_files(self, dataset: str, report: dict[str, Any], rows_by_model: dict[str, Columns]) -> dict[str, bytes]:
        """Further B6 files (name → bytes) written beside the report."""
        return {}

    def keep_human_edits(self, name: str, previous: bytes, fresh: bytes) -> tuple[bytes, int, int]:
        """A B6 file regenerated over one people may have edited: (bytes to write, edited rows carried over, edited
        rows that could not be); no file of the base kind is edited by hand."""
        return fresh, 0, 0

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        """One B4 row for the report's item explorer: its status (correct / partial / wrong / unparsed / missing /
        scored) and a short account of what was read from the prediction."""
        return "scored", ""

    @property
    def item_score_columns(self) -> tuple[str, ...]:
        """The B5 columns item_scores reads (B6 reads only these of a columnar kind's rows)."""
        return tuple(self.paired_metrics)

    def item_scores(self, scored: Rows) -> dict[str, list[float | None]]:
        """Per-item values of each paired metric, aligned with scored["id"], each distinct value one object (B6 holds
        them for every item); their mean over non-null values is the model's report metric, so two nights can be
        compared item by item."""
        if not isinstance(scored, dict):
            return {metric: shared_floats(scored.column(metric)) for metric in self.paired_metrics}
        return {metric: shared_values([None if v is None else float(v) for v in scored[metric]])
                for metric in self.paired_metrics}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        """Share of predictions this kind could read (a letter, a verdict, an answer), or None when it has no such step."""
        return None

    def params_for(self, stage: str, params: dict[str, Any]) -> dict[str, Any]:
        """The subset of resolved parameters that `stage` depends on."""
        return {name: params[name] for name in self.stage_params.get(stage, ())}


def rank_models(metrics_by_model: dict[str, dict[str, Any]], metric: str) -> dict[str, Any]:
    """The comparison every kind starts from: its primary metric and the models best first (undefined last)."""
    ranking = sorted(metrics_by_model, key=lambda model: -(metrics_by_model[model][metric] or 0.0))
    return {"primary_metric": metric, "ranking": ranking}


def accuracy_scores(kind: Kind, matched: pa.Table) -> tuple[pa.Table, dict[str, Any]]:
    """B5 of a kind whose B4 rows say whether each is `correct`: accuracy 1 or 0 per item, and the kind's metrics."""
    import pyarrow as pa

    accuracy = matched.column("correct").cast(pa.float64())
    return pa.table({"id": matched.column("id"), "accuracy": accuracy}), kind.metrics_from_stats(
        kind.score_stats(matched))


KINDS: Registry[Kind] = Registry("kind", "stages.kinds", module="kind")  # stages/kinds/<name>/kind.py


def register_kind(name: str) -> Callable[[type[Kind]], type[Kind]]:
    """Class decorator: make a Kind available by name (dataset.toml `kind`)."""

    def decorate(cls: type[Kind]) -> type[Kind]:
        cls.name = name
        KINDS.register(name)(cls())
        return cls

    return decorate


def get_kind(name: str) -> Kind:
    """The registered kind called `name` (its module imported the first time)."""
    return KINDS.get(name)


def kind_names() -> list[str]:
    return KINDS.names()


def report_kind(report: dict[str, Any]) -> Kind:
    """The kind a B6 report was made by: bound to the task it names (`task`: one with stages of its own)."""
    kind = get_kind(report["kind"])
    return kind.for_params({"task": report["task"]}) if "task" in report else kind
