"""Any finished run as something to compare: its per-item scores and its scoring parameters, read from the
artifacts alone (B6 reports name the datasets, kinds and models; B1–B5 headers the parameters)."""
from __future__ import annotations

import os
from typing import Any

from ..chat.outage import unpublished_models, unscored_in
from ..core.errors import UsageError
from ..core.records import Columns
from ..io.artifacts import artifact_paths, read_artifact_json, read_columns, read_columns_parquet
from ..io.join import rows_without
from ..io.storage import location
from .history import (
    ITEM_COLUMNS,
    JUDGE_METRIC_PREFIX,
    agreement_item_columns,
    item_score_columns,
    judge_item_columns,
    leaderboard_item_columns,
    pairwise_item_columns,
)

SCORING_STAGES = ("B1", "B3", "B4", "B5")
NOT_SCORING = frozenset({"rows", "shard_rows"})  # how rows are split, not how they are scored
VERDICT_SETTINGS = ("models", "samples", "temperature", "seed", "max_tokens", "system_prompt", "persona")


def run_reports(folder: str | os.PathLike) -> dict[str, dict[str, Any]]:
    """dataset → its B6 report, for every dataset folder of a finished run."""
    root = location(folder)
    if not root.is_dir():
        raise UsageError(f"{folder}: no such run folder")
    reports = {}
    for dataset in sorted(p.name for p in root.iterdir() if p.is_dir()):
        document = read_artifact_json(root / dataset / "B6_report.json")
        if document is not None and "report" in document:
            reports[dataset] = document["report"]
    if not reports:
        raise UsageError(f"{folder}: no dataset report (B6_report.json) found; is it an outputs folder of a run?")
    return reports


def run_item_scores(folder: str | os.PathLike, reports: dict[str, dict[str, Any]] | None = None) -> Columns:
    """Every model's per-item values of its kind's paired metrics, as item-score columns; a nightly folder's
    item_scores.parquet when it has one, else read shard by shard from the B5 artifacts (`reports`: the folder's
    run_reports, when already read)."""
    saved = location(folder) / "item_scores.parquet"
    if saved.exists():
        return read_columns_parquet(saved)
    columns: Columns = {name: [] for name in ITEM_COLUMNS}
    for dataset, report in (reports or run_reports(folder)).items():
        for model in sorted(set(report["models"]) - unpublished_models(report)):
            for path in artifact_paths(folder, "B5", dataset, model):
                scored = rows_without(read_columns(path), unscored_in(report, model))
                for name, values in item_score_columns(dataset, report["kind"], model, scored).items():
                    columns[name].extend(values)
            judged = artifact_paths(folder, "B5J", dataset, model)[0]
            document = read_artifact_json(judged)
            if document is not None:
                for name, values in judge_item_columns(dataset, model, read_columns(judged, document)).items():
                    columns[name].extend(values)
            boarded = artifact_paths(folder, "B5L", dataset, model)[0]
            document = read_artifact_json(boarded)
            if document is not None:
                board = document["header"]["parameters"]["leaderboard"]["name"]
                for name, values in leaderboard_item_columns(dataset, model, board,
                                                             read_columns(boarded, document)).items():
                    columns[name].extend(values)
        paired = artifact_paths(folder, "B5P", dataset)[0]
        document = read_artifact_json(paired)
        if document is not None:
            for name, values in pairwise_item_columns(dataset, read_columns(paired, document)).items():
                columns[name].extend(values)
        for name, values in agreement_item_columns(dataset, report).items():
            columns[name].extend(values)
    return columns


