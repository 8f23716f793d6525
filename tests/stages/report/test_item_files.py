"""report.html's item data within its budget: shares per dataset, items split into the page and files beside it, the
files written once by their digest and pruned when no page names them."""
import json
import re

from stages.report.html import render_html_page
from stages.report.item_files import (
    CHUNK_BYTES,
    ITEMS_FOLDER,
    ReportPage,
    dataset_shares,
    item_data,
    item_texts,
    page_written,
    split_items,
    write_report_page,
)


def _explorer(count: int, text: str = "x" * 200) -> dict:
    return {"models": ["m"], "items": [{"id": f"q{i}", "question": f"{text} {i}", "gold": "g",
                                        "cells": {"m": {"prediction": "p", "status": "correct", "score": 1.0}}}
                                       for i in range(count)],
            "total": count, "not_right": 0, "set_aside": [], "set_aside_total": 0, "sampled": []}


def test_shares_give_small_datasets_what_they_need_and_split_the_rest():
    assert dataset_shares([10, 1000, 1000], 610) == [10, 300, 300]
    assert dataset_shares([10, 20], 1000) == [10, 20]
    assert dataset_shares([100, 100, 100], 90) == [30, 30, 30]
    assert sum(dataset_shares([7, 300, 5000, 90], 1000)) <= 1000


def test_items_past_the_share_go_to_files_beside_the_page_in_order():
    explorer = _explorer(40)
    texts = item_texts(explorer)
    sizes = [len(text.encode()) for text in texts]
    assert sizes == [len(json.dumps(item, separators=(",", ":")).encode()) for item in explorer["items"]]
    share = sum(sizes[:7]) + sizes[7] // 2  # room for 7 items and half of the 8th
    shown, files = split_items(explorer, texts, share)
    assert [item["id"] for item in shown["items"]] == [f"q{i}" for i in range(7)]
    assert shown["chosen"] == 40 and len(files) == len(shown["beside"]) >= 1
    ids = [row_id for part in shown["beside"] for row_id in part["ids"]]
    assert ids == [f"q{i}" for i in range(7, 40)]
    for part in shown["beside"]:
        key, body = re.fullmatch(r'evalpipeItems\("(\w+)",(.*)\);\n', files[part["src"]], re.S).groups()
        assert key == part["key"] and part["src"] == f"{ITEMS_FOLDER}/{key}.js"
        assert [item["id"] for item in json.loads(body)] == part["ids"]


def test_a_file_holds_about_a_chunk_of_items():
    explorer = _explorer(3000)
    shown, files = split_items(explorer, item_texts(explorer), 0)
    assert shown["items"] == [] and len(files) > 1
    assert all(len(text.encode()) < CHUNK_BYTES + 1000 for text in files.values())


def test_no_budget_embeds_every_item_and_writes_no_file():
    embedded, files = item_data([_explorer(50), None], None)
    assert len(embedded[0]["items"]) == 50 and embedded[0]["beside"] == [] and embedded[1] is None and files == {}


def test_the_page_embeds_no_more_than_its_budget(tmp_path):
    reports = [{"dataset": f"d{i}", "kind": "qa", "models": {"m": {"rows": 500, "exact_match": 0.5}},
                "set_aside": {}, "comparison": {"primary_metric": "exact_match"}, "explorer": _explorer(500, f"{i}" * 200)}
               for i in range(3)]
    whole = render_html_page(reports, {"title": "t"}, item_budget=None)
    page = render_html_page(reports, {"title": "t"}, item_budget=40_000)
    embedded = sum(len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode())
                   for found in re.findall(r'data-items="([^"]*)"', page.html)
                   for item in json.loads(found.replace("&#34;", '"').replace("&amp;", "&"))["items"])
    assert 35_000 < embedded <= 40_000 and whole.item_files == {}
    assert len(page.html) < len(whole.html) - 250_000  # 1,500 items of about 300 bytes, most of them beside it
    assert len(page.item_files) >= 3  # each dataset's own files


def test_files_are_written_once_and_pruned_when_no_page_names_them(tmp_path):
    page_path = tmp_path / "report.html"
    first = ReportPage("<html>one</html>", {f"{ITEMS_FOLDER}/a.js": "evalpipeItems('a',[]);",
                                            f"{ITEMS_FOLDER}/b.js": "evalpipeItems('b',[]);"})
    write_report_page(page_path, first)
    kept = (tmp_path / ITEMS_FOLDER / "a.js").stat()
    second = ReportPage("<html>two</html>", {f"{ITEMS_FOLDER}/a.js": "evalpipeItems('a',[]);",
                                             f"{ITEMS_FOLDER}/c.js": "evalpipeItems('c',[]);"})
    write_report_page(page_path, second)
    assert page_path.read_text() == "<html>two</html>"
    assert sorted(p.name for p in (tmp_path / ITEMS_FOLDER).iterdir()) == ["a.js", "c.js"]
    assert (tmp_path / ITEMS_FOLDER / "a.js").stat().st_mtime_ns == kept.st_mtime_ns  # not rewritten
    assert (tmp_path / ITEMS_FOLDER / "a.js").stat().st_ino == kept.st_ino
    write_report_page(page_path, ReportPage("<html>three</html>", {}))
    assert list((tmp_path / ITEMS_FOLDER).iterdir()) == []


def test_a_page_is_written_when_it_and_every_item_file_it_names_are_there(tmp_path):
    page_path, names = tmp_path / "report.html", [f"{ITEMS_FOLDER}/a.js", f"{ITEMS_FOLDER}/b.js"]
    assert not page_written(page_path, []) and not page_written(page_path, names)
    write_report_page(page_path, ReportPage("<html></html>", {name: "evalpipeItems('x',[]);" for name in names}))
    assert page_written(page_path, names) and page_written(page_path, [])
    (tmp_path / ITEMS_FOLDER / "b.js").unlink()
    assert not page_written(page_path, names) and page_written(page_path, names[:1])
    (tmp_path / ITEMS_FOLDER / "a.js").unlink()
    (tmp_path / ITEMS_FOLDER).rmdir()
    assert not page_written(page_path, names[:1]) and page_written(page_path, [])
