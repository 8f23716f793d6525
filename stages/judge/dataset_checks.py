"""A dataset's [judge] against the dataset it judges: a kind with an answer text, a baseline among its models, two
models for pairwise, and a reference on every item for criteria that show one."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.records import Reject
from ..io.fields import get_ground_truth_answer, get_record_id, gold_answer_texts, resolve_field
from ..io.readers import iter_records
from ..io.storage import location, read_input_bytes
from .config import JudgeConfig, read_judge_config
from .criteria import Criterion, uses_reference
from .tasks import judged_task


def read_dataset_judge(table: dict[str, Any], kind: Any, origin: str, recorded: bool = False, task: str = "",
                       folder: Path | None = None) -> JudgeConfig | None:
    """dataset.toml [judge] for a dataset of `kind`: required for open-ended kinds (unless a leaderboard's `recorded`
    verdicts score it, or its rules ask the judge), refused for kinds without an answer text; None when there is
    none. An open-ended kind's judged `task` asks its own criterion, its template read from `template_file` (in the
    dataset's `folder`)."""
    if task and kind.open_ended:
        if not table:
            raise UsageError(f"{origin}: task {task!r} is scored by a judge: add [judge] with url, model and "
                             "template_file (its script's grader template)")
        return read_judge_config(table, origin, True, leaderboard=recorded,
                                 task=task_criterion(task, table.get("template_file"), folder, origin))
    if not table:
        if kind.open_ended and not recorded:
            raise UsageError(f"{origin}: kind {kind.name!r} is scored by a judge: add [judge] (url, model, and "
                             "criteria = [\"score_1_5\"] and / or pairwise = true), or a [leaderboard] with its "
                             "recorded verdicts")
        return None
    if kind.match_asks_judge:
        return match_judge(table, kind, origin)
    if kind.document_folders:
        raise UsageError(f"{origin}: kind {kind.name!r} has no answer text for a judge to grade ([judge])")
    return read_judge_config(table, origin, kind.open_ended, leaderboard=recorded)


def match_judge(table: dict[str, Any], kind: Any, origin: str) -> JudgeConfig:
    """[judge] of a kind whose B4 asks the judge its own question (tau2's NL assertions): the endpoint and judge
    model(s) only, no criteria or pairwise comparisons."""
    asked = sorted({"criteria", "rubrics", "pairwise", "baseline", "template_file"} & set(table))
    if asked:
        raise UsageError(f"{origin}: kind {kind.name!r} asks [judge] its own question as it matches (B4); "
                         f"[judge] {', '.join(asked)} cannot be asked of its items (leave them out)")
    return read_judge_config(table, origin, kind_asks=True)


def task_criterion(name: str, template_file: Any, folder: Path | None, origin: str) -> Criterion:
    """A judged task's criterion: on its own scale (its name), asking its script's template from `template_file`."""
    task = judged_task(name)
    if not isinstance(template_file, str) or not template_file or folder is None:
        raise UsageError(f"{origin}: task {name!r} asks the judge its script's template: set [judge] template_file = "
                         f"\"…\" (a file in the dataset's folder holding {task.reference}'s template)")
    try:
        text = read_input_bytes(location(folder) / template_file).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{origin}: [judge] template_file {template_file!r} cannot be read ({exc})") from None
    return Criterion(name, name, {"en": task.template(text, f"{origin} [judge] template_file")})


JUDGE_STORE = "judge_store/verdicts.jsonl"  # under the outputs root: every run and night there shares it


def judge_store(judge: JudgeConfig | None, store_root: str) -> str | None:
    """Where the dataset's judge keeps verdicts across runs and nights ([judge] store: a path relative to the
    outputs root, or false for none)."""
    if judge is None or judge.store is False:
        return None
    return str(location(store_root) / (JUDGE_STORE if judge.store is True else judge.store))


def judge_spec(judge: JudgeConfig | None, store_root: str) -> dict[str, Any]:
    """The dataset spec's entries of [judge]: its settings, how many calls it runs at once, and its verdict store."""
    return {"judge": None if judge is None else judge.described(),
            "judge_concurrency": 1 if judge is None else judge.concurrency,
            "judge_store": judge_store(judge, store_root)}


def check_judge_fits(judge: JudgeConfig, kind: Any, models: list[str], questions: Path | None,
                     fields: dict[str, str | None], origin: str) -> None:
    """The judge's baseline is one of the dataset's models, pairwise has two to compare, and criteria that show the
    reference ({expected}) of an open-ended dataset find one on every item."""
    if judge.baseline is not None and judge.baseline not in models:
        raise UsageError(f"{origin}: [judge] baseline {judge.baseline!r} is not one of the dataset's models "
                         f"({', '.join(sorted(models)) or 'none'})")
    if judge.pairwise is not None and len(models) < 2:
        raise UsageError(f"{origin}: [judge] pairwise = true compares models, and the dataset has "
                         f"{len(models)} ({', '.join(models) or 'none'})")
    needing = [c.name for c in (*judge.criteria.values(), *([judge.pairwise] if judge.pairwise else []))
               if uses_reference(c)]
    if not needing or questions is None or not kind.open_ended:
        return
    missing, first = items_without_reference(questions, fields)
    if missing:
        raise UsageError(f"{origin}: [judge] {', '.join(needing)} compare(s) with a reference ({{expected}}), and "
                         f"{missing} item(s) have none (first: {first!r}); use a criterion without one (score_1_5, "
                         "pairwise) or give every item a reference")


def items_without_reference(path: Path, fields: dict[str, str | None]) -> tuple[int, str | None]:
    """How many readable records of the questions file have no reference answer, and the first one's id."""
    count, first = 0, None
    for item in iter_records(path):
        if isinstance(item, Reject):
            continue
        line, record, _ = item
        if not isinstance(record, dict):
            continue
        gold = resolve_field(record, fields["gold_field"], ()) if fields.get("gold_field") else \
            get_ground_truth_answer(record)
        if not gold_answer_texts(gold):
            count += 1
            first = first or get_record_id(record, line, fields.get("id_field")) or f"line {line}"
    return count, first
