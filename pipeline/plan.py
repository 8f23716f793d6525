"""Discover datasets and models under inputs/ and resolve each dataset's kind, fields and parameters."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import luigi.configuration

from stages import (
    SUPPORTED_SUFFIXES,
    RegressionSettings,
    UsageError,
    get_kind,
    read_dataset_config,
)
from stages.core.names import check_name, name_problem
from stages.core.printable import printable
from stages.io.fields import LINE_ID
from stages.io.pairing import pairs_by_position
from stages.io.shards import count_records, shard_count
from stages.io.storage import is_local, location, require_regular_file, storage_problem
from stages.judge.dataset_checks import check_judge_fits, judge_spec, read_dataset_judge
from stages.kinds.dataset_generate import generate_spec, read_dataset_generate, read_dataset_user
from stages.kinds.dataset_kind import dataset_kind, kind_params, kind_spec
from stages.leaderboards.config import leaderboard_spec, read_dataset_leaderboard
from stages.nightly.regression import dataset_regression_settings, whole_night_settings
from stages.text.reasoning import read_reasoning_tags

if TYPE_CHECKING:
    from upath import UPath


_POSITION_WARNED: set[str] = set()  # datasets already told that their rows pair by position


@dataclass(frozen=True)
class Selection:
    """Which datasets / models a command is about (no datasets, None: all)."""

    datasets: tuple[str, ...] = ()
    model: str | None = None


@dataclass(frozen=True)
class Discovery:
    """The datasets found under inputs/: the specs of those to run, and why each other one's inputs cannot be read
    (each is a PROBLEM of its own; the others run)."""

    specs: list[dict[str, Any]]
    unreadable: dict[str, str]


class DatasetProblem(Exception):
    """Something in one dataset's folder that keeps that dataset (only) from running."""


def find_questions_file(folder: UPath) -> UPath | None:
    found = [folder / f"questions{suffix}" for suffix in SUPPORTED_SUFFIXES if (folder / f"questions{suffix}").exists()]
    if len(found) > 1:
        raise UsageError(f"{folder}: several questions files ({', '.join(p.name for p in found)}); keep one")
    if found:
        require_regular_file(found[0])
    return found[0] if found else None


def find_prediction_files(folder: UPath, folders: bool = False, notes: bool = True) -> dict[str, str]:
    """Model name → its prediction file under predictions/ (or, for document kinds, its folder of documents), named
    relative to the inputs root; what is not read is said on stderr, a file whose name is no model name is a
    DatasetProblem."""
    models: dict[str, str] = {}
    predictions = folder / "predictions"
    if not predictions.is_dir():
        return models
    wanted = "a folder of documents" if folders else f"a {'/'.join(SUPPORTED_SUFFIXES)} file"
    for path in sorted(predictions.iterdir()):
        readable = path.is_dir() if folders else path.is_file() and path.suffix.lower() in SUPPORTED_SUFFIXES
        model = path.name if folders else path.stem
        if path.name.startswith(".") or not readable:
            if notes:
                note_skipped(path, "hidden (name starts with '.')" if path.name.startswith(".") else f"not {wanted}")
        elif name_problem(model) is not None:
            raise DatasetProblem(f"{path}: model name {model!r} {name_problem(model)}; rename it")
        elif model in models:
            raise UsageError(f"{predictions}: model {model!r} has several prediction files; keep one")
        else:
            models[model] = f"{folder.name}/predictions/{path.name}"
    return models


def note_skipped(path: UPath, reason: str) -> None:
    """Tell the user about an inputs entry that is not evaluated, and why."""
    print(printable(f"evalpipe: skipped {path}: {reason}"), file=sys.stderr)


def check_rater_names(folder: UPath) -> None:
    """Every labels/<rater>.csv names its rater by the name rule."""
    labels = folder / "labels"
    for path in sorted(labels.iterdir()) if labels.is_dir() else []:
        if path.suffix.lower() == ".csv" and name_problem(path.stem) is not None:
            raise DatasetProblem(f"{path}: rater name {path.stem!r} {name_problem(path.stem)}; rename it")


def check_luigi_cfg_kinds() -> None:
    """Every [kind.<name>] section of luigi.cfg names a known kind."""
    config = luigi.configuration.get_config()
    for section in config.sections():
        if section.startswith("kind."):
            try:
                get_kind(section[len("kind."):])  # imports that kind's module alone, not every kind's
            except UsageError as unknown:
                raise UsageError(f"luigi.cfg [{section}]: {unknown}") from None


def count_shards(inputs: UPath, questions: str | None, predictions: dict[str, str], shard_rows: int | None) -> int:
    """How many shards of `shard_rows` records the dataset's largest file needs (1 for kinds without shards; files
    too small to need a second shard are not read)."""
    if not shard_rows or questions is None:
        return 1
    files = [questions, *(name for name in predictions.values() if name)]
    return shard_count(max(count_records(inputs / name, at_least=shard_rows) for name in files), shard_rows)


_CAPPED_HERE: set[str] = set()  # endpoint resources no luigi.cfg caps: the largest configured concurrency is the cap


