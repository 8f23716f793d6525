"""A leaderboard's files written as an evalpipe dataset folder: questions.jsonl, predictions/<model>.jsonl (the
baseline's too), verdicts/<judge>.jsonl and a dataset.toml with kind = "instruction", the fields and [leaderboard];
all or nothing, and importing the same files again changes no file."""
from __future__ import annotations

from pathlib import Path

import tomli_w

from ..core.names import safe_name
from ..harness.dataset_folder import ImportPlan, plan_write
from ..io.dataset_config import read_toml
from .alpaca_eval_files import LeaderboardFiles, jsonl

FIELDS = {"id_field": "id", "question_field": "instruction", "prediction_field": "output"}


def plan_leaderboard_import(found: LeaderboardFiles, name: str, tool: str, baseline: str, folder: Path) -> ImportPlan:
    """The writes for one leaderboard's files into `folder`, or the problems that stop them."""
    plan = ImportPlan(problems=list(found.problems))
    if plan.problems:
        return plan
    questions = folder / "questions.jsonl"
    if questions.exists() and questions.read_bytes() != jsonl(found.questions):
        plan.problems.append(f"{questions}: holds other questions; import into another --dataset")
        return plan
    plan_write(plan, questions, jsonl(found.questions))
    for model, answers in found.answers.items():
        plan_write(plan, folder / "predictions" / f"{model}.jsonl", jsonl(answers))
    config = read_toml(folder / "dataset.toml")
    wanted = {**config, "kind": "instruction", **FIELDS}
    if found.judge is not None:
        verdicts = f"verdicts/{found.judge}.jsonl"
        plan_write(plan, folder / verdicts, jsonl(found.verdicts))
        wanted["leaderboard"] = {"name": name, "baseline": safe_name(baseline), "judge": found.judge,
                                 "verdicts": verdicts}
    wanted["provenance"] = {**config.get("provenance", {}), **{
        model: {"tool": tool, "file": source, **({"published": found.published[model]} if model in found.published
                                                  else {})} for model, source in found.sources.items()}}
    if wanted != config:
        plan_write(plan, folder / "dataset.toml", tomli_w.dumps(wanted).encode())
    return plan