def scoring_parameters(folder: str | os.PathLike, reports: dict[str, dict[str, Any]] | None = None,
                       ) -> dict[tuple[str, str], dict[str, Any]]:
    """(dataset, model) → the kind and the parameters each scoring stage ran with (first shard's headers)."""
    found = {}
    for dataset, report in (reports or run_reports(folder)).items():
        for model in sorted(report["models"]):
            parameters: dict[str, Any] = {"kind": report["kind"]}
            for stage in SCORING_STAGES:
                document = read_artifact_json(artifact_paths(folder, stage, dataset, model)[0])
                used = (document or {}).get("header", {}).get("parameters", {})
                parameters[stage] = {k: v for k, v in used.items() if k not in NOT_SCORING}
            judged = read_artifact_json(artifact_paths(folder, "B5J", dataset, model)[0])
            if judged is not None:
                parameters["judge"] = criterion_settings(judged["header"]["parameters"]["judge"])
            for stage, name in (("B5L", "leaderboard"), ("B5P", "pairwise")):
                document = read_artifact_json(artifact_paths(folder, stage, dataset, model if stage == "B5L" else None)[0])
                if document is not None:
                    parameters[name] = _verdict_settings(document["header"]["parameters"])
            found[(dataset, model)] = parameters
    return found


def criterion_settings(judge: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per criterion of a [judge] (as B5J's header has it) what decides its verdicts: its scale and rubric, the
    judge models, sampling and persona (not the server's address, timeouts or retries)."""
    shared = {name: judge.get(name) for name in VERDICT_SETTINGS}
    return {name: {**shared, **criterion} for name, criterion in judge["criteria"].items()}


def parameter_changes(before: dict[tuple[str, str], dict[str, Any]],
                      after: dict[tuple[str, str], dict[str, Any]]) -> dict[tuple[str, ...], str]:
    """(dataset, model) → what changed in how it is scored between two runs ("B4 partial_f1_threshold 0.5 → 0.6"),
    for pairs scored in both whose parameters differ: their numbers are not comparable. A judge criterion whose
    judge, rubric or sampling changed is keyed (dataset, model, "judge:<criterion>")."""
    changes: dict[tuple[str, ...], str] = {}
    for key in before.keys() & after.keys():
        old, new = before[key], after[key]
        for name in old.get("judge", {}).keys() & new.get("judge", {}).keys():
            was, now = old["judge"][name], new["judge"][name]
            changed = [f"judge {setting} {was.get(setting)!r} → {now.get(setting)!r}" for setting in sorted(was | now)
                       if setting != "rubrics" and was.get(setting) != now.get(setting)]
            changed += ["judge rubric changed"] if was.get("rubrics") != now.get("rubrics") else []
            if changed:
                changes[(*key, f"{JUDGE_METRIC_PREFIX}{name}")] = "; ".join(changed)
        for name in ("leaderboard", "pairwise"):
            if name in old and name in new and old[name] != new[name]:
                changes[(*key, name)] = f"{name} settings changed ({_changed(old[name], new[name])})"
        if old["kind"] != new["kind"]:
            changes[key] = f"kind {old['kind']} → {new['kind']}"
            continue
        differences = [f"{stage} {name} {old[stage].get(name)!r} → {new[stage].get(name)!r}"
                       for stage in SCORING_STAGES for name in sorted(old[stage].keys() | new[stage].keys())
                       if old[stage].get(name) != new[stage].get(name)]
        if differences:
            changes[key] = "; ".join(differences)
    return changes


def _verdict_settings(parameters: dict[str, Any]) -> dict[str, Any]:
    """What decides a leaderboard's or pairwise stage's verdicts: its rules and the judge's, not the server's address,
    timeouts or retries."""
    judge = parameters.get("judge") or {}
    return {"leaderboard": parameters.get("leaderboard"),
            "judge": {name: judge.get(name) for name in (*VERDICT_SETTINGS, "pairwise", "baseline") if name in judge}}


def _changed(was: dict[str, Any], now: dict[str, Any]) -> str:
    """The top-level settings that differ, named."""
    names = sorted({name for part in ("leaderboard", "judge") for name in ((was.get(part) or {}).keys()
                    | (now.get(part) or {}).keys()) if (was.get(part) or {}).get(name) != (now.get(part) or {}).get(name)})
    return ", ".join(names) or "settings"

