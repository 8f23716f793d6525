"""compare.html: run B against run A on one self-contained page — each paired difference with its interval and test
(the numbers `evalpipe compare` prints) and the flipped items, filterable, both runs' replies side by side."""
from __future__ import annotations

from typing import Any

from .flips import RIGHT_TO_WRONG, WRONG_TO_RIGHT
from .html import page_file, page_templates


def item_anchor(dataset: str, model: str, item: str) -> str:
    """An item's deep link on report.html and compare.html: dataset/model/id."""
    return f"{dataset}/{model}/{item}"


def render_compare_html(run: dict[str, Any], comparisons: list[dict[str, Any]], flips: list[dict[str, Any]],
                        counts: dict[tuple[str, str, str], int]) -> str:
    """The page (`run`: title, a and b — each run's name and the link to its report.html —, correction)."""
    shown = [{**flip, "anchor": item_anchor(flip["dataset"], flip["model"], flip["id"])} for flip in flips]
    tallies = [{"dataset": dataset, "model": model, "direction": direction, "count": count,
                "listed": sum(1 for f in flips if (f["dataset"], f["model"], f["direction"]) == (dataset, model,
                                                                                             direction))}
               for (dataset, model, direction), count in sorted(counts.items()) if count]
    return page_templates().get_template("compare.html.j2").render(
        run=run, comparisons=comparisons, flips=shown, tallies=tallies, directions=(RIGHT_TO_WRONG, WRONG_TO_RIGHT),
        datasets=sorted({flip["dataset"] for flip in flips}), style=page_file("report.css"),
        script=page_file("compare.js"))
