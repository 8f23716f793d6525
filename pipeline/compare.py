"""`evalpipe compare A B`: the nightly's paired tests between any two finished runs (outputs folders or nights)."""
from __future__ import annotations

import argparse
import json
import re
from typing import TYPE_CHECKING, Any

from stages.core.text_table import format_table
from stages.io.storage import location
from stages.nightly.runs import run_item_scores, run_reports, scoring_parameters

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
             "–" if c["delta"] is None else f"{c['delta']:+.4f}", number(c["p_value"], ".3g"),
             number(c.get("p_adjusted"), ".3g"),
             "WORSE" if c["regression"] else "not comparable" if c.get("comparable") is False else ""]
            for c in comparisons]
    return format_table(["dataset", "model", "metric", "items", "A", "B", "change", "p", "adjusted p", "verdict"], rows)


def cmd_compare(args: argparse.Namespace) -> int:
    before, after = run_folder(args.before, args.outputs), run_folder(args.after, args.outputs)
    correction = night_settings(correction=args.correction)["correction"]
    settings = regression_settings()
    reports = run_reports(after)
    comparisons = compare_runs(before, run_item_scores(after, reports), scoring_parameters(after, reports),
                               {name: settings for name in reports}, correction)
    if args.json:
        print(json.dumps({"a": str(before), "b": str(after), "correction": correction, "settings": settings.described(),
                          "comparisons": comparisons}, ensure_ascii=False, indent=1))
    else:
        print(comparison_table(comparisons))
        print_comparisons(comparisons, "WORSE", f"A ({before})", "compare", "significant drop")
    return EXIT_REGRESSION if any(c["regression"] for c in comparisons) else EXIT_OK
