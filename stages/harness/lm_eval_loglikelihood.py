"""lm-eval's loglikelihood (multiple_choice) sample files as loglikelihood runs: each doc's context, its choices as the
task wrote them (each continuation less the target delimiter lm-eval put before it), the gold index and every continuation's
(loglikelihood, greedy) from `resps`, so acc and acc_norm are recomputed; lm-eval's own per-row acc / acc_norm kept as
its verdicts, so the rows where they differ are counted."""
from __future__ import annotations

from typing import Any

from .imported import ImportedRun
from .lm_eval_files import SamplesFile, doc_ids, requests, single

ROW_METRICS = ("acc", "acc_norm", "acc_bytes")


def _flag(value: Any) -> bool:
    """A greedy flag as lm-eval writes it: a bool, or its text ("True" / "False") in older files."""
    if isinstance(value, bool):
        return value
    if value in ("True", "False"):
        return value == "True"
    raise ValueError(f"greedy flag {value!r} is not true / false")


def _gold(target: Any, choices: list[str]) -> int:
    """lm-eval's gold: digits are an index, other text names a choice."""
    target = single(target)
    if isinstance(target, str) and not target.strip().isdigit():
        if target not in choices:
            raise ValueError(f"target {target!r} is none of the choices")
        return choices.index(target)
    index = int(target)
    if not 0 <= index < len(choices):
        raise IndexError(f"gold index {index} outside {len(choices)} choices")
    return index


def target_delimiter(results: dict[str, Any], config: dict[str, Any]) -> str | None:
    """The text lm-eval put before each choice: the task config's target_delimiter, or under a chat template (the
    results' chat_template not null) "" unless its gen_prefix ends in no whitespace, as 0.4.13's construct_requests;
    None when the results file does not state the task's config."""
    if "target_delimiter" not in config:
        return None
    delimiter, prefix = str(config["target_delimiter"]), config.get("gen_prefix")
    if results.get("chat_template") is None:
        return delimiter
    return delimiter if isinstance(prefix, str) and prefix and not prefix[-1].isspace() else ""


def unstated_delimiter(records: list[tuple[int, dict]]) -> str:
    """Without the task's config: lm-eval's default " " where every continuation starts with it, else "" (each
    continuation as it is, as under a chat template)."""
    for _, record in records:
        try:
            continuations = [str(request[1]) for request in requests(record)]
        except (KeyError, IndexError, TypeError):
            continue
        if not all(continuation.startswith(" ") for continuation in continuations):
            return ""
    return " "


def loglikelihood_row(record: dict, delimiter: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(question: context, choices, gold; prediction: loglikelihoods and greedy flags) of one sample."""
    asked = requests(record)
    contexts = {str(request[0]) for request in asked}
    if len(contexts) != 1:
        raise ValueError("its requests have different contexts (a multiple-input task)")
    continuations = [str(request[1]) for request in asked]
    if not all(c.startswith(delimiter) for c in continuations):
        raise ValueError(f"a continuation does not start with the target delimiter {delimiter!r}")
    choices = [c[len(delimiter):] for c in continuations]
    answers = [single(response) for response in record["resps"]]
    if len(answers) != len(choices):
        raise ValueError(f"{len(answers)} responses for {len(choices)} choices")
    question = {"question": contexts.pop(), "choices": choices, "gold": _gold(record["target"], choices)}
    return question, {"loglikelihoods": [float(answer[0]) for answer in answers],
                      "greedy": [_flag(answer[1]) for answer in answers]}


def read_loglikelihood_run(found: SamplesFile, records: list[tuple[int, dict]], delimiter: str | None, model: str,
                           metrics: dict[str, float], set_aside: list[str]) -> ImportedRun:
    """One loglikelihood run (`delimiter` None: not stated, see unstated_delimiter): rows that cannot be read are set
    aside with file, line and reason."""
    if delimiter is None:
        delimiter = unstated_delimiter(records)
    ids = doc_ids([record for _, record in records])
    questions, predictions, verdicts = [], [], []
    for (line, record), row_id in zip(records, ids):
        try:
            question, prediction = loglikelihood_row(record, delimiter)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            set_aside.append(f"{found.path}:{line}: {type(exc).__name__}: {exc}")
            continue
        questions.append({"id": row_id, **question})
        predictions.append({"id": row_id, **prediction})
        row_verdicts = {name: record[name] for name in ROW_METRICS if record.get(name) in (0, 1)}
        if row_verdicts:
            verdicts.append({"id": row_id, "verdicts": row_verdicts})
    return ImportedRun(tool="lm-eval", tool_version=found.results.get("lm_eval_version"), task=found.task,
                       model=model, file=str(found.path), kind="loglikelihood", questions=questions,
                       predictions=predictions, metrics=metrics, set_aside=set_aside,
                       params={"target_delimiter": delimiter}, verdicts=verdicts)