def check_endpoint_resource(protocol: str, concurrency: int, origin: UPath, section: str) -> None:
    """A generating or judging task holds `concurrency` units of endpoint.<protocol>; Luigi counts an unset resource
    as 1, so with no luigi.cfg [resources] for the endpoint its cap becomes the largest configured concurrency, and a
    luigi.cfg that caps it must allow it (or the task would never be scheduled)."""
    config = luigi.configuration.get_config()
    name = f"endpoint.{protocol}"
    if name in _CAPPED_HERE or not (config.has_section("resources") and config.has_option("resources", name)):
        if not config.has_section("resources"):
            config.add_section("resources")
        _CAPPED_HERE.add(name)
        config.set("resources", name, str(max(concurrency, config.getint("resources", name, 1))))
        return
    available = config.getint("resources", name, 1)
    if concurrency > available:
        raise UsageError(f"{origin}: [{section}] concurrency = {concurrency} needs luigi.cfg [resources] {name} ≥ "
                         f"{concurrency} (now {available}; luigid's config too when running on luigid)")


def check_server_use(section: str, doing: str, protocol: str, concurrency: int, shards: int, outputs: str,
                     origin: UPath) -> None:
    """[generate] and [judge] ask a chat server and journal every reply: unsharded, into a local outputs folder, and
    within the endpoint's resource."""
    if shards > 1:
        raise UsageError(f"{origin}: {doing} ([{section}]) runs unsharded; raise [params] shard_rows above the number "
                         "of questions")
    if not is_local(location(outputs)):
        raise UsageError(f"{origin}: {doing} ([{section}]) journals its replies in a local outputs folder; {outputs} "
                         "is not local")
    check_endpoint_resource(protocol, concurrency, origin, section)


def regression_settings(folder: UPath | None = None, nightly: dict[str, Any] | None = None) -> RegressionSettings:
    """Defaults, overridden by luigi.cfg [nightly], then by the dataset's dataset.toml [nightly] (when given)."""
    origin = str(folder / "dataset.toml") if folder is not None else "dataset.toml"
    return dataset_regression_settings(luigi_cfg_section("nightly"), nightly, origin)


def night_settings(**given: str | None) -> dict[str, str]:
    """correction and baseline for a whole night or comparison: luigi.cfg [nightly], overridden by the command line
    (values that are not None); checked."""
    return whole_night_settings(luigi_cfg_section("nightly"), given)


def luigi_cfg_section(section: str) -> dict[str, str]:
    """One section of luigi.cfg, as raw strings (empty when absent)."""
    config = luigi.configuration.get_config()
    if not config.has_section(section):
        return {}
    return {key: config.get(section, key) for key in config.options(section) if key not in config.defaults()}


def dataset_spec(folder: UPath, outputs: str, store_root: str | None = None, notes: bool = True
                 ) -> dict[str, Any] | None:
    """Everything the tasks need to know about one dataset folder, or None when it has nothing to score: each section
    of its dataset.toml read by the part that owns it (the kind, [generate], [leaderboard], [judge], [reasoning],
    [nightly]), in the order their problems are said; `notes`: tell the user what was read how (rows by position)."""
    questions, documents = find_questions_file(folder), folder / "ground_truth"
    if questions is None and not documents.is_dir():
        return None
    if questions is not None and documents.is_dir():
        raise UsageError(f"{folder}: has both {questions.name} and ground_truth/; keep one")
    origin = folder / "dataset.toml"
    config = read_dataset_config(origin)
    kind = dataset_kind(folder, config, questions)
    params = kind_params(kind, config, folder, luigi_cfg_section(f"kind.{kind.name}"))
    predictions = find_prediction_files(folder, folders=kind.document_folders, notes=notes)
    check_rater_names(folder)
    generate = read_dataset_generate(config.generate, kind, folder)
    user = read_dataset_user(config.user, generate, kind, folder)
    if generate is not None:
        predictions.update({model: "" for model in generate.models if model not in predictions})
    shards = count_shards(folder.parent, f"{folder.name}/{questions.name}" if questions else None, predictions,
                          params.get("shard_rows"))
    if generate is not None:
        check_server_use("generate", "live generation", generate.protocol, generate.concurrency, shards, outputs,
                         origin)
    leaderboard = read_dataset_leaderboard(config.leaderboard, kind, folder, list(predictions))
    judge = read_dataset_judge(config.judge, kind, str(origin), recorded=leaderboard is not None,
                               task=params.get("task") or "", folder=folder)
    if judge is not None:
        check_server_use("judge", "the judge", judge.protocol, judge.concurrency, shards, outputs, origin)
    fields = config.fields()
    if questions is not None:
        fields["question_field"] = fields["question_field"] or kind.default_question_field(questions)
    if judge is not None:
        check_judge_fits(judge, kind, list(predictions), questions, fields, str(origin))
    if questions is not None and generate is None and not fields["id_field"] and pairs_by_line(folder, questions,
                                                                                               predictions, notes):
        fields["id_field"] = LINE_ID
    return {"name": folder.name, "inputs": str(folder.parent),
            "questions": f"{folder.name}/{(questions or documents).name}", "predictions": predictions,
            **generate_spec(generate, user), **judge_spec(judge, store_root or outputs),
            "leaderboard": leaderboard_spec(leaderboard, folder.name), **kind_spec(kind, config, fields, params),
            "max_rejected_share": config.max_rejected_share, "min_paired_share": config.min_paired_share,
            "max_unscored_share": config.max_unscored_share,
            "provenance": config.provenance,
            "reasoning": read_reasoning_tags(config.reasoning, str(origin)).described(),
            "shards": shards, "shard_rows": params.get("shard_rows"),
            "nightly": regression_settings(folder, config.nightly).described()}


