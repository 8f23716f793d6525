"""compare.html: run B against run A on one self-contained page — each paired difference with its interval and test
(the numbers `evalpipe compare` prints) and the flipped items, filterable, both runs' replies side by side, each
drawn by its kind's view as on report.html — and the console's links to its flipped items."""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from ..core.text_table import display_width
from .flips import RIGHT_TO_WRONG, WRONG_TO_RIGHT
from .highlight_assets import highlight_assets
from .html import page_file, page_templates
from .katex_assets import katex_assets
from .renderers import renderer_for

LINKS_SHOWN = 10  # flipped items the console gives a link to, the first ones; the rest counted


def item_anchor(dataset: str, model: str, item: str) -> str:
    """An item's deep link on report.html and compare.html: dataset/model/id."""
    return f"{dataset}/{model}/{item}"


def flip_links(flips: list[dict[str, Any]], flipped: int, page: str, name: str, shown: int = LINKS_SHOWN,
               width: int = 160) -> list[str]:
    """The console's lines for the first `shown` flipped items, each its direction and its link
    `page#dataset/model/id` (percent-encoded; `name#…`, the page's file name, where the whole path would pass
    `width` columns, cut with "…" where even that would), then how many more of the `flipped` there are."""
    lines = []
    for flip in flips[:shown]:
        anchor = quote(item_anchor(flip["dataset"], flip["model"], flip["id"]), safe="/")
        line = f"  {flip['direction']}: {page}#{anchor}"
        if display_width(line) > width:
            line = f"  {flip['direction']}: {name}#{anchor}"
        lines.append(line if display_width(line) <= width else line[:width - 1] + "…")
    if flipped > len(lines):
        lines.append(f"  … and {flipped - len(lines):,} more flipped item(s), listed in {name}")
    return lines


def render_compare_html(run: dict[str, Any], comparisons: list[dict[str, Any]], flips: list[dict[str, Any]],
                        counts: dict[tuple[str, str, str], int], kinds: dict[str, str]) -> str:
    """The page (`run`: title, a and b — each run's name and the link to its report.html —, correction; `kinds`:
    dataset → kind name, whose renderer's view of report.html draws each reply, with KaTeX and highlight.js embedded
    when a flipped item's view needs them)."""
    renderers = {dataset: renderer_for(kind) for dataset, kind in kinds.items()}
    shown = [{**flip, "anchor": item_anchor(flip["dataset"], flip["model"], flip["id"]),
              "view": renderers[flip["dataset"]].view,
              "replies": {side: json.dumps(flip[side], ensure_ascii=False) for side in ("a", "b")}} for flip in flips]
    viewed = [renderers[dataset] for dataset in {flip["dataset"] for flip in flips}]
    tallies = [{"dataset": dataset, "model": model, "direction": direction, "count": count,
                "listed": sum(1 for f in flips if (f["dataset"], f["model"], f["direction"]) == (dataset, model,
                                                                                             direction))}
               for (dataset, model, direction), count in sorted(counts.items()) if count]
    return page_templates().get_template("compare.html.j2").render(
        run=run, comparisons=comparisons, flips=shown, tallies=tallies, directions=(RIGHT_TO_WRONG, WRONG_TO_RIGHT),
        datasets=sorted({flip["dataset"] for flip in flips}), style=page_file("report.css"),
        script=page_file("views.js") + page_file("compare.js"),
        katex=katex_assets() if any(renderer.needs_katex for renderer in viewed) else None,
        highlight=highlight_assets() if any(renderer.needs_highlight for renderer in viewed) else None)
