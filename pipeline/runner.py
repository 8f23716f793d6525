"""Running the DAG for a set of datasets, and printing what it produced; shared by `run` and `nightly`."""
from __future__ import annotations

import logging
import sys
import uuid
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import luigi

from stages import build_summary, render_report
from stages.chat.costs import cost_line, tokens_text
from stages.chat.outage import report_next_steps
from stages.core.printable import printable
from stages.io.artifacts import read_artifact_json
from stages.io.file_facts import facts_kept_in
from stages.io.storage import is_local, location, storage_full, storage_problem
from stages.judge.costs import judge_cost, total_cost
from stages.kinds import report_kind
from stages.report.aggregate import (
    bradley_terry_line,
    labels_set_aside,
    render_summary,
    reply_notes,
    set_aside_lines,
    set_aside_place,
)
from stages.report.health import problems_of
from stages.report.sampling import sampling_line

from .cluster import build_on_luigid, scheduler_address
from .failures import FAILURES_DIR, clear_failure
from .plan import Discovery
from .report_tasks import B6Report
from .summary_task import B6Summary
from .task_base import StageTask, fingerprints_remembered, forget_fingerprints, forget_storage_full, storage_full_seen
from .tasks import warm_up_runs

if TYPE_CHECKING:
    from upath import UPath


FACTS_NAME = ".evalpipe.facts.json"


def input_facts_kept(outputs: UPath) -> AbstractContextManager:
    """Facts about local inputs (digests, record counts) kept in <outputs>/.evalpipe.facts.json between runs, so a
    run where nothing changed reads no input again; none are kept beside remote outputs."""
    return facts_kept_in(Path(outputs) / FACTS_NAME) if is_local(outputs) else nullcontext()


