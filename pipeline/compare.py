"""`evalpipe compare A B`: the nightly's paired tests between any two finished runs (outputs folders or nights)."""
from __future__ import annotations

import argparse
import json
import os
import re
from typing import TYPE_CHECKING, Any

from stages.core.text_table import format_table
from stages.io.storage import location, write_bytes_atomic
from stages.nightly.runs import run_item_scores, run_reports, scoring_parameters
from stages.report.compare_html import flip_links, render_compare_html
from stages.report.flips import flipped_items, item_values, with_intervals

from .compare_items import flipped_texts
from .exit_codes import EXIT_OK, EXIT_REGRESSION
from .nightly import compare_runs, print_comparisons
from .plan import night_settings, regression_settings

if TYPE_CHECKING:
    from upath import UPath

_NIGHT = re.compile(r"\d{4}-\d{2}-\d{2}")


def run_folder(name: str, outputs: str) -> UPath:
    """A run named on the command line: a night (YYYY-MM-DD) under OUTPUTS/nightly that exists, else a folder."""
    night = location(outputs) / "nightly" / name
    return night if _NIGHT.fullmatch(name) and night.is_dir() else location(name)


def comparison_table(comparisons: list[dict[str, Any]]) -> str:
    """One line per dataset × model × metric: values, change, raw and adjusted p, verdict."""
    def number(value: float | None, digits: str = ".4f") -> str:
        return "–" if value is None else format(value, digits)

    rows = [[c["dataset"], c["model"], c["metric"], str(c["paired_items"]), number(c["before"]), number(c["after"]),
             "–" if c["delta"] is None else f"{c['delta']:+.4f}",
             "–" if c.get("low") is None else f"[{c['low']:+.4f}, {c['high']:+.4f}]", number(c["p_value"], ".3g"),
             number(c.get("p_adjusted"), ".3g"),
             "WORSE" if c["regression"] else "not comparable" if c.get("comparable") is False else ""]
            for c in comparisons]
    return format_table(["dataset", "model", "metric", "items", "A", "B", "change", "95% interval", "p", "adjusted p", "verdict"], rows)


def cmd_compare(args: argparse.Namespace) -> int:
    before, after = run_folder(args.before, args.outputs), run_folder(args.after, args.outputs)
    correction = night_settings(correction=args.correction)["correction"]
    settings = regression_settings()
    reports = run_reports(after)
    earlier, later = run_item_scores(before), run_item_scores(after, reports)
    comparisons = compare_runs(before, later, scoring_parameters(after, reports),
                               {name: settings for name in reports}, correction, earlier)
    values_before, values_after = item_values(earlier), item_values(later)
    comparisons = with_intervals(comparisons, values_before, values_after)
    page = location(args.html) if args.html else after / "compare.html"
    flips, counts = flipped_items(values_before, values_after,
                                  {name: report["comparison"]["primary_metric"] for name, report in reports.items()})
    runs = {"title": f"evalpipe compare: {args.after} against {args.before}", "correction": correction,
            "a": _run_link(args.before, before, page), "b": _run_link(args.after, after, page)}
    kinds = {name: report["kind"] for name, report in reports.items()}
    write_bytes_atomic(page, render_compare_html(runs, comparisons, flipped_texts(flips, before, after, kinds),
                                                 counts, kinds).encode())
    if args.json:
        print(json.dumps({"a": str(before), "b": str(after), "correction": correction, "settings": settings.described(),
                          "comparisons": comparisons}, ensure_ascii=False, indent=1))
    else:
        print(comparison_table(comparisons))
        print_comparisons(comparisons, "WORSE", f"A ({before})", "compare", "significant drop")
        flipped = sum(counts.values())
        print(f"compare: {flipped:,} item(s) flipped; each with both runs' replies in {page}" + (":" if flips else ""))
        for line in flip_links(flips, flipped, str(page), page.name):
            print(line)
    return EXIT_REGRESSION if any(c["regression"] for c in comparisons) else EXIT_OK


def _run_link(name: str, folder: UPath, page: UPath) -> dict[str, str | None]:
    """A run as compare.html names it: its name on the command line and its report.html relative to the page (None
    when it has none, or either is not on this machine's file system)."""
    report = folder / "report.html"
    local = getattr(folder, "protocol", "") in ("", "file", "local") and getattr(page, "protocol", "") in (
        "", "file", "local")
    if not (local and report.exists()):
        return {"name": name, "report": None}
    return {"name": name, "report": os.path.relpath(str(report), os.path.dirname(str(page))).replace(os.sep, "/")}
