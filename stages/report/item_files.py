"""report.html's item data within a budget: of each dataset's explorer items, those that fit its share of the page's
budget are embedded and the rest written beside the page as small scripts (report_items/<digest>.js) that hand
their items to the page when a <script> tag loads them — file:// allows that where it blocks fetch."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..io.storage import write_bytes_atomic

if TYPE_CHECKING:
    from upath import UPath

ITEM_BUDGET = 4 * 2**20  # bytes of item JSON report.html embeds, over all its datasets
CHUNK_BYTES = 256 * 2**10  # bytes of item JSON per file beside the page, about
ITEMS_FOLDER = "report_items"


@dataclass(frozen=True)
class ReportPage:
    """report.html's text and the item files beside it (path relative to the page → text)."""

    html: str
    item_files: dict[str, str]


def dataset_shares(sizes: list[int], budget: int) -> list[int]:
    """Each dataset's share of the budget: a dataset needing less than an even split takes what it needs, the others
    split what is left evenly."""
    shares, left, waiting = [0] * len(sizes), budget, sorted(range(len(sizes)), key=lambda i: sizes[i])
    for place, index in enumerate(waiting):
        shares[index] = min(sizes[index], left // (len(waiting) - place))
        left -= shares[index]
    return shares


def item_texts(explorer: dict[str, Any]) -> list[str]:
    """Each explorer item as compact JSON, as the page and the files beside it hold it."""
    return [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in explorer["items"]]


def item_file(texts: list[str]) -> tuple[str, str, str]:
    """(key, path, text) of a file beside the page holding the items of these JSON `texts`: named by its content's
    digest, it hands them to the page's evalpipeItems under that key."""
    body = "[" + ",".join(texts) + "]"
    key = hashlib.sha256(body.encode()).hexdigest()[:24]
    return key, f"{ITEMS_FOLDER}/{key}.js", f"evalpipeItems({json.dumps(key)},{body});\n"


def split_items(explorer: dict[str, Any], texts: list[str], share: int) -> tuple[dict[str, Any], dict[str, str]]:
    """(the explorer data the page embeds, files beside it): its leading items that fit in `share` bytes (`texts`:
    item_texts) embedded, the rest in files of about CHUNK_BYTES each, listed with their items' ids (`beside`) for
    deep links."""
    sizes = [len(text.encode()) for text in texts]
    embedded, used = 0, 0
    while embedded < len(sizes) and used + sizes[embedded] <= share:
        used += sizes[embedded]
        embedded += 1
    beside, files, start = [], {}, embedded
    while start < len(sizes):
        end, chunk = start, 0
        while end < len(sizes) and (end == start or chunk + sizes[end] <= CHUNK_BYTES):
            chunk += sizes[end]
            end += 1
        key, path, text = item_file(texts[start:end])
        beside.append({"key": key, "src": path, "ids": [str(item["id"]) for item in explorer["items"][start:end]]})
        files[path] = text
        start = end
    return {**explorer, "items": explorer["items"][:embedded], "beside": beside, "chosen": len(sizes)}, files


def item_data(explorers: list[dict[str, Any] | None],
              budget: int | None) -> tuple[list[dict[str, Any] | None], dict[str, str]]:
    """Per dataset the explorer data its section embeds (None where it has none), and the files beside the page;
    `budget` None embeds every item."""
    if budget is None:
        return [None if e is None else {**e, "beside": [], "chosen": len(e["items"])} for e in explorers], {}
    texts = [[] if e is None else item_texts(e) for e in explorers]
    needs = [sum(len(text.encode()) for text in each) for each in texts]
    embedded, files = [], {}
    for explorer, each, share in zip(explorers, texts, dataset_shares(needs, budget)):
        if explorer is None:
            embedded.append(None)
            continue
        shown, written = split_items(explorer, each, share)
        embedded.append(shown)
        files.update(written)
    return embedded, files


def write_report_page(path: UPath, page: ReportPage) -> None:
    """The page at `path` with its item files beside it: each file first, written only when absent (its name is its
    content's digest), then the page (atomically: it never names a file not yet there), then the files of the
    items folder no page names any more are removed."""
    folder = path.parent / ITEMS_FOLDER
    for name, text in page.item_files.items():
        target = path.parent / name
        if not target.exists():
            write_bytes_atomic(target, text.encode())
    write_bytes_atomic(path, page.html.encode())
    if not folder.exists():
        return
    named = {name.rsplit("/", 1)[1] for name in page.item_files}
    for stale in folder.iterdir():
        if stale.name.endswith(".js") and stale.name not in named:
            stale.unlink()


def page_written(path: UPath, item_files: list[str]) -> bool:
    """Whether the page at `path` is there with every one of its `item_files` (paths relative to it, as ReportPage
    names them) beside it: the page, then one listing of its items folder."""
    if not path.exists():
        return False
    if not item_files:
        return True
    folder = path.parent / ITEMS_FOLDER
    present = {entry.name for entry in folder.iterdir()} if folder.exists() else set()
    return all(name.rsplit("/", 1)[1] in present for name in item_files)
