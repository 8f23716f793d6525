"""lm-eval's math tasks (minerva_math, hendrycks_math, leaderboard_math_*_hard, gsm8k, gsm8k_cot, aime …) read as
`math` datasets: the model's whole reply (lm-eval's raw response, before its filters; every repeat's as samples)
against the final answer of the target, and the harness's own verdict on every row kept beside, per metric and
filter."""
from __future__ import annotations

import re
from typing import Any

from ..io.fields import name_ignoring_case
from ..kinds.math.final_answer import last_boxed
from .imported import ImportedRun, replies_prediction
from .lm_eval_files import SamplesFile, doc_ids, question_text, single

MATH_TASKS = re.compile(r"^(?:minerva_math|hendrycks_math|leaderboard_math|gsm8k|aime|amc|math_?500)", re.IGNORECASE)
DOC_GOLD_FIELDS = ("answer", "expected_answer")
DOC_SUBJECT_FIELDS = ("subject", "type")  # MATH-500 says subject, MATH and MATH-lighteval say type


def is_math_task(task: str) -> bool:
    """Whether lm-eval's task is one of its math answer tasks (by the name lm-eval gives it)."""
    return bool(MATH_TASKS.match(task))


def read_math_run(found: SamplesFile, groups: dict[str, list[tuple[int, dict]]], model: str,
                  metrics: dict[str, float]) -> ImportedRun:
    """One run of a math task: a row per document whatever the filters (each filter's verdict kept as
    `<metric>,<filter>`); documents without a reply or a gold set aside with their line."""
    set_aside = list(found.records.set_aside)
    entries: dict[str, dict[str, Any]] = {}
    for filter_name, records in groups.items():
        suffix = "" if filter_name == "none" else f",{filter_name}"
        for line, record in records:
            entry = entries.setdefault(repr(record["doc_id"]), {"line": line, "record": record, "verdicts": {},
                                                                "answers": {}})
            for name in _row_metric_names(record, found):
                value = record.get(name)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    entry["verdicts"][f"{name}{suffix}"] = float(value)
            if suffix:
                entry["answers"][filter_name] = _text(record.get("filtered_resps"))
    ids = doc_ids([entry["record"] for entry in entries.values()])
    questions, predictions, verdicts = [], [], []
    for entry, row_id in zip(entries.values(), ids):
        record = entry["record"]
        try:
            question = {"id": row_id, "question": question_text(record), "answer": math_gold(record),
                        **_groups(record)}
            replies = raw_replies(record)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            set_aside.append(f"{found.path}:{entry['line']}: {type(exc).__name__}: {exc}")
            continue
        questions.append(question)
        predictions.append(replies_prediction(row_id, replies))
        verdicts.append({"id": row_id, "verdicts": entry["verdicts"],
                         **({"answers": entry["answers"]} if entry["answers"] else {})})
    return ImportedRun(tool="lm-eval", tool_version=found.results.get("lm_eval_version"), task=found.task,
                       model=model, file=str(found.path), kind="math", questions=questions, predictions=predictions,
                       metrics=metrics, set_aside=set_aside, verdicts=verdicts)


def math_gold(record: dict) -> str:
    """The gold's final answer: what follows GSM8K's last `####`, else the target's last `\\boxed{}`, else the target;
    a blank target falls back to the doc's answer / expected_answer."""
    target = _text(record.get("target"))
    if not target.strip():
        doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
        keys = [key for key in (name_ignoring_case(doc, name) for name in DOC_GOLD_FIELDS) if key is not None]
        target = next((str(doc[key]) for key in keys if str(doc[key]).strip()), "")
    if "####" in target:
        target = target.rsplit("####", 1)[1]
    gold = (last_boxed(target) if "\\boxed" in target or "\\fbox" in target else None) or target
    if not gold.strip():
        raise ValueError("no gold answer (a blank target and no answer in the doc)")
    return gold.strip()


def raw_replies(record: dict) -> list[str]:
    """The model's whole replies, before any filter: one, or one per repeat (lm-eval's `repeats`)."""
    replies = record.get("resps")
    while isinstance(replies, list) and len(replies) == 1 and isinstance(replies[0], list):
        replies = replies[0]
    if not isinstance(replies, list) or not replies:
        raise TypeError(f"the replies are a {type(replies).__name__}, expected a list of texts")
    for reply in replies:
        if not isinstance(reply, str):
            raise TypeError(f"a reply is a {type(reply).__name__}, expected text")
    return replies


def _text(value: Any) -> str:
    """A target or filtered response as text (unwrapped from one-item lists; none is empty)."""
    value = single(value)
    return value if isinstance(value, str) else "" if value is None else str(value)


def _groups(record: dict) -> dict[str, Any]:
    """The doc's subject (or MATH's type) and level, when it states them."""
    doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
    found = {}
    for column, names in (("subject", DOC_SUBJECT_FIELDS), ("level", ("level",))):
        keys = [key for key in (name_ignoring_case(doc, name) for name in names) if key is not None]
        if keys and isinstance(doc[keys[0]], (str, int, float)) and not isinstance(doc[keys[0]], bool):
            found[column] = doc[keys[0]]
    return found


def _row_metric_names(record: dict, found: SamplesFile) -> list[str]:
    """The metrics lm-eval computed for a row: its `metrics` list (≥ 0.4.5), else the task's metric_list."""
    named = record.get("metrics")
    if isinstance(named, list):
        return [str(name) for name in named]
    configs = found.results.get("configs")
    config = configs.get(found.task) if isinstance(configs, dict) else None
    listed = config.get("metric_list") if isinstance(config, dict) else None
    if isinstance(listed, list):
        return [str(item["metric"]) for item in listed if isinstance(item, dict) and "metric" in item]
    return [name for name in record if name in ("exact_match", "math_verify", "exact_match_original", "acc")]
