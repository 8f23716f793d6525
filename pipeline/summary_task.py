"""The run's summary as a Luigi task: every dataset's primary metric per model in B6_summary.json, and report.html with
the item files beside it (its completeness: all of them there)."""
from __future__ import annotations

import sys
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import luigi

from stages import build_summary, render_html_page, write_report_page
from stages.core.printable import printable
from stages.io.artifacts import read_artifact_json, write_json_atomic
from stages.io.storage import location
from stages.report.item_files import page_written

from .fingerprint import code_version as current_code_version
from .fingerprint import fingerprint
from .report_tasks import B6Report
from .task_base import CodeVersionParameter

if TYPE_CHECKING:
    from upath import UPath


class B6Summary(luigi.Task):
    """Every dataset's primary metric per model in outputs/B6_summary.json, and the run's outputs/report.html; a run
    where some datasets failed summarizes the others and names the failed ones (`failed`: dataset → why); `ran` names
    the datasets this invocation ran (the page says the others' trouble in one grey line). Its failure is printed in
    one line (it has no failure record of its own)."""

    outputs_dir = luigi.Parameter()
    specs = luigi.ListParameter()
    failed = luigi.DictParameter(default={})
    ran = luigi.OptionalListParameter(default=None)  # the datasets this invocation ran (None: any, as status asks)
    code_version = CodeVersionParameter()

    def requires(self) -> list[B6Report]:
        return [B6Report(outputs_dir=self.outputs_dir, spec=spec) for spec in self.specs]

    def artifact_path(self) -> UPath:
        return location(self.outputs_dir) / "B6_summary.json"

    def fingerprint(self) -> str:
        return fingerprint({"stage": "B6_summary", "upstream": [task.fingerprint() for task in self.requires()],
                            "failed": dict(self.failed)})

    def complete(self) -> bool:
        document = read_artifact_json(self.artifact_path())
        return (document is not None and document.get("header", {}).get("fingerprint") == self.fingerprint()
                and (self.ran is None or document.get("not_run_trouble") == _not_run(document, self.ran))
                and all(task.artifacts_present() for task in self.requires())
                and "report_files" in document and page_written(self.html_path(), document["report_files"]))

    def run(self) -> None:
        reports = [read_artifact_json(task.artifact_path())["report"] for task in self.requires()]
        header = {"stage": "B6_summary", "fingerprint": self.fingerprint(), "code_version": current_code_version(),
                  "upstream": {task.dataset: task.fingerprint() for task in self.requires()}}
        run = {"title": "evalpipe report", "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "code_version": header["code_version"], "outputs": self.outputs_dir}
        failed = dict(self.failed)
        page = render_html_page(reports, run, failed=failed, ran=None if self.ran is None else list(self.ran))
        write_report_page(self.html_path(), page)
        troubled = sorted({*failed, *(report["dataset"] for report in reports if report.get("problems"))})
        document = {"header": header, **build_summary(reports), "failed": failed, "troubled": troubled,
                    "report_files": sorted(page.item_files)}  # beside report.html: complete() checks they are there
        write_json_atomic(self.artifact_path(), {**document, "not_run_trouble": _not_run(document, self.ran)})

    def html_path(self) -> UPath:
        return location(self.outputs_dir) / "report.html"


def _not_run(document: dict, ran: list[str] | None) -> list[str]:
    """The datasets with trouble (`troubled`) that the invocation did not run: the page says them in a grey line, and
    a summary written for another split is written again."""
    return sorted(set(document.get("troubled", [])) - set(document.get("troubled", []) if ran is None else ran))


@B6Summary.event_handler(luigi.Event.FAILURE)
def _on_summary_failure(task: B6Summary, exception: BaseException) -> None:
    print(printable(f"FAILED B6 summary (report.html, B6_summary.json): {type(exception).__name__}: {exception}"),
          file=sys.stderr, flush=True)
