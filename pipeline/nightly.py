"""`evalpipe nightly`: run the suite into nightly/<date>/, grow the history, flag regressions against the last night."""
from __future__ import annotations

import argparse
import sys
from datetime import date as Date
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from stages import (
    ITEM_COLUMNS,
    Columns,
    RegressionSettings,
    UsageError,
    compare_nights,
    history_rows,
    item_score_columns,
    judge_item_columns,
    leaderboard_item_columns,
    pairwise_item_columns,
    parse_night,
    previous_night,
    primary_trends,
    render_html_page,
    write_report_page,
)
from stages.chat.outage import unpublished_models, unscored_in
from stages.io.artifacts import (
    read_artifact_json,
    read_columns,
    read_rows_parquet,
    write_columns_parquet_atomic,
    write_json_atomic,
    write_rows_parquet_atomic,
)
from stages.io.join import rows_without
from stages.io.storage import location
from stages.nightly.history import agreement_item_columns
from stages.nightly.runs import parameter_changes, run_item_scores, run_reports, scoring_parameters

from .commands import held_outputs
from .exit_codes import EXIT_FAILED, EXIT_OK, EXIT_REGRESSION
from .fingerprint import code_version
from .judge_task import B5Judge, B5Pairwise
from .leaderboard_task import B5Leaderboard
from .plan import Discovery, Selection, discover, night_settings
from .report_tasks import B6Report
from .runner import build, input_facts_kept, print_reports, read_reports, report_problems
from .tasks import B5Score

if TYPE_CHECKING:
    from upath import UPath

HISTORY_SCHEMA = pa.schema([
    ("date", pa.string()), ("dataset", pa.string()), ("kind", pa.string()), ("model", pa.string()),
    ("metric", pa.string()), ("value", pa.float64()), ("primary", pa.bool_()), ("code_version", pa.string()),
])
ITEM_SCHEMA = pa.schema([(name, pa.float64() if name == "value" else pa.string()) for name in ITEM_COLUMNS])


def night_item_scores(night_dir: UPath, specs: list[dict[str, Any]]) -> Columns:
    """Every model's per-item values of its kind's paired metrics, read shard by shard from the night's B5
    artifacts (a model not published has none), of its judge criteria (judge:<criterion>) from B5J, of its leaderboard figure from B5L and of its
    pairwise outcomes (pairwise:<other model>) from B5P."""
    columns: Columns = {name: [] for name in ITEM_COLUMNS}
    for spec in specs:
        report = read_artifact_json(B6Report(outputs_dir=str(night_dir), spec=spec).artifact_path())["report"]
        unpublished = unpublished_models(report)
        for model in sorted(set(spec["predictions"]) - unpublished):
            for shard in range(spec["shards"]):
                path = B5Score(outputs_dir=str(night_dir), spec=spec, model=model, shard=shard).artifact_path()
                scored = rows_without(read_columns(path), unscored_in(report, model))
                for name, values in item_score_columns(spec["name"], spec["kind"], model, scored).items():
                    columns[name].extend(values)
            if spec.get("judge") and spec["judge"]["criteria"]:
                judged = B5Judge(outputs_dir=str(night_dir), spec=spec, model=model).artifact_path()
                for name, values in judge_item_columns(spec["name"], model, read_columns(judged)).items():
                    columns[name].extend(values)
            board = spec.get("leaderboard")
            if board and model != board.get("baseline"):
                path = B5Leaderboard(outputs_dir=str(night_dir), spec=spec, model=model).artifact_path()
                for name, values in leaderboard_item_columns(spec["name"], model, board["name"],
                                                             read_columns(path)).items():
                    columns[name].extend(values)
        if spec.get("judge") and spec["judge"].get("pairwise") and not unpublished:
            path = B5Pairwise(outputs_dir=str(night_dir), spec=spec).artifact_path()
            for name, values in pairwise_item_columns(spec["name"], read_columns(path)).items():
                columns[name].extend(values)
        if spec.get("judge"):
            for name, values in agreement_item_columns(spec["name"], report).items():
                columns[name].extend(values)
    return columns


def record_night(root: UPath, night: str, reports: list[dict[str, Any]], items: Columns) -> list[dict[str, Any]]:
    """Write the night's item scores and replace its rows in history.parquet (a rerun of a night is not a new
    night); the whole history comes back."""
    write_columns_parquet_atomic(root / night / "item_scores.parquet", items, ITEM_SCHEMA)
    history = [row for row in read_rows_parquet(root / "history.parquet") if row["date"] != night]
    history.extend(history_rows(night, reports, code_version()))
    history.sort(key=lambda row: (row["date"], row["dataset"], row["model"], row["metric"]))
    write_rows_parquet_atomic(root / "history.parquet", history, HISTORY_SCHEMA)
    return history