class TaskTracebacksQuiet(logging.Filter):
    """Drops Luigi's multi-line traceback for a failed task: the run prints one FAILED line per stage, and the
    traceback is in the stage's failure record."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("[pid %s] Worker %s failed")


_QUIET = TaskTracebacksQuiet()


def build(outputs: str, specs: list[dict[str, Any]], with_summary: bool, workers: int,
          scheduler_host: str | None, scheduler_port: int | None = None,
          unreadable: dict[str, str] | None = None) -> bool:
    """Run the DAG up to each dataset's B6 (and the summary with report.html, naming the `unreadable` datasets) on
    the local scheduler, or on luigid until it is done whoever runs each task; False, with the failures printed, when
    a stage failed."""
    logging.getLogger("luigi-interface").addFilter(_QUIET)  # once: adding the same filter again does nothing
    specs = with_run_token(specs, new_run=True)
    forget_storage_full()
    targets: list[luigi.Task] = [B6Report(outputs_dir=outputs, spec=spec) for spec in specs]
    if with_summary:
        targets.append(B6Summary(outputs_dir=outputs, specs=specs, failed=unreadable or {},
                                 ran=[*(spec["name"] for spec in specs), *(unreadable or {})]))
    with fingerprints_remembered():
        if workers == 1:  # the stages run in this process
            warm_up_runs(outputs, specs)
        if scheduler_host:
            host, port = scheduler_address(scheduler_host, scheduler_port)
            if build_on_luigid(targets, workers, host, port, lambda result: _settle(outputs, targets, result)):
                return True
        else:
            result = luigi.build(targets, workers=workers, detailed_summary=True, log_level="WARNING",
                                 local_scheduler=True)
            forget_fingerprints()  # stages run in worker processes (--workers > 1) changed what this one remembers
            succeeded = result.status in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY)
            if storage_lost(outputs, failed=not succeeded):
                return False
            settle_failures(outputs, targets)
            if succeeded:
                return True
        incomplete = [task for task in dag_tasks(targets) if not task.complete()]
        if not scheduler_host:  # on luigid, _settle has said what failed
            report_failures(outputs, incomplete, result.status.name)
        if with_summary:
            summarize_the_rest(outputs, specs, incomplete, unreadable or {})
    return False


_RUN_TOKEN = [uuid.uuid4().hex]  # the latest build's


def with_run_token(specs: list[dict[str, Any]], new_run: bool = False) -> list[dict[str, Any]]:
    """The specs carrying the run's token (in the spec, so every host agrees): a new one for a new run, else the
    latest run's (so a summary or status after a run sees that run's stages). The token makes each run's tasks new
    to luigid — a stage done by an earlier run is never taken as done there while its artifact is lost, whatever order
    the driver adds the stages in — and lets answers and judge calls that failed be asked again once per run."""
    if new_run:
        _RUN_TOKEN[0] = uuid.uuid4().hex
    return [{**spec, "run_token": _RUN_TOKEN[0]} for spec in specs]


def storage_lost(outputs: str, failed: bool) -> bool:
    """After a build: when the outputs' storage has become unusable (unreachable for longer than retry_for: an outage
    within it is waited out, as the stages do), or stages `failed` because it is full or read-only, say so in one
    line (nothing more can be written there, not even the failure records); True then."""
    problem = storage_problem(location(outputs), patient=True)
    if problem is not None:
        print(f"evalpipe: run failed: the outputs' storage became unusable during the run: {problem}; the stages "
              "that finished are kept, a rerun once it is back resumes from them", file=sys.stderr)
        return True
    full = (storage_full_seen() or storage_full(location(outputs))) if failed else None
    if full is not None:
        print(f"evalpipe: run failed: the outputs' storage {outputs} is full: {full}; nothing more was written (no "
              "summary, no report.html), the stages that finished are kept, a rerun with space resumes from them",
              file=sys.stderr)
    return full is not None


def summarize_the_rest(outputs: str, specs: list[dict[str, Any]], incomplete: list[luigi.Task],
                       unreadable: dict[str, str]) -> None:
    """One dataset's failure never takes the others' summary away: B6_summary.json and report.html are written for
    the datasets that finished, naming each failed one with its first error (and each unreadable one)."""
    if not any(isinstance(task, StageTask) for task in incomplete):  # every dataset finished: the summary itself failed
        print(f"evalpipe: the summary and report.html could not be written under {outputs}", file=sys.stderr)
        return
    reasons: dict[str, str] = {}
    for task in incomplete:
        if isinstance(task, StageTask) and task.dataset not in reasons:
            record = task.failure()
            if record is not None:
                reasons[task.dataset] = f"{task.stage}{f' / {task.model}' if task.model else ''}: {record['error']}"
    done, failed, written = summarize(outputs, specs, reasons, "a stage it needs did not complete", unreadable,
                                      [*(spec["name"] for spec in specs), *unreadable])
    if written:
        print(f"evalpipe: summary and report.html written for the {len(done)} dataset(s) that finished; failed: "
              f"{printable(', '.join(sorted(failed)))}", file=sys.stderr)
    else:
        print(f"evalpipe: the summary and report.html could not be written under {outputs}", file=sys.stderr)


def refresh_summary(outputs: str, discovery: Discovery, ran: list[str] | None = None) -> None:
    """After a run of some datasets (`ran`): B6_summary.json and report.html describe every dataset's latest report,
    naming those whose report is not up to date."""
    summarize(outputs, discovery.specs, {}, "its report is not up to date (run without --dataset to bring it up to "
              "date)", discovery.unreadable, ran)


def summarize(outputs: str, specs: list[dict[str, Any]], reasons: dict[str, str], otherwise: str,
              unreadable: dict[str, str],
              ran: list[str] | None = None) -> tuple[list[dict[str, Any]], dict[str, str], bool]:
    """The summary and report.html over the datasets whose B6 is complete, naming each other one with its reason
    (`reasons`, else `otherwise`) and each unreadable one; `ran` names the datasets this invocation ran (None: all);
    (those done, those named, whether it was written)."""
    specs = with_run_token(specs)
    done = [spec for spec in specs if B6Report(outputs_dir=outputs, spec=spec).complete()]
    failed = {**unreadable, **{spec["name"]: reasons.get(spec["name"], otherwise) for spec in specs if spec not in done}}
    summary = B6Summary(outputs_dir=outputs, specs=done, failed=failed, ran=ran)
    luigi.build([summary], local_scheduler=True, log_level="WARNING")
    return done, failed, summary.complete()


def _settle(outputs: str, targets: list[luigi.Task], result: Any) -> bool | None:
    """After a round on luigid: True when every task is complete, False (failures printed) when one has failed,
    None while others are still running some."""
    forget_fingerprints()  # other hosts have written artifacts since the last look
    if storage_lost(outputs, failed=storage_full_seen() is not None):
        return False
    settle_failures(outputs, targets)
    incomplete = [task for task in dag_tasks(targets) if not task.complete()]
    if not incomplete:
        return True
    failed = any(isinstance(task, StageTask) and task.failure() for task in incomplete)
    waiting = result.status in (luigi.LuigiStatusCode.NOT_RUN, luigi.LuigiStatusCode.SUCCESS,
                                luigi.LuigiStatusCode.SUCCESS_WITH_RETRY)
    if failed or not waiting:
        report_failures(outputs, incomplete, result.status.name)
        return False
    return None


def dag_tasks(targets: list[luigi.Task]) -> list[luigi.Task]:
    """Every task the targets need, each once, upstream first."""
    seen: dict[str, luigi.Task] = {}

    def visit(task: luigi.Task) -> None:
        if task.task_id not in seen:
            for upstream in luigi.task.flatten(task.requires()):
                visit(upstream)
            seen[task.task_id] = task

    for target in targets:
        visit(target)
    return list(seen.values())


def settle_failures(outputs: str, targets: list[luigi.Task]) -> None:
    """A failure record belongs to its stage's failed state: the records of stages that are now complete (done by
    this build, or found done, say after the setting that broke them was reverted) are removed."""
    records = {path.name for path in (location(outputs) / FAILURES_DIR).glob("*.json")}
    if not records:
        return
    for task in dag_tasks(targets):
        if isinstance(task, StageTask) and task.failure_record_path().name in records and task.complete():
            clear_failure(task.failure_record_path())


def report_failures(outputs: str, incomplete: list[luigi.Task], luigi_status: str) -> None:
    """Say which stages failed (with their error) and how many could not run because of them."""
    records = [(task, task.failure()) for task in incomplete if isinstance(task, StageTask)]
    failed = [(task, record) for task, record in records if record is not None]
    for task, record in failed:
        where = " / ".join(part for part in (task.stage, task.dataset, task.model) if part)
        print(printable(f"FAILED {where}: {record['error']}"), file=sys.stderr)
    blocked = len(incomplete) - len(failed)
    if failed:
        print(f"evalpipe: run failed: {len(failed)} stage(s) failed, {blocked} not run because a stage they need "
              f"failed; tracebacks under {location(outputs) / FAILURES_DIR}", file=sys.stderr)
    else:
        print(f"evalpipe: run failed: {blocked} stage(s) not completed (Luigi: {luigi_status}); see the messages "
              "above", file=sys.stderr)


def read_reports(outputs: UPath, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each dataset's B6 report, in the order of the specs."""
    return [read_artifact_json(outputs / spec["name"] / "B6_report.json")["report"] for spec in specs]


