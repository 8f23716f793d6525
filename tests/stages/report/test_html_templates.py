"""The report page's templates are compiled once per user (Jinja2's bytecode cache), and a cache that cannot be used
never stops a report."""
import shutil
import tempfile

import pytest

from stages.report import html

TEMPLATES = ("report.html.j2", "sections.html.j2", "judge.html.j2", "cells.html.j2")


@pytest.fixture
def fresh_templates(monkeypatch):
    """`html.page_templates` rebuilt for the test (and again after it), the temporary folder set by the test."""
    html.page_templates.cache_clear()
    yield lambda folder: monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.undo()
    html.page_templates.cache_clear()


def test_a_second_run_loads_the_compiled_templates_without_compiling(fresh_templates, tmp_path):
    fresh_templates(tmp_path)
    first = html.page_templates()
    for name in TEMPLATES:
        first.get_template(name)
    assert len(list(tmp_path.glob("_jinja2-cache-*/__jinja2_*.cache"))) == len(TEMPLATES)
    html.page_templates.cache_clear()
    second = html.page_templates()

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    second.compile = no_compiling
    for name in TEMPLATES:
        assert second.get_template(name).render is not None


def test_no_cache_folder_still_renders(fresh_templates, tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    fresh_templates(not_a_folder)
    assert html._bytecode_cache() is None
    assert "<html" in html.render_html_report([], {"title": "t"})


def test_a_cache_folder_removed_under_the_run_only_costs_the_compile(fresh_templates, tmp_path):
    fresh_templates(tmp_path)
    environment = html.page_templates()
    for folder in tmp_path.glob("_jinja2-cache-*"):
        shutil.rmtree(folder)
    for name in TEMPLATES:
        environment.get_template(name)
    assert not list(tmp_path.glob("_jinja2-cache-*/*"))


def test_counts_in_the_sections_tables_are_whole_numbers_with_separators():
    import re

    templates = html.page_templates()
    sections, judge = (templates.get_template(name).module for name in ("sections.html.j2", "judge.html.j2"))
    report = {"models": {"m": {"tampering": {"programs": 12345, "passed": 2000,
                                            "signs": {"sys._getframe": {"count": 12001, "example": "x"}}}}}}
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", str(sections.tampering(report)))
    assert cells == ["m", "12,345", "2,000", "sys._getframe: 12,001 (e.g. x)"]
    harness = [{"model": "m", "tool": "lm-eval", "task": "t", "figures": [],
                "disagreements": [{"metric": "acc", "rows": 10042, "disagree": 1500, "harness_only": 1000,
                                   "evalpipe_only": 500}]}]
    assert re.findall(r"<td>([^<]*)</td>", str(sections.harness(harness)))[2:] == ["10,042", "1,500", "1,000", "500"]
    judged = {"judges": ["j"], "models": {"m": {"c": {"scale": "1-5", "mean": 3.5, "interval": None, "n": 9999,
                                                      "items": 10000, "parse_rate": 0.9999, "unparsed": 1001,
                                                      "failed_calls": 0}}}}
    text = str(judge.judge_table(judged))
    assert "<td>9,999 / 10,000</td>" in text and "<td>1,001</td><td>0</td>" in text
    assert html.whole_count(True) is True and html.whole_count(0.5) == 0.5 and html.whole_count(1234) == "1,234"