def print_comparisons(comparisons: list[dict[str, Any]], label: str, against: str, command: str = "nightly",
                      noun: str | None = None) -> None:
    """One `LABEL dataset / model / metric: …` line per flagged drop, then a count line."""
    flagged = [c for c in comparisons if c["regression"]]
    for c in flagged:
        correction = c.get("correction", "none")
        adjusted = "" if correction == "none" else f", {correction}-adjusted {c['p_adjusted']:.3g}"
        print(f"{label} {c['dataset']} / {c['model']} / {c['metric']}: {c['before']:.4f} → {c['after']:.4f} "
              f"({c['delta']:+.4f}, p={c['p_value']:.3g}{adjusted}, {c['method']}, {c['paired_items']} items)")
    dropped = sum(1 for c in comparisons if c["delta"] is not None and c["delta"] < 0 and not c["regression"])
    apart = sum(1 for c in comparisons if c.get("comparable") is False)
    print(f"{command}: {len(flagged)} {noun or label.lower()}(s) against {against}; {dropped} other drop(s) too small "
          f"or not significant; {apart} not comparable (scoring parameters, judge or rubric changed); {len(comparisons)} comparison(s)")


def compare_runs(before: UPath, after_items: Columns, after_parameters: dict[tuple[str, str], dict[str, Any]],
                 settings: dict[str, RegressionSettings], correction: str,
                 before_items: Columns | None = None) -> list[dict[str, Any]]:
    """Every dataset × model × metric of a run (its item scores and scoring parameters) against the run in `before`
    (its item scores, when already read), item by item, corrected together; pairs whose scoring parameters changed
    are listed as not comparable."""
    reports = run_reports(before)
    changed = parameter_changes(scoring_parameters(before, reports), after_parameters)
    earlier = run_item_scores(before, reports) if before_items is None else before_items
    return compare_nights(earlier, after_items, settings, correction, changed)


def cmd_nightly(args: argparse.Namespace) -> int:
    night = parse_night(args.date) if args.date else Date.today().isoformat()
    outputs = location(args.outputs)
    night_wide = night_settings(correction=args.correction, baseline=args.baseline)
    baseline = night_wide["baseline"] or None
    if baseline is not None:
        if baseline >= night:
            raise UsageError(f"baseline {baseline} must be a night before {night}")
        if not (outputs / "nightly" / baseline / "item_scores.parquet").exists():
            raise UsageError(f"baseline {baseline}: no such night in {outputs / 'nightly'}")
    with input_facts_kept(outputs):
        found = discover(args.inputs, Selection(), str(outputs / "nightly"), str(outputs))
        if not found.specs:
            report_problems([], found.unreadable)
            return EXIT_FAILED
        with held_outputs(outputs, args):
            return _run_night(night, found, outputs / "nightly", args, night_wide["correction"], baseline)


def _run_night(night: str, found: Discovery, root: UPath, args: argparse.Namespace, correction: str,
               baseline: str | None) -> int:
    specs = found.specs
    settings = {spec["name"]: RegressionSettings(**spec["nightly"]) for spec in specs}
    night_dir = root / night
    if not build(str(night_dir), specs, True, args.workers, args.scheduler_host, args.scheduler_port, found.unreadable):
        report_problems([], found.unreadable)
        print(f"evalpipe nightly: {night} not recorded in the history (a stage failed)", file=sys.stderr)
        return EXIT_FAILED
    reports = read_reports(night_dir, specs)
    items = night_item_scores(night_dir, specs)
    history = record_night(root, night, reports, items)
    nights = sorted({row["date"] for row in history})
    previous = previous_night(nights, night)
    tonight = scoring_parameters(night_dir)
    comparisons = compare_runs(root / previous, items, tonight, settings, correction) if previous else []
    drifts = (compare_runs(root / baseline, items, tonight, settings, correction)
              if baseline and baseline != previous else comparisons if baseline else [])
    write_json_atomic(night_dir / "regressions.json", {
        "night": night, "previous": previous, "baseline": baseline, "correction": correction,
        "settings": {name: s.described() for name, s in settings.items()},
        "regressions": [c for c in comparisons if c["regression"]], "comparisons": comparisons,
        "drifts": [c for c in drifts if c["regression"]], "baseline_comparisons": drifts})
    run = {"title": f"evalpipe nightly {night}", "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "code_version": code_version(), "outputs": str(night_dir)}
    nightly = {"comparisons": comparisons, "previous": previous, "trends": primary_trends(history), "nights": nights,
               "baseline": baseline, "baseline_comparisons": drifts, "correction": correction}
    write_report_page(night_dir / "report.html", render_html_page(reports, run, nightly))
    print_reports(reports, specs, args.verbose, str(args.outputs))
    if previous is None:
        print("nightly: first night in the history, nothing to compare with")
    else:
        print_comparisons(comparisons, "REGRESSION", previous)
    if baseline:
        print_comparisons(drifts, "DRIFT", f"baseline {baseline}")
    print(f"nightly {night}: report {night_dir / 'report.html'}; history {root / 'history.parquet'}")
    if report_problems(reports, found.unreadable, "nightly"):
        return EXIT_FAILED
    return EXIT_REGRESSION if any(c["regression"] for c in (*comparisons, *drifts)) else EXIT_OK
