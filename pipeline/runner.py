"""Running the DAG for a set of datasets, and printing what it produced; shared by `run` and `nightly`."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import luigi

from stages import render_report
from stages.io.artifacts import read_artifact_json

from .failures import read_failures
from .task_base import fingerprints_remembered
from .tasks import B6Report, B6Summary, start_run


def build(outputs: str, specs: list[dict[str, Any]], with_summary: bool, workers: int,
          scheduler_host: str | None) -> bool:
    """Run the DAG up to each dataset's B6 (and the summary with report.html); False, with the failures printed,
    when a stage failed."""
    start_run()
    targets: list[luigi.Task] = [B6Report(outputs_dir=outputs, spec=spec) for spec in specs]
    if with_summary:
        targets.append(B6Summary(outputs_dir=outputs, specs=specs))
    scheduler: dict[str, Any] = {"local_scheduler": True}
    if scheduler_host:
        host, _, port = scheduler_host.partition(":")
        scheduler = {"scheduler_host": host, **({"scheduler_port": int(port)} if port else {})}
    with fingerprints_remembered():
        result = luigi.build(targets, workers=workers, detailed_summary=True, log_level="WARNING", **scheduler)
    failures = read_failures(Path(outputs))
    if result.status not in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY) or failures:
        for failure in failures:
            where = " / ".join(str(failure[k]) for k in ("stage", "dataset", "model") if failure.get(k))
            print(f"FAILED {where}: {failure['error']}", file=sys.stderr)
        print(f"evalpipe: run failed ({result.status.name}); tracebacks under {outputs}/_failures/", file=sys.stderr)
        return False
    return True


def print_dataset(outputs: Path, spec: dict[str, Any]) -> None:
    document = read_artifact_json(outputs / spec["name"] / "B6_report.json")
    report = document["report"]
    print(f"{'=' * 80}\n数据集 {spec['name']} ({spec['kind']}, {spec['kind_source']})\n{'=' * 80}")
    print(render_report(report))
    for model, aside in report["set_aside"].items():
        if any(aside.values()):
            print(
                f"set aside for {model}: {aside['question_rows_rejected']} question row(s), "
                f"{aside['prediction_rows_rejected']} prediction row(s) rejected; "
                f"{aside['missing_predictions']} question(s) without prediction (scored 0); "
                f"{aside['unmatched_predictions']} prediction(s) without question (ignored)"
            )