def pairs_by_line(folder: UPath, questions: UPath, predictions: dict[str, str], notes: bool = True) -> bool:
    """Neither the questions nor the predictions have ids: their rows pair by position (said once per dataset)."""
    if not pairs_by_position(questions, [folder.parent / path for path in predictions.values()]):
        return False
    if notes and str(folder) not in _POSITION_WARNED:  # discovery may read a dataset twice in one command
        _POSITION_WARNED.add(str(folder))
        print(f"evalpipe: {folder.name}: neither {questions.name} nor the predictions have ids; rows pair by "
              "position (set id_field in dataset.toml to pair by a field)", file=sys.stderr)
    return True


def discover(inputs_root: str, selection: Selection, outputs: str = "outputs",
             store_root: str | None = None, notes: bool = True) -> Discovery:
    """Dataset specs under `inputs_root` (a folder or a URL), filtered by the selection, and the datasets whose inputs
    cannot be read (each one's own problem: the others run); a selection that matches nothing is a UsageError.
    `store_root`: the outputs root the judge's verdict store lives under (default: `outputs`); `notes`: say which
    folders are skipped and which datasets pair rows by position (not when only summarizing datasets not run)."""
    inputs = location(inputs_root)
    for where in (inputs, location(outputs)):
        problem = storage_problem(where)
        if problem is not None:
            raise UsageError(problem)
    if not inputs.is_dir():
        raise UsageError(f"inputs folder {inputs} does not exist")
    check_luigi_cfg_kinds()
    for name in selection.datasets:
        check_name(name, "--dataset")
    if selection.model is not None:
        check_name(selection.model, "--model")
    specs, unreadable = [], {}
    for folder in sorted(p for p in inputs.iterdir() if p.is_dir()):
        if selection.datasets and folder.name not in selection.datasets:
            continue
        if folder.name.startswith((".", "_")):
            if notes:
                note_skipped(folder, "hidden (name starts with '.' or '_')")
            continue
        try:
            spec = readable_dataset_spec(folder, outputs, store_root, notes)
        except DatasetProblem as exc:
            unreadable[folder.name] = str(exc)
            continue
        if spec is not None and spec["predictions"]:
            specs.append(spec)
        elif notes:
            note_skipped(folder, "no predictions/ to read and no [generate] in dataset.toml" if spec else
                         f"no questions file ({', '.join('questions' + s for s in SUPPORTED_SUFFIXES)}) and no "
                         "ground_truth/ folder")
    missing = [name for name in selection.datasets if name not in {spec["name"] for spec in specs} | set(unreadable)]
    if missing:
        raise UsageError(f"no dataset {', '.join(map(repr, missing))} with questions and predictions under {inputs}")
    if not specs and not unreadable:
        raise UsageError(f"no dataset with questions and predictions under {inputs}")
    if selection.model and specs and not any(selection.model in s["predictions"] for s in specs):
        raise UsageError(f"no predictions for model {selection.model!r} in the selected datasets")
    return Discovery(specs, unreadable)


def readable_dataset_spec(folder: UPath, outputs: str, store_root: str | None = None, notes: bool = True
                          ) -> dict[str, Any] | None:
    """dataset_spec, with anything that keeps this folder from being run — a name that is no name, a folder, FIFO or
    device where a file belongs, a permission, a JSON text too deep, a bad value in its dataset.toml — raised as this
    dataset's DatasetProblem naming the folder or file, so that every other dataset runs."""
    problem = name_problem(folder.name)
    if problem is not None:
        raise DatasetProblem(f"the dataset name {folder.name!r} {problem}; rename the folder")
    try:
        return dataset_spec(folder, outputs, store_root, notes)
    except DatasetProblem:
        raise
    except UsageError as exc:
        said = str(exc)
        if said.startswith("luigi.cfg"):  # evalpipe's own configuration: nothing runs
            raise
        where = folder / "dataset.toml"  # the dataset's configuration: it fails, the night goes on
        raise DatasetProblem(said if str(folder) in said else f"{where}: {said}") from None
    except Exception as exc:  # noqa: BLE001  (an unreadable input of one dataset never stops the others)
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror and exc.filename else str(exc)
        where = f"{exc.filename}: " if isinstance(exc, OSError) and exc.filename else ""
        raise DatasetProblem(f"its inputs cannot be read: {where}{detail or type(exc).__name__}") from None
