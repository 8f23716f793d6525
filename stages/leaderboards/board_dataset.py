"""A leaderboard's files written as an evalpipe dataset folder: questions.jsonl, predictions/<model>.jsonl (the
baseline's too), verdicts/<judge>.jsonl and a dataset.toml with kind = "instruction", the fields and [leaderboard];
all or nothing, and importing the same files again changes no file."""
from __future__ import annotations

from pathlib import Path

import tomli_w

from ..harness.dataset_folder import ImportPlan, plan_write
from ..io.dataset_config import read_toml
from .board_files import LeaderboardFiles, jsonl

FIELDS = {"id_field": "id", "question_field": "instruction", "prediction_field": "output"}


def plan_leaderboard_import(found: LeaderboardFiles, tool: str, folder: Path) -> ImportPlan:
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
    if found.board.get("verdicts"):
        plan_write(plan, folder / found.board["verdicts"], jsonl(found.verdicts))
    for name, data in found.files.items():
        plan_write(plan, folder / name, data)
    config = read_toml(folder / "dataset.toml")
    wanted = {**config, "kind": "instruction", **FIELDS}
    if found.board:
        wanted["leaderboard"] = dict(found.board)
    if found.judge_table:
        wanted["judge"] = {**found.judge_table, **config.get("judge", {})}  # a url given since is kept
    provenance = {**config.get("provenance", {}), **{
        model: {"tool": tool, "file": source, **({"published": found.published[model]} if model in found.published
                                                  else {})} for model, source in found.sources.items()}}
    if provenance:
        wanted["provenance"] = provenance
    if wanted != config:
        plan_write(plan, folder / "dataset.toml", tomli_w.dumps(wanted).encode())
    return plan
