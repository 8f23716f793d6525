"""lm-evaluation-harness' `--log_samples` files of every layout since the 2023 refactor, read as runs: its math tasks
as math, IFEval's as ifeval, other generate_until tasks as open QA (or multiple choice when the documents carry choices and the answer's
index), loglikelihood tasks as loglikelihood runs (acc and acc_norm recomputed from resps), rows with prompts but no reference as instructions for the judge."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.names import safe_name
from ..io.fields import gold_answer_texts, name_ignoring_case
from .imported import ImportedRun, SkippedFile, references_or_instructions, register_importer
from .lm_eval_files import SamplesFile, doc_ids, find_samples, is_sample, question_text, requests, single
from .lm_eval_ifeval import is_ifeval_run, read_ifeval_run
from .lm_eval_loglikelihood import read_loglikelihood_run, target_delimiter
from .lm_eval_math import is_math_task, raw_replies, read_math_run

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DOC_REFERENCE_FIELDS = ("correct_answers", "answers", "answer", "best_answer", "target", "targets", "gold")
DOC_CHOICE_INDEX_FIELDS = ("answer", "gold", "label")
_NO_REFERENCE = f"no reference (no target and none of the doc's {', '.join(DOC_REFERENCE_FIELDS)})"


@register_importer("lm-eval")
def read_lm_eval(paths: list[Path]) -> Iterator[ImportedRun | SkippedFile]:
    """Every samples file among `paths` as one run per filter (a task with several filters writes each document once
    per filter: each becomes a model `<model>.<filter>`)."""
    for found in find_samples(paths):
        if isinstance(found, SkippedFile):
            yield found
            continue
        output_type = _output_type(found)
        if output_type not in ("generate_until", "multiple_choice"):
            yield SkippedFile(str(found.path), f"output type {output_type!r} (evalpipe scores generate_until and "
                                               "multiple_choice tasks)", refused=True)
            continue
        groups = _by_filter(found)
        if output_type == "generate_until" and is_math_task(found.task):
            yield read_math_run(found, groups, _model_name(found), _metrics(_task_results(found), None))
            continue
        if output_type == "generate_until" and len(groups) == 1 and is_ifeval_run(next(iter(groups.values()))):
            yield read_ifeval_run(found, next(iter(groups.values())), _model_name(found),
                                  _metrics(_task_results(found), None))
            continue
        for index, (filter_name, records) in enumerate(groups.items()):
            notes = list(found.records.set_aside) if index == 0 else []
            if output_type == "multiple_choice":
                name = _model_name(found) + (f".{safe_name(filter_name)}" if len(groups) > 1 else "")
                yield read_loglikelihood_run(found, records, target_delimiter(found.results, _task_config(found)),
                                             name, _metrics(_task_results(found), filter_name if len(groups) > 1
                                                            else None), notes)
                continue
            yield _run(found, output_type, records, filter_name if len(groups) > 1 else None, notes)


def _task_config(found: SamplesFile) -> dict[str, Any]:
    configs = found.results.get("configs")
    config = configs.get(found.task) if isinstance(configs, dict) else None
    return config if isinstance(config, dict) else {}


def _output_type(found: SamplesFile) -> str:
    declared = _task_config(found).get("output_type")
    if declared:
        return str(declared)
    first = next(record for _, record in found.records.records if is_sample(record))
    return "multiple_choice" if _is_loglikelihood(first) else "generate_until"


def _by_filter(found: SamplesFile) -> dict[str, list[tuple[int, dict]]]:
    """The samples grouped by the filter that produced their response: the `filter` field, or, in layouts without
    one, the n-th appearance of a doc_id (the task's n-th filter)."""
    groups: dict[str, list[tuple[int, dict]]] = {}
    seen: dict[Any, int] = {}
    filters = _task_config(found).get("filter_list")
    names = [str(f.get("name")) for f in filters if isinstance(f, dict)] if isinstance(filters, list) else []
    for line, record in found.records.records:
        if not is_sample(record):
            found.records.set_aside.append(f"{found.path}:{line}: not a sample (no doc_id)")
            continue
        if "filter" in record:
            name = str(record["filter"])
        else:
            key = repr(record["doc_id"])
            seen[key] = seen.get(key, 0) + 1
            count = seen[key]
            name = names[count - 1] if count <= len(names) else "none" if count == 1 else f"filter{count}"
        groups.setdefault(name, []).append((line, record))
    return groups


def _run(found: SamplesFile, output_type: str, records: list[tuple[int, dict]], filter_name: str | None,
         set_aside: list[str]) -> ImportedRun:
    docs_with_choices = [_doc_choices(record) for _, record in records]
    multiple_choice = output_type == "multiple_choice" or (bool(records) and None not in docs_with_choices)
    read = _choice_row if output_type == "multiple_choice" else _answer_row
    ids = doc_ids([record for _, record in records])
    questions, predictions = [], []
    for (line, record), row_id, choices in zip(records, ids, docs_with_choices):
        try:
            question, prediction = read(record, choices if multiple_choice else None)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            set_aside.append(f"{found.path}:{line}: {type(exc).__name__}: {exc}")
            continue
        questions.append({"id": row_id, **question})
        predictions.append(_prediction(row_id, record, prediction, output_type, filter_name))
    kind, params = "multiple_choice" if multiple_choice else "qa", {}
    if kind == "qa":
        if any(answer for question in questions for answer in question["answers"]):
            params = {"blank_gold": "empty_answer"} if any(q["answers"] == [""] for q in questions) else {}
        else:
            questions = [{**question, "answers": []} for question in questions]
        kind, questions, predictions = references_or_instructions(
            str(found.path), questions, predictions, set_aside, _NO_REFERENCE)
    model = _model_name(found)
    metrics = _metrics(_task_results(found), filter_name)
    return ImportedRun(tool="lm-eval", tool_version=found.results.get("lm_eval_version"), task=found.task,
                       model=f"{model}.{safe_name(filter_name)}" if filter_name else model, file=str(found.path),
                       kind=kind, questions=questions, predictions=predictions, metrics=metrics, set_aside=set_aside,
                       params=params)


def _prediction(row_id: str, record: dict, response: str, output_type: str, filter_name: str | None) -> dict[str, Any]:
    """A row's prediction: the filtered response, or — for a generate_until task run with `repeats` and no filter of
    its own (lm-eval then scores the first) — every repeat's reply as the item's samples."""
    if output_type == "generate_until" and filter_name in (None, "none"):
        try:
            replies = raw_replies(record)
        except TypeError:
            replies = [response]
        if len(replies) > 1:
            return {"id": row_id, "samples": replies}
    return {"id": row_id, "prediction": response}


def _model_name(found: SamplesFile) -> str:
    """The model lm-eval recorded: model_name (≥ 0.4.3), else the pretrained= / model= of its model_args, else the
    samples file's folder."""
    if found.results.get("model_name"):
        return str(found.results["model_name"])
    config = found.results.get("config")
    arguments = config.get("model_args") if isinstance(config, dict) else None
    if isinstance(arguments, str):
        pairs = dict(part.split("=", 1) for part in arguments.split(",") if "=" in part)
        for key in ("pretrained", "model", "path", "engine"):
            if pairs.get(key):
                return pairs[key]
    return found.path.parent.name


def _task_results(found: SamplesFile) -> dict[str, Any]:
    results = found.results.get("results")
    task = results.get(found.task) if isinstance(results, dict) else None
    return task if isinstance(task, dict) else {}


def _is_loglikelihood(record: dict) -> bool:
    responses = record.get("filtered_resps")
    return isinstance(responses, list) and bool(responses) and all(
        isinstance(pair, list) and len(pair) == 2 for pair in map(single, responses))


def _response(record: dict) -> str:
    """The filtered response (the raw one where no filter ran), unwrapped from any nesting of single-item lists."""
    response = single(record["filtered_resps"] if "filtered_resps" in record else record["resps"])
    if isinstance(response, list):
        raise TypeError(f"the filtered response holds {len(response)} answers, expected one")
    if not isinstance(response, str):
        raise TypeError(f"the filtered response is a {type(response).__name__}, expected text")
    return response


def _answer_row(record: dict, choices: list[str] | None) -> tuple[dict[str, Any], str]:
    """A generate_until sample: (question with its golds — or its options and gold letter — , the response)."""
    if choices is not None:
        return {"question": question_text(record), "options": choices, "answer": _doc_gold_letter(record)}, \
            _response(record)
    return {"question": question_text(record), "answers": _golds(record)}, _response(record)


def _golds(record: dict) -> list[str]:
    """The target as a list of answers (lm-eval writes a list of golds as its Python repr); a blank target falls back
    to the doc's reference fields, else it is the empty answer [""] (lm-eval compares the response with it: an NER
    row with no entity)."""
    target = record.get("target")
    if isinstance(target, str) and target.startswith("[") and target.endswith("]"):
        try:
            target = ast.literal_eval(target)
        except (ValueError, SyntaxError):
            pass
    golds = gold_answer_texts(target)
    if golds:
        return golds
    doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
    for name in DOC_REFERENCE_FIELDS:
        key = name_ignoring_case(doc, name)
        if key is not None and (references := gold_answer_texts(doc[key])):
            return references
    return [""] if isinstance(target, str) else []


def _doc_choices(record: dict) -> list[str] | None:
    """The doc's options when it states them (`choices`: a list, or {text: […]}) with the answer's index
    (an integer `answer` / `gold` / `label`), else None."""
    doc = record.get("doc")
    if not isinstance(doc, dict):
        return None
    key = name_ignoring_case(doc, "choices")
    choices = doc.get(key) if key else None
    if isinstance(choices, dict):
        choices = choices.get("text")
    if not isinstance(choices, list) or not 2 <= len(choices) <= len(LETTERS) \
            or not all(isinstance(choice, (str, int, float)) for choice in choices):
        return None
    index = _doc_gold_index(doc)
    return [str(choice).strip() for choice in choices] if index is not None and 0 <= index < len(choices) else None


def _doc_gold_index(doc: dict) -> int | None:
    for name in DOC_CHOICE_INDEX_FIELDS:
        key = name_ignoring_case(doc, name)
        value = doc.get(key) if key else None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
    return None


def _doc_gold_letter(record: dict) -> str:
    return LETTERS[_doc_gold_index(record["doc"])]


def _choice_row(record: dict, choices: list[str] | None) -> tuple[dict[str, Any], str]:
    """A loglikelihood multiple-choice sample: (question with the options and the gold letter, the letter of the
    option with the highest loglikelihood); the doc's options and answer index win over lm-eval's target."""
    options = [str(single(request)[1] if len(request) > 1 else request[0]).strip() for request in requests(record)]
    scores = [float(pair[0]) for pair in map(single, record["filtered_resps"])]
    if len(scores) != len(options) or len(options) > len(LETTERS):
        raise ValueError(f"{len(scores)} loglikelihoods for {len(options)} options")
    chosen = LETTERS[max(range(len(scores)), key=scores.__getitem__)]
    if choices is not None and len(choices) == len(options):
        return {"question": question_text(record), "options": choices, "answer": _doc_gold_letter(record)}, chosen
    target = single(record["target"])
    gold = options.index(target.strip()) if isinstance(target, str) and target.strip() in options else int(target)
    if not 0 <= gold < len(options):
        raise IndexError(f"gold index {gold} outside {len(options)} options")
    question = {"question": question_text(record), "options": _option_texts(record, options),
                "answer": LETTERS[gold]}
    return question, chosen


def _option_texts(record: dict, choices: list[str]) -> list[str]:
    """The choices lm-eval scored; when those are the letters themselves (CMMLU's "A"–"D"), the texts the document
    gives for those letters."""
    if choices != list(LETTERS[:len(choices)]) or not isinstance(record.get("doc"), dict):
        return choices
    doc = record["doc"]
    keys = [name_ignoring_case(doc, letter) for letter in choices]
    if None in keys or not all(isinstance(doc[key], (str, int, float)) for key in keys):
        return choices
    return [str(doc[key]).strip() for key in keys]


def _metrics(task_results: dict[str, Any], filter_name: str | None) -> dict[str, float]:
    """lm-eval's "<metric>,<filter>" values as {metric: value} ("<metric>,<filter>" kept for filters other than
    none; only the run's own filter where the file held several); standard errors left out. NaN and Infinity kept."""
    metrics = {}
    for key, value in task_results.items():
        name, _, filter_used = key.partition(",")
        if not filter_used or name.endswith("_stderr") or isinstance(value, bool) \
                or not isinstance(value, (int, float)):
            continue
        if filter_name is not None:
            if filter_used == filter_name:
                metrics[name] = float(value)
            continue
        metrics[name if filter_used == "none" else key] = float(value)
    return metrics
