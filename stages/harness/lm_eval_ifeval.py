"""lm-eval's ifeval and leaderboard_ifeval samples read as `ifeval` datasets: the documents (IFEval's key, prompt,
instruction_id_list and kwargs) as questions, the model's raw reply (every repeat's as samples) as its prediction,
lm-eval's four figures beside evalpipe's."""
from __future__ import annotations

from typing import Any

from .imported import ImportedRun, replies_prediction
from .lm_eval_files import SamplesFile, doc_ids
from .lm_eval_math import raw_replies

IFEVAL_FIELDS = ("prompt", "instruction_id_list", "kwargs")


def is_ifeval_run(records: list[tuple[int, dict]]) -> bool:
    """Whether every document is an IFEval prompt (its instruction ids and kwargs), whatever the task is named."""
    return bool(records) and all(isinstance(record.get("doc"), dict) and all(name in record["doc"]
                                                                              for name in IFEVAL_FIELDS)
                                 for _, record in records)


def read_ifeval_run(found: SamplesFile, records: list[tuple[int, dict]], model: str,
                    metrics: dict[str, float]) -> ImportedRun:
    """One run of an IFEval task: a question per document (IFEval's `key` as its id when it has one), its raw
    reply or replies; documents without a reply set aside with their line."""
    set_aside = list(found.records.set_aside)
    ids = doc_ids([record for _, record in records])
    questions, predictions = [], []
    for (line, record), row_id in zip(records, ids):
        doc = record["doc"]
        key = doc.get("key")
        row_id = str(key) if isinstance(key, (int, str)) and not isinstance(key, bool) else row_id
        try:
            replies = raw_replies(record)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            set_aside.append(f"{found.path}:{line}: {type(exc).__name__}: {exc}")
            continue
        questions.append({"id": row_id, **{name: doc[name] for name in IFEVAL_FIELDS}})
        predictions.append(replies_prediction(row_id, replies))
    return ImportedRun(tool="lm-eval", tool_version=found.results.get("lm_eval_version"), task=found.task,
                       model=model, file=str(found.path), kind="ifeval", questions=questions,
                       predictions=predictions, metrics=_figures(metrics), set_aside=set_aside)


def _figures(metrics: dict[str, Any]) -> dict[str, float]:
    """lm-eval's four IFEval figures under evalpipe's names (its own names kept for anything else)."""
    names = {"prompt_level_strict_acc": "prompt_level_strict", "inst_level_strict_acc": "instruction_level_strict",
             "prompt_level_loose_acc": "prompt_level_loose", "inst_level_loose_acc": "instruction_level_loose"}
    return {names.get(name, name): value for name, value in metrics.items()}