def print_reports(reports: list[dict[str, Any]], specs: list[dict[str, Any]], verbose: bool,
                  outputs: str = "outputs") -> None:
    """A short summary table, or with `verbose` every dataset's full report (seed 002's layout) and set-aside lines
    (whose commands name `outputs` when it is not the default)."""
    if not verbose:
        print(render_summary(build_summary(reports)))
        for report in reports:
            if report.get("bradley_terry"):
                print(printable(f"{report['dataset']}: {bradley_terry_line(report['bradley_terry'])}"))
            kind_text = report_kind(report).console_text(report)
            if kind_text:
                print(printable(f"{report['dataset']}:\n{kind_text}"))
            primary = report["comparison"]["primary_metric"]
            for model, found in report.get("samples", {}).items():
                print(printable(f"{report['dataset']}: {sampling_line(model, found, primary)}"))
            for note in reply_notes(report):
                print(printable(f"evalpipe: {report['dataset']} / {note}"), file=sys.stderr)
            for line in set_aside_lines(report, outputs):
                print(printable(f"evalpipe: {line}"), file=sys.stderr)
            aside = labels_set_aside(report)
            if aside:
                print(printable(f"evalpipe: {report['dataset']}: {len(aside)} labels row(s) set aside (first: "
                                f"{set_aside_place(aside[0])}: {aside[0]['reason']}); each is listed in its "
                                "B6_report.txt"), file=sys.stderr)
        print_costs(reports)
        return
    for report, spec in zip(reports, specs):
        print(f"{'=' * 80}\ndataset {spec['name']} ({spec['kind']}, {spec['kind_source']})\n{'=' * 80}")
        print(render_report(report))
        for note in reply_notes(report):
            print(printable(f"note: {note}"))
        for model, aside in report["set_aside"].items():
            if any(aside.values()):
                print(
                    f"set aside for {model}: {aside['question_rows_rejected']} question row(s), "
                    f"{aside['prediction_rows_rejected']} prediction row(s) rejected; "
                    f"{aside['missing_predictions']} question(s) without prediction (scored 0); "
                    f"{aside['unmatched_predictions']} prediction(s) without question (ignored)"
                )


