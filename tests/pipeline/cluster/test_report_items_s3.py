"""report.html's item files on S3 (SeaweedFS on 127.0.0.1), through the storage layer as every artifact: written
before the page, each once (a file already there is not sent again), pruned once no page names it, and a lost one
noticed (the summary's completeness)."""
from __future__ import annotations

import pytest

from stages.io.storage import location
from stages.report import item_files
from stages.report.item_files import ITEMS_FOLDER, ReportPage, page_written, write_report_page
from tests.pipeline.servers import Weed

pytestmark = pytest.mark.servers


@pytest.fixture(scope="module")
def weed(tmp_path_factory):
    with Weed(tmp_path_factory.mktemp("weed")) as server:
        yield server


def test_item_files_on_s3_are_written_once_and_pruned(weed, monkeypatch):
    for name, value in weed.env.items():
        monkeypatch.setenv(name, value)
    import s3fs

    s3fs.S3FileSystem.clear_instance_cache()
    s3fs.S3FileSystem().mkdir("report-items")
    sent = []
    real_write = item_files.write_bytes_atomic
    monkeypatch.setattr(item_files, "write_bytes_atomic",
                        lambda path, data: (sent.append(path.name), real_write(path, data)))
    page = location("s3://report-items/outputs/report.html")
    write_report_page(page, ReportPage("<p>one</p>", {f"{ITEMS_FOLDER}/a.js": "a", f"{ITEMS_FOLDER}/b.js": "b"}))
    assert sent == ["a.js", "b.js", "report.html"]  # the files before the page that names them
    sent.clear()
    write_report_page(page, ReportPage("<p>two</p>", {f"{ITEMS_FOLDER}/b.js": "b", f"{ITEMS_FOLDER}/c.js": "c"}))
    assert sent == ["c.js", "report.html"]
    fs = s3fs.S3FileSystem()
    fs.invalidate_cache()
    assert sorted(path.rsplit("/", 1)[1] for path in fs.ls(f"report-items/outputs/{ITEMS_FOLDER}")) == ["b.js", "c.js"]
    assert fs.cat_file("report-items/outputs/report.html") == b"<p>two</p>"
    assert fs.cat_file(f"report-items/outputs/{ITEMS_FOLDER}/c.js") == b"c"
    named = [f"{ITEMS_FOLDER}/b.js", f"{ITEMS_FOLDER}/c.js"]
    assert page_written(page, named)
    fs.rm(f"report-items/outputs/{ITEMS_FOLDER}/c.js")
    s3fs.S3FileSystem.clear_instance_cache()
    assert not page_written(location("s3://report-items/outputs/report.html"), named)
