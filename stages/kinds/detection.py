"""Kind detection for datasets whose dataset.toml names no kind."""
from __future__ import annotations

import re
from pathlib import Path

from ..core.records import Reject
from ..io.fields import QUESTION_FIELDS, get_ground_truth_answer, gold_answer_texts, resolve_field
from ..text.verdict import UNPARSED, normalize_verdict
from .function_calling.json_lines import read_records
from .multiple_choice.options import find_options

_FACT_NAMES = re.compile(r"fever|hover|fact|claim|verif", re.IGNORECASE)
SAMPLE_ROWS = 50


def _has_options(record: dict) -> bool:
    try:
        return bool(find_options(record, resolve_field(record, None, QUESTION_FIELDS + ("Question",))))
    except (TypeError, ValueError):
        return False


def detect_kind(dataset_name: str, questions_path: Path | None) -> str:
    """'annotation' for a dataset of document folders (no questions file); 'code' when the sampled questions carry
    HumanEval's `entry_point` and `test`; 'ifeval' when they carry `instruction_id_list` and `kwargs`;
    'tau2' when they are tau2's tasks (`user_scenario`, `evaluation_criteria`); 'function_calling' when they carry
    BFCL's `question` and `function` (or multi-turn `involved_classes`; its `.json` files hold JSON lines); 'multiple_choice' when most have options; 'fact_verification' when the golds are verdicts
    and the dataset is about claims (seed 002); else 'qa'."""
    if questions_path is None:
        return "annotation"
    records = []
    for item in read_records(questions_path):
        if not isinstance(item, Reject) and isinstance(item[1], dict):
            records.append(item[1])
        if len(records) >= SAMPLE_ROWS:
            break
    if records and all("entry_point" in record and "test" in record for record in records):
        return "code"
    if records and all("instruction_id_list" in record and "kwargs" in record for record in records):
        return "ifeval"
    if records and all("user_scenario" in record and "evaluation_criteria" in record for record in records):
        return "tau2"
    if records and all("question" in record and ("function" in record or "involved_classes" in record)
                       for record in records):
        return "function_calling"
    if records and sum(_has_options(record) for record in records) * 2 > len(records):
        return "multiple_choice"
    golds = [gold_answer_texts(get_ground_truth_answer(record)) for record in records]
    all_verdicts = bool(golds) and all(g and normalize_verdict(g[0]) != UNPARSED for g in golds)
    about_claims = _FACT_NAMES.search(dataset_name) is not None or any("claim" in r for r in records)
    return "fact_verification" if all_verdicts and about_claims else "qa"