def print_costs(reports: list[dict[str, Any]]) -> None:
    """What asking the servers took: the judge per dataset (and in all), each generated model; a judge whose budget
    ran out says how many calls it left."""
    for report in reports:
        for model, generation in report.get("generation", {}).items():
            cost = f", ${generation['cost']:,.2f}" if generation.get("cost") is not None else ""
            print(printable(f"{report['dataset']} / {model}: generation: {generation['answers']:,} answers, "
                            f"{tokens_text(generation['tokens_in'], generation['tokens_out'])}{cost}"))
        if report.get("judge_cost"):
            total = report["judge_cost"]["total"]
            asked = cost_of_run(report, _RUN_TOKEN[0])
            print(printable(f"{report['dataset']}: " + (cost_line("judge", asked["total"]) if asked is not None else
                                                       "judge: nothing asked (every verdict was on hand)")))
            if total["not_judged"] and not report.get("judge_without_url"):
                print(printable(f"evalpipe: {report['dataset']}: the judge's budget was reached: {total['not_judged']:,} "
                                "call(s) not judged (left out of every mean); the next run asks them first"),
                      file=sys.stderr)
            elif total["not_judged"]:
                print(printable(f"evalpipe: {report['dataset']}: [judge] has no url: {total['not_judged']:,} call(s) "
                                "not judged (left out of every mean); add its url to ask them"), file=sys.stderr)
    this_run = [{"judge_cost": found} for report in reports if report.get("judge_cost")
                and (found := cost_of_run(report, _RUN_TOKEN[0])) is not None]
    everything = total_cost(this_run)
    if everything is not None and len(this_run) > 1:
        print(cost_line("judge, all datasets", everything))


def cost_of_run(report: dict[str, Any], run_token: str) -> dict[str, Any] | None:
    """What the judge stages this run computed asked (stages taken from an earlier run asked nothing now), or None
    when none ran."""
    stages = {name: usage for name, usage in report["judge_cost"]["stages"].items()
              if usage.get("run_token") == run_token}
    return judge_cost(stages, report["judge_cost"].get("price")) if stages else None


def report_problems(reports: list[dict[str, Any]], unreadable: dict[str, str] | None = None,
                    command: str = "run") -> bool:
    """Print every dataset problem (inputs that cannot be read, nothing to score, too much set aside, options not
    found, models not published for items not scored), the last line saying what to do about items not scored;
    True when any."""
    problems = [*sorted((unreadable or {}).items()), *problems_of(reports)]
    for dataset, problem in problems:
        print(printable(f"PROBLEM {dataset}: {problem}"), file=sys.stderr)
    if problems:
        datasets = sorted({dataset for dataset, _ in problems})
        print(f"evalpipe: {len(datasets)} dataset(s) not fit to publish: {', '.join(datasets)}", file=sys.stderr)
    steps = report_next_steps(reports, command)
    if steps:
        print(f"evalpipe: what to do: {'; '.join(steps)}", file=sys.stderr)
    return bool(problems)
